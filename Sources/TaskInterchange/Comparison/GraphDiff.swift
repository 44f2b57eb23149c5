import Foundation

/// What differs between two object graphs (archives or stores): per-kind counts, then each differing record by id.
///
/// Compares content, not bytes: `exportDate`, `generator` and `source` are ignored, records are matched by id, tags are
/// a set, subtasks an ordered list, dates are equal only when every bit is. Made by `GraphComparison`.
public struct GraphDiff: Sendable, Hashable, Codable {
    /// One kind's totals.
    public struct KindSummary: Sendable, Hashable, Codable {
        /// The kind (subtasks are counted inside their tasks).
        public var kind: StoreMapping.Kind
        /// Records of this kind in A.
        public var countA: Int
        /// Records of this kind in B.
        public var countB: Int
        /// Records only in A. Subtasks: those taken out of a task both sides have, and those of tasks only in A.
        public var onlyInA: Int
        /// Records only in B (with `verify`, what the store holds beyond the file: not a difference).
        public var onlyInB: Int
        /// Records in both whose content differs.
        public var changed: Int

        /// Creates a kind's totals.
        public init(
            kind: StoreMapping.Kind, countA: Int = 0, countB: Int = 0, onlyInA: Int = 0, onlyInB: Int = 0,
            changed: Int = 0
        ) {
            self.kind = kind
            self.countA = countA
            self.countB = countB
            self.onlyInA = onlyInA
            self.onlyInB = onlyInB
            self.changed = changed
        }
    }

    /// One generic entity's totals (the archive's `entities` section; a sub-entity counts on its own).
    public struct EntitySummary: Sendable, Hashable, Codable {
        /// The entity's name.
        public var entity: String
        /// Records of this entity in A.
        public var countA: Int
        /// Records of this entity in B.
        public var countB: Int
        /// Records only in A.
        public var onlyInA: Int
        /// Records only in B (with `verify`, what the store holds beyond the file: not a difference).
        public var onlyInB: Int
        /// Records in both whose content differs.
        public var changed: Int
        /// False with `verify` when B has no such entity (a target without it, into which the import could not
        /// write these records and said so): A's records are counted, not compared.
        public var compared: Bool

        /// Creates an entity's totals.
        public init(
            entity: String, countA: Int = 0, countB: Int = 0, onlyInA: Int = 0, onlyInB: Int = 0,
            changed: Int = 0, compared: Bool = true
        ) {
            self.entity = entity
            self.countA = countA
            self.countB = countB
            self.onlyInA = onlyInA
            self.onlyInB = onlyInB
            self.changed = changed
            self.compared = compared
        }
    }

    /// The name of side A (a path, "stdin", or the name given with in-memory records).
    public var nameA: String
    /// The name of side B.
    public var nameB: String
    /// True when records only in B do not count as differences (`verify`: the store may hold more than the file).
    public var bMayHoldMore: Bool
    /// Kinds compared, with their totals, in kind order.
    public var kinds: [KindSummary]
    /// Generic entities compared (declared by either side; with `verify`, by A), with their totals, by name.
    public var entities: [EntitySummary]
    /// The first `GraphComparison.Options.detailLimit` differing records, in kind and id order.
    public var records: [RecordDifference]
    /// Every differing record, listed or not.
    public var differenceCount: Int
    /// When A was read as another model version holds it (`GraphComparison.verify` against a store with its app's
    /// model): what the model change dropped (not differences: the target's version has no place for them), filled
    /// and converted.
    public var modelChange: VersionMapping.Tally?

    /// True when nothing differs and something was compared: when every record of A belongs to entities B has no
    /// place for, nothing was checked, and that is no proof that B holds them.
    public var isEqual: Bool { differenceCount == 0 && !comparedNothing }
    /// A holds records, and none of them was compared.
    public var comparedNothing: Bool { comparedRecords == 0 && uncomparedRecords > 0 }
    /// A's records that were compared (every kind's, and those of the entities B has).
    public var comparedRecords: Int {
        kinds.reduce(0) { $0 + $1.countA } + entities.filter(\.compared).reduce(0) { $0 + $1.countA }
    }
    /// A's records of entities B has no place for: counted, not compared.
    public var uncomparedRecords: Int { entities.filter { !$0.compared }.reduce(0) { $0 + $1.countA } }
    /// Differences counted but not listed (over the detail limit).
    public var omittedCount: Int { differenceCount - records.count }

