/// How the records of one entity in the archive's generic `entities` section are shaped, declared once in
/// `source.model`: its attributes with their model types and its carried relationships. The declaration lists
/// inherited properties too, so each entity reads on its own.
public struct EntityDeclaration: Sendable, Hashable, Codable {
    /// The parent entity, for a sub-entity.
    public var superentity: String?
    /// True for an abstract entity (it has no records of its own).
    public var isAbstract: Bool
    /// Property name → model type (`string`, `integer16`, `integer32`, `integer64`, `decimal`, `double`, `float`,
    /// `boolean`, `date`, `binary`, `uuid`, `uri`, `transformable`, `objectID`), or `untyped` when the store has no
    /// model cache and the column's declared type was all there was to go by.
    public var attributes: [String: String]
    /// Property name → relationship, for the side of each pair that travels (the other is its inverse).
    public var relationships: [String: EntityRelationship]
    /// The binary attributes that allow external storage (Core Data keeps their values behind a marker byte, or in
    /// a file): how a store whose own model is unknown must write them.
    public var externalStorage: Set<String>

    /// The type names `attributes` may use.
    public static let attributeTypes = Set(ArchiveType.allCases.map(\.name))

    /// Creates a declaration.
    public init(
        superentity: String? = nil, isAbstract: Bool = false, attributes: [String: String] = [:],
        relationships: [String: EntityRelationship] = [:], externalStorage: Set<String> = []
    ) {
        self.superentity = superentity
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.externalStorage = externalStorage
    }

    private enum CodingKeys: String, CodingKey {
        case superentity
        case isAbstract = "abstract"
        case attributes, relationships, externalStorage
    }

    /// Reads a declaration; every member may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        superentity = try container.decodeIfPresent(String.self, forKey: .superentity)
        isAbstract = try container.decodeIfPresent(Bool.self, forKey: .isAbstract) ?? false
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
        relationships = try container.decodeIfPresent([String: EntityRelationship].self, forKey: .relationships) ?? [:]
        externalStorage = try container.decodeIfPresent(Set<String>.self, forKey: .externalStorage) ?? []
    }

    /// Writes the members that are set (an empty `externalStorage` is left out, as an archive leaves it out).
    /// - Throws: the encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(superentity, forKey: .superentity)
        if isAbstract { try container.encode(true, forKey: .isAbstract) }
        try container.encode(attributes, forKey: .attributes)
        try container.encode(relationships, forKey: .relationships)
        if !externalStorage.isEmpty { try container.encode(externalStorage.sorted(), forKey: .externalStorage) }
    }
}

extension EntityDeclaration {
    /// True when `entity` is `ancestor` or one of its sub-entities, following `superentity` (at most `limit` steps, so
    /// a cycle in hand-edited declarations ends).
    static func isEntity(
        _ entity: String, kindOf ancestor: String, limit: Int, superentity: (String) -> String?
    ) -> Bool {
        var current: String? = entity
        var steps = 0
        while let name = current, steps <= limit {
            if name == ancestor { return true }
            current = superentity(name)
            steps += 1
        }
        return false
    }
}

/// A relationship carried by a generic record: the value is the id of a `destination` object (to-one) or an array of
/// them (to-many, in the relationship's order when `ordered`). The destination is an entity name: a generic entity
/// (or one of its sub-entities), or the store entity a typed section reads (its records' ids).
public struct EntityRelationship: Sendable, Hashable, Codable {
    /// The destination entity.
    public var destination: String
    /// True when the value is an array of ids.
    public var toMany: Bool
    /// True when the array's order is the relationship's order.
    public var ordered: Bool
    /// The inverse relationship's name, when there is one.
    public var inverse: String?

    /// Creates a declaration.
    public init(destination: String, toMany: Bool, ordered: Bool = false, inverse: String? = nil) {
        self.destination = destination
        self.toMany = toMany
        self.ordered = ordered
        self.inverse = inverse
    }
}
