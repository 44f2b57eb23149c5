/// The mapping's `modelChange`: decisions that replace what `VersionMapping` would infer between the archive's model
/// and the target's, each checked against both models before anything is written.
///
/// ```json
/// "modelChange": {
///   "entities": { "Mood": "Feeling", "Draft": null },
///   "properties": { "Entry.text": "body", "Entry.legacyFlag": null },
///   "fill": { "Entry.createdBy": "import" }
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

    /// Creates overrides.
    public init(
        entities: [String: String?] = [:], properties: [String: String?] = [:], fill: [String: ExtraValue] = [:]
    ) {
        self.entities = entities
        self.properties = properties
        self.fill = fill
    }

    private enum CodingKeys: String, CodingKey { case entities, properties, fill }

    /// Reads overrides; every member may be left out.
    /// - Throws: `DecodingError` when a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entities = try container.decodeIfPresent([String: String?].self, forKey: .entities) ?? [:]
        properties = try container.decodeIfPresent([String: String?].self, forKey: .properties) ?? [:]
        fill = try container.decodeIfPresent([String: ExtraValue].self, forKey: .fill) ?? [:]
    }

    /// True when nothing is overridden.
    public var isEmpty: Bool { entities.isEmpty && properties.isEmpty && fill.isEmpty }
}