    /// Creates a comparison result (`GraphComparison` makes them).
    public init(
        nameA: String, nameB: String, bMayHoldMore: Bool = false, kinds: [KindSummary] = [],
        entities: [EntitySummary] = [], records: [RecordDifference] = [], differenceCount: Int = 0
    ) {
        self.nameA = nameA
        self.nameB = nameB
        self.bMayHoldMore = bMayHoldMore
        self.kinds = kinds
        self.entities = entities
        self.records = records
        self.differenceCount = differenceCount
    }
}

/// A record that is on one side only, or on both with different content.
public struct RecordDifference: Sendable, Hashable, Codable {
    /// Where the record is.
    public enum Change: String, Sendable, Hashable, Codable {
        case onlyInA
        case onlyInB
        case changed
    }

    /// The record's kind; nil for a generic record.
    public var kind: StoreMapping.Kind?
    /// A generic record's entity; nil for a typed record.
    public var entity: String?
    /// The record's id.
    public var id: UUID
    /// Its name or title (B's when both have one), for people.
    public var label: String
    /// For a subtask, the task it belongs to.
    public var taskId: UUID?
    /// What differs.
    public var change: Change
    /// For `changed`: each field that differs, in field order.
    public var fields: [FieldDifference]

    /// The kind's or the entity's name.
    public var typeName: String { entity ?? kind?.rawValue ?? "" }

    /// Creates a record difference: of a typed `kind`, or of a generic `entity`.
    public init(
        kind: StoreMapping.Kind?, entity: String? = nil, id: UUID, label: String, taskId: UUID? = nil,
        change: Change, fields: [FieldDifference] = []
    ) {
        self.kind = kind
        self.entity = entity
        self.id = id
        self.label = label
        self.taskId = taskId
        self.change = change
        self.fields = fields
    }
}

/// One field of a record that differs between the sides.
public struct FieldDifference: Sendable, Hashable, Codable {
    /// What kind of difference.
    public enum Change: String, Sendable, Hashable, Codable {
        /// A value (`old` → `new`; nil when absent on that side).
        case value
        /// Links of a to-many relationship added and removed (`tagIds`, `subtasks`, a relationship under `extra` or
        /// of a generic record).
        case links
        /// The same members of an ordered relationship in another order (`oldOrder` → `newOrder`).
        case order
    }

    /// The field: `title`, `createdAt`, `projectId`, `tagIds`, `subtasks`, or `extra.<property>`; a generic
    /// record's property by its name.
    public var field: String
    /// What differs.
    public var change: Change
    /// A's value (`value` changes): JSON's types, dates as lossless ISO-8601 text, ids as strings.
    public var old: ExtraValue?
    /// B's value.
    public var new: ExtraValue?
    /// Ids only B links (`links` changes).
    public var added: [String]?
    /// Ids only A links.
    public var removed: [String]?
    /// A's order of the members both sides have (`order` changes).
    public var oldOrder: [String]?
    /// B's order of them.
    public var newOrder: [String]?

    /// A value that differs.
    public static func value(_ field: String, old: ExtraValue?, new: ExtraValue?) -> FieldDifference {
        FieldDifference(field: field, change: .value, old: old, new: new)
    }

    /// Links added and removed.
    public static func links(_ field: String, added: [String], removed: [String]) -> FieldDifference {
        FieldDifference(field: field, change: .links, added: added, removed: removed)
    }

    /// The same members in another order.
    public static func order(_ field: String, old: [String], new: [String]) -> FieldDifference {
        FieldDifference(field: field, change: .order, oldOrder: old, newOrder: new)
    }
}
