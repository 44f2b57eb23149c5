/// What a change of model version did to an import's records, one entry per decision that changes something, for
/// people (its `description` is the plan's "Model change:" list) and for programs (`Codable`).
///
/// Made by the version mapping from the mapping and the counts the import made with it.
public struct ModelChangeReport: Sendable, Hashable, Codable {
    /// One decision of the mapping, with what it did.
    public struct Entry: Sendable, Hashable, Codable {
        /// What kind of decision.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// The target's version has no such entity: its records are dropped.
            case entityDropped = "entity-dropped"
            /// The mapping's `modelChange` leaves the entity out: its records are dropped.
            case entityLeftOut = "entity-left-out"
            /// The entity has another name in the target's version.
            case entityRenamed = "entity-renamed"
            /// The property has another name in the target's version.
            case propertyRenamed = "property-renamed"
            /// The relationship's pair is written from its other side, or its other side became to-one.
            case pairChanged = "pair-changed"
            /// The attribute's values are converted to another type.
            case converted
            /// The relationship's cardinality or order changed.
            case reshaped
            /// The relationship is kept, but the records it links to are dropped (their entity left out or gone):
            /// those links are dropped.
            case linksDropped = "links-dropped"
            /// The property's values are dropped.
            case propertyDropped = "property-dropped"
            /// A record with a value here is refused.
            case refused
            /// An attribute the target's version adds: every record gets its value.
            case added
            /// An attribute the target's version requires: records without a value get one (or are refused).
            case filled
            /// Records share the values of a uniqueness constraint the target's version adds.
            case duplicates
            /// Records merged into the one kept of their group under a uniqueness constraint.
            case merged
        }

        /// What kind of decision.
        public var kind: Kind
        /// What it is about, in the archive's names (`Note`, `Note.text`); for `added`, `filled`, `duplicates` and
        /// `merged`, the target's (`Memo.kind`).
        public var subject: String
        /// What the subject becomes in the target's version, when it is renamed (`Memo`, `Memo.body`).
        public var target: String?
        /// The reason, change or value: `Integer 16 → Integer 32`, `left out by the mapping`, a fill's value.
        public var detail: String?
        /// Records it concerns (dropped, filled, merged), when counted.
        public var records: Int?
        /// Values it concerns (dropped, converted), when counted.
        public var values: Int?

        /// Creates an entry.
        public init(
            _ kind: Kind, subject: String, target: String? = nil, detail: String? = nil, records: Int? = nil,
            values: Int? = nil
        ) {
            self.kind = kind
            self.subject = subject
            self.target = target
            self.detail = detail
            self.records = records
            self.values = values
        }
    }

    /// One step of a mapping through the versions between the archive's and the target's.
    public struct Step: Sendable, Hashable, Codable {
        /// The version the step starts from.
        public var from: String
        /// The version it leads to.
        public var to: String
        /// What the step changes, one phrase each (`Entry.text → body (renamed)`); empty when nothing the archive
        /// holds changes.
        public var changes: [String]

        /// Creates a step.
        public init(from: String, to: String, changes: [String]) {
            self.from = from
            self.to = to
            self.changes = changes
        }
    }

    /// The decisions, entities by name with their properties, then duplicates and merges.
    public var entries: [Entry]
    /// The steps, for a mapping through the versions between; empty for a direct one.
    public var steps: [Step]
    /// For a mapping through steps: the model's version order they follow.
    public var order: String?

    /// Creates a report.
    public init(entries: [Entry] = [], steps: [Step] = [], order: String? = nil) {
        self.entries = entries
        self.steps = steps
        self.order = order
    }
}
