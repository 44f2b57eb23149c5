/// The mapping's `modelChange`: decisions that replace what `VersionMapping` would infer between the archive's model
/// and the target's, each checked against both models before anything is written.
///
/// ```json
/// "modelChange": {
///   "entities": { "Mood": "Feeling", "Draft": null },
///   "properties": { "Entry.text": "body", "Entry.legacyFlag": null },
///   "fill": { "Entry.createdBy": "import" },
///   "duplicates": { "Label": { "keep": "newest", "by": "modifiedAt" } }
/// }
/// ```
public struct ModelChangeOverrides: Sendable, Hashable, Codable {
    /// Source entity → target entity, or nil to leave its records out on purpose.
    public var entities: [String: String?]
    /// `SourceEntity.property` → target property, or nil to leave its values out on purpose.
    public var properties: [String: String?]
    /// `TargetEntity.attribute` → the value records without one get (a required attribute the new version adds
    /// without a default, say); it replaces the model's default.
    public var fill: [String: ExtraValue]
    /// `TargetEntity` → which record of each group sharing the values of one of its uniqueness constraints to keep,
    /// where the target version adds a constraint the records do not meet (see `DuplicatePolicy`).
    public var duplicates: [String: DuplicatePolicy]

    /// How records that a new uniqueness constraint makes duplicates become one, as Core Data's merge policies make
    /// them: one record of each group is kept, the others' to-many links are added to it, every link to one of them
    /// is pointed at it, and their own values are dropped (counted).
    public struct DuplicatePolicy: Sendable, Hashable, Codable {
        /// Which record a group keeps.
        public enum Keep: String, Sendable, Hashable, Codable {
            /// The one whose date attribute `by` is latest (a record without one is the oldest; ties: lowest key).
            case newest
            /// The one with the lowest key (the oldest in the store).
            case lowestKey
        }
        /// Which record a group keeps.
        public var keep: Keep
        /// For `newest`: the target entity's date attribute that orders the group.
        public var by: String?

        /// Creates a policy.
        public init(keep: Keep, by: String? = nil) {
            self.keep = keep
            self.by = by
        }
    }

    /// Creates overrides.
    public init(
        entities: [String: String?] = [:], properties: [String: String?] = [:], fill: [String: ExtraValue] = [:],
        duplicates: [String: DuplicatePolicy] = [:]
    ) {
        self.entities = entities
        self.properties = properties
        self.fill = fill
        self.duplicates = duplicates
    }

    private enum CodingKeys: String, CodingKey { case entities, properties, fill, duplicates }

    /// Reads overrides; every member may be left out.
    /// - Throws: `DecodingError` when a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entities = try container.decodeIfPresent([String: String?].self, forKey: .entities) ?? [:]
        properties = try container.decodeIfPresent([String: String?].self, forKey: .properties) ?? [:]
        fill = try container.decodeIfPresent([String: ExtraValue].self, forKey: .fill) ?? [:]
        duplicates = try container.decodeIfPresent([String: DuplicatePolicy].self, forKey: .duplicates) ?? [:]
    }

    /// True when nothing is overridden.
    public var isEmpty: Bool { entities.isEmpty && properties.isEmpty && fill.isEmpty && duplicates.isEmpty }
}
