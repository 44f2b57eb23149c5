/// A Core Data managed object model as a value: what the app's `.xcdatamodel` (or SwiftData `@Model` classes) declare.
/// It gives the exact property names and types that a store's column names lose, and the version hashes a store must
/// carry for the app to open it.
public struct ObjectModel: Sendable, Hashable, Codable {
    /// `NSAttributeType` raw values.
    public enum AttributeType: Int, Sendable, Hashable, Codable, CaseIterable {
        case undefined = 0, integer16 = 100, integer32 = 200, integer64 = 300, decimal = 400, double = 500, float = 600
        case string = 700, boolean = 800, date = 900, binaryData = 1000, uuid = 1100, uri = 1200, transformable = 1800
        case objectID = 2000, composite = 2100
    }

    /// What happens to the destination when an object is deleted.
    public enum DeleteRule: Int, Sendable, Hashable, Codable {
        case noAction = 0, nullify = 1, cascade = 2, deny = 3
    }

    /// One attribute.
    public struct Attribute: Sendable, Hashable, Codable {
        /// Property name.
        public package(set) var name: String
        /// Its type.
        public package(set) var type: AttributeType
        /// May be nil.
        public package(set) var isOptional = false
        /// Not stored.
        public package(set) var isTransient = false
        /// Read-only.
        public package(set) var isReadOnly = false
        /// The version hash modifier, when set.
        public package(set) var versionHashModifier: String?
        /// "Allows External Storage".
        public package(set) var allowsExternalStorage = false
        /// Kept in persistent history after a delete.
        public package(set) var preservesValueInHistoryOnDeletion = false
        /// For a derived attribute, the derivation expression's predicate format (and its filter's, if any).
        public package(set) var derivation: String?
        /// The derivation's filtering predicate format.
        public package(set) var derivationFilter: String?
        /// The default value, as text, where the model has one.
        public package(set) var defaultValue: String?
        /// The value transformer's name, for transformable attributes.
        public package(set) var valueTransformerName: String?
        /// `NSAttributeValueClassName` (`NSString`, `NSNumber`, a custom class for transformables).
        public package(set) var valueClassName: String?
        /// The renaming identifier that lightweight migration matches properties by, when it differs from the name.
        public package(set) var renamingIdentifier: String?
        /// The model marks the attribute as indexed (the old per-attribute index flag).
        public package(set) var isIndexed = false
        /// A composite attribute's elements (type `.composite`, iOS 17+); empty for every other attribute.
        public package(set) var elements: [Attribute] = []
        /// The validation minimum (a number, a length or a date), as the model writes it.
        public package(set) var minValue: String?
        /// The validation maximum, as the model writes it.
        public package(set) var maxValue: String?
        /// The model's user info.
        public package(set) var userInfo: [String: String] = [:]

        /// Creates an attribute.
        package init(_ name: String, _ type: AttributeType, optional: Bool = false) {
            self.name = name
            self.type = type
            self.isOptional = optional
        }
    }

    /// One relationship.
    public struct Relationship: Sendable, Hashable, Codable {
        /// Property name.
        public package(set) var name: String
        /// Destination entity name.
        public package(set) var destination: String
        /// Inverse relationship name, when there is one.
        public package(set) var inverse: String?
        /// Maximum count as archived: 1 for to-one, 0 for unbounded (an archived −1 stays −1).
        public package(set) var maxCount: Int
        /// Minimum count.
        public package(set) var minCount = 0
        /// May be empty/nil.
        public package(set) var isOptional = true
        /// An ordered to-many.
        public package(set) var isOrdered = false
        /// Not stored.
        public package(set) var isTransient = false
        /// Read-only.
        public package(set) var isReadOnly = false
        /// The version hash modifier, when set.
        public package(set) var versionHashModifier: String?
        /// Delete rule.
        public package(set) var deleteRule: DeleteRule = .nullify
        /// The renaming identifier that lightweight migration matches by, when it differs from the name.
        public package(set) var renamingIdentifier: String?
        /// The model's user info.
        public package(set) var userInfo: [String: String] = [:]

        /// True for a to-one relationship.
        public var isToMany: Bool { maxCount != 1 }

        /// Creates a relationship.
        package init(
            _ name: String, to destination: String, inverse: String?, toMany: Bool, ordered: Bool = false,
            deleteRule: DeleteRule = .nullify
        ) {
            self.name = name
            self.destination = destination
            self.inverse = inverse
            self.maxCount = toMany ? 0 : 1
            self.isOrdered = ordered
            self.deleteRule = deleteRule
        }
    }

    /// One entity.
    public struct Entity: Sendable, Hashable, Codable {
        /// Entity name.
        public package(set) var name: String
        /// Parent entity name.
        public package(set) var superentity: String?
        /// Abstract entities have no instances of their own.
        public package(set) var isAbstract = false
        /// The version hash modifier, when set.
        public package(set) var versionHashModifier: String?
        /// Its own attributes (not inherited ones).
        public package(set) var attributes: [Attribute]
        /// Its own relationships.
        public package(set) var relationships: [Relationship]
        /// Uniqueness constraints, each a list of property names.
        public package(set) var uniquenessConstraints: [[String]] = []
        /// The managed object class name (`NSClassNameForEntity`), when the model names one.
        public package(set) var className: String?
        /// The renaming identifier that lightweight migration matches by, when it differs from the name.
        public package(set) var renamingIdentifier: String?
        /// Names of its own fetched properties: they have no storage and no part in the version hash.
        public package(set) var fetchedProperties: [String] = []
        /// Its fetch indexes (`Z_<Entity>_<name>` indexes in the store).
        public package(set) var fetchIndexes: [FetchIndex] = []
        /// The model's user info.
        public package(set) var userInfo: [String: String] = [:]

        /// Creates an entity.
        package init(
            _ name: String, superentity: String? = nil, attributes: [Attribute], relationships: [Relationship] = []
        ) {
            self.name = name
            self.superentity = superentity
            self.attributes = attributes
            self.relationships = relationships
        }
    }

    /// Entities, in any order.
    public package(set) var entities: [Entity]
    /// `NSStoreModelVersionIdentifiers`.
    public package(set) var versionIdentifiers: [String] = [""]
    /// Configuration name → its entities' names (a model source's; the model cache keeps none).
    public package(set) var configurations: [String: [String]] = [:]

    /// Creates a model.
    package init(entities: [Entity]) {
        self.entities = entities
    }

    /// The entity with this name.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }
}
