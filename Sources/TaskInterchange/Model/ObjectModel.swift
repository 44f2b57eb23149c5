/// A Core Data managed object model as a value: what the app's `.xcdatamodel` (or SwiftData `@Model` classes) declare.
/// It gives the exact property names and types that a store's column names lose, and the version hashes a store must
/// carry for the app to open it.
///
/// To an app it is a handle: read one with `init(contentsOf:version:)` (or `init(contentsOf:versionThatWrote:)`, or a
/// store's own with `init(cachedIn:)`) and hand it to the options that take a model; its contents stay in the library.
public struct ObjectModel: Sendable, Hashable, Codable {
    /// `NSAttributeType` raw values.
    package enum AttributeType: Int, Sendable, Hashable, Codable, CaseIterable {
        case undefined = 0, integer16 = 100, integer32 = 200, integer64 = 300, decimal = 400, double = 500, float = 600
        case string = 700, boolean = 800, date = 900, binaryData = 1000, uuid = 1100, uri = 1200, transformable = 1800
        case objectID = 2000, composite = 2100
    }

    /// What happens to the destination when an object is deleted.
    package enum DeleteRule: Int, Sendable, Hashable, Codable {
        case noAction = 0, nullify = 1, cascade = 2, deny = 3
    }

    /// One attribute.
    package struct Attribute: Sendable, Hashable, Codable {
        /// Property name.
        package var name: String
        /// Its type.
        package var type: AttributeType
        /// May be nil.
        package var isOptional = false
        /// Not stored.
        package var isTransient = false
        /// Read-only.
        package var isReadOnly = false
        /// The version hash modifier, when set.
        package var versionHashModifier: String?
        /// "Allows External Storage".
        package var allowsExternalStorage = false
        /// Kept in persistent history after a delete.
        package var preservesValueInHistoryOnDeletion = false
        /// For a derived attribute, the derivation expression's predicate format (and its filter's, if any).
        package var derivation: String?
        /// The derivation's filtering predicate format.
        package var derivationFilter: String?
        /// The default value, as text, where the model has one.
        package var defaultValue: String?
        /// The value transformer's name, for transformable attributes.
        package var valueTransformerName: String?
        /// `NSAttributeValueClassName` (`NSString`, `NSNumber`, a custom class for transformables).
        package var valueClassName: String?
        /// The renaming identifier that lightweight migration matches properties by, when it differs from the name.
        package var renamingIdentifier: String?
        /// The model marks the attribute as indexed (the old per-attribute index flag).
        package var isIndexed = false
        /// A composite attribute's elements (type `.composite`, iOS 17+); empty for every other attribute.
        package var elements: [Attribute] = []
        /// The validation minimum (a number, a length or a date), as the model writes it.
        package var minValue: String?
        /// The validation maximum, as the model writes it.
        package var maxValue: String?
        /// The model's user info.
        package var userInfo: [String: String] = [:]

        /// Creates an attribute.
        package init(_ name: String, _ type: AttributeType, optional: Bool = false) {
            self.name = name
            self.type = type
            self.isOptional = optional
        }
    }

    /// One relationship.
    package struct Relationship: Sendable, Hashable, Codable {
        /// Property name.
        package var name: String
        /// Destination entity name.
        package var destination: String
        /// Inverse relationship name, when there is one.
        package var inverse: String?
        /// Maximum count as archived: 1 for to-one, 0 for unbounded (an archived −1 stays −1).
        package var maxCount: Int
        /// Minimum count.
        package var minCount = 0
        /// May be empty/nil.
        package var isOptional = true
        /// An ordered to-many.
        package var isOrdered = false
        /// Not stored.
        package var isTransient = false
        /// Read-only.
        package var isReadOnly = false
        /// The version hash modifier, when set.
        package var versionHashModifier: String?
        /// Delete rule.
        package var deleteRule: DeleteRule = .nullify
        /// The renaming identifier that lightweight migration matches by, when it differs from the name.
        package var renamingIdentifier: String?
        /// The model's user info.
        package var userInfo: [String: String] = [:]

        /// True for a to-one relationship.
        package var isToMany: Bool { maxCount != 1 }

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
    package struct Entity: Sendable, Hashable, Codable {
        /// Entity name.
        package var name: String
        /// Parent entity name.
        package var superentity: String?
        /// Abstract entities have no instances of their own.
        package var isAbstract = false
        /// The version hash modifier, when set.
        package var versionHashModifier: String?
        /// Its own attributes (not inherited ones).
        package var attributes: [Attribute]
        /// Its own relationships.
        package var relationships: [Relationship]
        /// Uniqueness constraints, each a list of property names.
        package var uniquenessConstraints: [[String]] = []
        /// The managed object class name (`NSClassNameForEntity`), when the model names one.
        package var className: String?
        /// The renaming identifier that lightweight migration matches by, when it differs from the name.
        package var renamingIdentifier: String?
        /// Names of its own fetched properties: they have no storage and no part in the version hash.
        package var fetchedProperties: [String] = []
        /// Its fetch indexes (`Z_<Entity>_<name>` indexes in the store).
        package var fetchIndexes: [FetchIndex] = []
        /// The model's user info.
        package var userInfo: [String: String] = [:]

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
    package var entities: [Entity]
    /// `NSStoreModelVersionIdentifiers`.
    package var versionIdentifiers: [String] = [""]
    /// Configuration name → its entities' names (a model source's; the model cache keeps none).
    package var configurations: [String: [String]] = [:]

    /// Creates a model.
    package init(entities: [Entity]) {
        self.entities = entities
    }

    /// The entity with this name.
    package func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }
}
