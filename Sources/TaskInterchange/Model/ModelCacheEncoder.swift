import Foundation

/// Writes an `ObjectModel` as Core Data archives an `NSManagedObjectModel` in a store's model cache — the inverse of
/// `ModelCacheDecoder`, checked object by object against the caches Core Data wrote (frameworks 847–1523):
/// - the root's `NSEntities` is an `NSKnownKeysDictionary1` whose keys are the entity names in order and whose
///   values are the entities; `NSVersionIdentifiers` a set of strings; `NSFetchRequestTemplates` nil;
/// - every entity lists all its properties, inherited ones as copies that name the sub-entity as their `NSEntity`;
///   a relationship's inverse is the property object in its destination entity;
/// - a key whose value is false, empty or absent is mostly left out; the packed `_P` flags say what is left out.
///
/// A model with a part this writer cannot archive as Core Data would (see `unsupportedPart`) gets no cache: a cache
/// Core Data misreads is worse than none.
struct ModelCacheEncoder {
    typealias Value = BinaryPropertyList.Value

    let model: ObjectModel
    private var writer = KeyedArchiveWriter()
    private let entities: [String: ObjectModel.Entity]
    /// Each entity's numbered object.
    private var entityObjects: [String: Int] = [:]
    /// Each entity's property objects by name, its own and its copies of inherited ones.
    private var propertyObjects: [String: [String: Int]] = [:]
    private var emptyDictionary: Value?
    /// Each entity's direct sub-entities.
    private let subentityNames: [String: [String]]
    /// Whether any entity has a fetch index (or an indexed attribute, which makes one).
    private let modelHasIndexes: Bool

    init(model: ObjectModel) {
        self.model = model
        entities = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        subentityNames = Dictionary(grouping: model.entities.filter { $0.superentity != nil }, by: { $0.superentity! })
            .mapValues { $0.map(\.name) }
        modelHasIndexes = model.entities.contains {
            !Self.indexedAttributes(of: $0).isEmpty || !$0.fetchIndexes.isEmpty
        }
    }

    /// The inflated archive (a binary property list).
    /// - Throws: `ModelCacheError.unsupported` naming the first part that cannot be archived as Core Data does;
    ///   `.malformed` for an inconsistent model (a superentity or destination not in the model).
    mutating func encoded() throws(ModelCacheError) -> [UInt8] {
        if let reason = unsupportedPart() { throw .unsupported(reason) }
        let names = model.entities.map(\.name).sorted(by: Self.byteOrder)
        let root = writer.reserve()
        // Everything is numbered before anything is filled: entities and properties refer to each other in cycles.
        for name in names {
            entityObjects[name] = writer.reserve()
            for property in try allProperties(of: name) {
                propertyObjects[name, default: [:]][property] = writer.reserve()
            }
        }
        var entityValues: [Value] = []
        for name in names {
            try fillEntity(name, root: root)
            entityValues.append(.uid(entityObjects[name]!))
        }
        let keys = writer.object(Self.array, ["NS.objects": .array(names.map { writer.string($0) })])
        let mapping = writer.object(
            ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject"],
            ["keys": keys, "length": .integer(Int64(names.count)), "version": .integer(1)])
        let dictionary = writer.object(
            ["NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject"],
            [
                "searchMapping": mapping, "emptyToken": writer.string("__empty_slot_token_4c24_98dc_ac1e_b773__"),
                "values": writer.object(Self.array, ["NS.objects": .array(entityValues)]), "version": .integer(1),
            ])
        let identifiers = model.versionIdentifiers.sorted(by: Self.byteOrder)
        let identifierSet = writer.object(
            ["NSSet", "NSObject"], ["NS.objects": .array(identifiers.map { writer.string($0) })])
        writer.fill(
            root, classHierarchy: ["NSManagedObjectModel", "NSObject"],
            fields: [
                "NSEntities": dictionary, "NSFetchRequestTemplates": KeyedArchiveWriter.null,
                "NSVersionIdentifiers": identifierSet,
            ])
        return writer.encoded(root: .uid(root))
    }

    // MARK: What cannot be written

    /// The first part of the model whose archived form is not known well enough to match Core Data's, or nil.
    /// Validation bounds (predicates and warning codes), derivations, composites, fetched properties, partial
    /// indexes and defaults other than numbers, booleans, strings, dates and UUIDs are archived as object graphs
    /// (predicates, expressions, decimals) that `ObjectModel` keeps only as text. Configurations are archived as
    /// sets of entities, which the caches seen do not tie to the model's configuration names reliably.
    func unsupportedPart() -> String? {
        if !model.configurations.isEmpty { return "the model has configurations" }
        for entity in model.entities {
            let context = "entity \(entity.name)"
            if !entity.fetchedProperties.isEmpty { return "\(context) has fetched properties" }
            if entity.fetchIndexes.contains(where: { $0.partialIndexPredicate != nil }) {
                return "\(context) has a partial fetch index"
            }
            for attribute in entity.attributes {
                let context = "attribute \(attribute.name) of \(context)"
                if attribute.derivation != nil { return "\(context) is derived" }
                if !attribute.elements.isEmpty || attribute.type == .composite { return "\(context) is a composite" }
                if attribute.minValue != nil || attribute.maxValue != nil { return "\(context) has validation bounds" }
                if attribute.defaultValue != nil, Self.archivedDefault(attribute) == nil {
                    return "\(context) has a default value of type \(attribute.type)"
                }
            }
        }
        return nil
    }

    // MARK: Entities

    /// The names of an entity's properties, inherited ones included.
    private func allProperties(of name: String) throws(ModelCacheError) -> [String] {
        var names: [String] = []
        var current: String? = name
        var depth = 0
        while let entityName = current {
            guard let entity = entities[entityName] else {
                throw .malformed("entity \(name)'s superentity \(entityName) is not in the model")
            }
            names += entity.attributes.map(\.name) + entity.relationships.map(\.name)
            current = entity.superentity
            depth += 1
            guard depth <= ModelCacheDecoder.maximumInheritanceDepth else {
                throw .malformed("entity \(name) inherits through more than \(depth - 1) levels")
            }
        }
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// The property called `name` as `entity` has it: its own, or the nearest ancestor's.
    private func property(_ name: String, of entity: String) -> Either? {
        var current: String? = entity
        while let entityName = current, let found = entities[entityName] {
            if let attribute = found.attributes.first(where: { $0.name == name }) { return .attribute(attribute) }
            if let relationship = found.relationships.first(where: { $0.name == name }) {
                return .relationship(relationship)
            }
            current = found.superentity
        }
        return nil
    }

    private enum Either {
        case attribute(ObjectModel.Attribute)
        case relationship(ObjectModel.Relationship)
    }

    private mutating func fillEntity(_ name: String, root: Int) throws(ModelCacheError) {
        let entity = entities[name]!
        let index = entityObjects[name]!
        let subentities = (subentityNames[name] ?? []).sorted(by: Self.byteOrder)
        let ownProperties = propertyObjects[name] ?? [:]
        let propertyNames = ownProperties.keys.sorted(by: Self.byteOrder)
        var fields: [String: Value] = [
            "NSEntityName": writer.string(name),
            "NSClassNameForEntity": writer.string(entity.className),
            "NSRenamingIdentifier": writer.string(entity.renamingIdentifier ?? name),
            "NSVersionHashModifier": writer.string(entity.versionHashModifier),
            "NSManagedObjectModel": .uid(root),
            "NSSuperentity": entity.superentity.flatMap { entityObjects[$0] }.map(Value.uid) ?? KeyedArchiveWriter.null,
            "NSSubentities": dictionary(
                Self.mutableDictionary, keys: subentities, values: subentities.map { .uid(entityObjects[$0]!) }),
            "NSProperties": dictionary(
                Self.mutableDictionary, keys: propertyNames, values: propertyNames.map { .uid(ownProperties[$0]!) }),
            "NSUserInfo": userInfo(entity.userInfo),
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        if !entity.uniquenessConstraints.isEmpty {
            fields["NSUniqueTuples"] = tuples(entity.uniquenessConstraints)
        }
        // A model with any fetch index lists both keys in every entity, empty where it has none.
        if modelHasIndexes {
            var values: [Value] = []
            let indexes = fetchIndexes(of: entity)
            for fetchIndex in indexes { values.append(self.fetchIndex(fetchIndex, entity: index)) }
            fields["NSFetchIndexDescriptions"] = writer.object(Self.mutableArray, ["NS.objects": .array(values)])
            fields["NSCompoundIndexes"] = tuples(
                indexes.filter { $0.elements.count > 1 }.map { $0.elements.map(\.property) })
        }
        writer.fill(index, classHierarchy: ["NSEntityDescription", "NSObject"], fields: fields)
        let indexed = Set(Self.indexedAttributes(of: entity))
        for propertyName in propertyNames {
            switch property(propertyName, of: name) {
            case .attribute(let attribute)?:
                fillAttribute(
                    attribute, at: ownProperties[propertyName]!, entity: index,
                    indexed: attribute.isIndexed || indexed.contains(propertyName))
            case .relationship(let relationship)?:
                try fillRelationship(relationship, at: ownProperties[propertyName]!, entity: name)
            case nil:
                throw .malformed("entity \(name) has no property \(propertyName)")
            }
        }
    }

    /// The entity's own attributes Core Data marks as indexed: those the model marks, and those a fetch index of
    /// their own (one ascending B-tree element) indexes, in the order their indexes come.
    private static func indexedAttributes(of entity: ObjectModel.Entity) -> [String] {
        let own = Set(entity.attributes.map(\.name))
        var names: [String] = []
        for fetchIndex in entity.fetchIndexes {
            guard fetchIndex.elements.count == 1, let element = fetchIndex.elements.first, element.kind == .binary,
                own.contains(element.property), !names.contains(element.property)
            else { continue }
            names.append(element.property)
        }
        for attribute in entity.attributes where attribute.isIndexed && !names.contains(attribute.name) {
            names.append(attribute.name)
        }
        return names
    }

    /// The entity's fetch indexes as Core Data lists them: one per indexed attribute (named after it) first, unless
    /// the model already lists it, then the model's own.
    private func fetchIndexes(of entity: ObjectModel.Entity) -> [ObjectModel.FetchIndex] {
        var indexes: [ObjectModel.FetchIndex] = []
        for name in Self.indexedAttributes(of: entity) where !entity.fetchIndexes.contains(where: { $0.name == name }) {
            indexes.append(ObjectModel.FetchIndex(name, elements: [.init(name)]))
        }
        return indexes + entity.fetchIndexes
    }

    private mutating func fetchIndex(_ fetchIndex: ObjectModel.FetchIndex, entity: Int) -> Value {
        let index = writer.reserve()
        var elements: [Value] = []
        for element in fetchIndex.elements {
            elements.append(
                writer.object(
                    ["NSFetchIndexElementDescription", "NSObject"],
                    [
                        "NSPropertyName": writer.string(element.property),
                        "NSFetchIndexElementType": .integer(Int64(element.kind.rawValue)),
                        "NSAscending": .bool(element.ascending), "NSFetchIndexDescription": .uid(index),
                    ]))
        }
        writer.fill(
            index, classHierarchy: ["NSFetchIndexDescription", "NSObject"],
            fields: [
                "NSIndexName": writer.string(fetchIndex.name), "NSPartialIndexPredicate": KeyedArchiveWriter.null,
                "NSIndexElements": writer.object(Self.array, ["NS.objects": .array(elements)]),
                "NSEntity": .uid(entity),
            ])
        return .uid(index)
    }

    // MARK: Properties

    /// The packed flags (`_P`): 0x1 always, then optional, read-only, transient, then bits set for what the
    /// property lacks (validation predicates 0x10, warnings 0x20, user info 0x40, version hash modifier 0x80),
    /// and 0x400 for an ordered relationship.
    private static func packedFlags(
        optional: Bool, readOnly: Bool, transient: Bool, userInfo: [String: String], modifier: String?,
        ordered: Bool = false
    ) -> Int64 {
        var flags: Int64 = 0x1 | 0x10 | 0x20
        if optional { flags |= 0x2 }
        if readOnly { flags |= 0x4 }
        if transient { flags |= 0x8 }
        if userInfo.isEmpty { flags |= 0x40 }
        if modifier == nil { flags |= 0x80 }
        if ordered { flags |= 0x400 }
        return flags
    }

    /// The fields every property archives, and the boolean keys archived only when true.
    private mutating func commonFields(
        name: String, renamingIdentifier: String?, entity: Int, optional: Bool, readOnly: Bool, transient: Bool,
        modifier: String?, userInfo: [String: String]
    ) -> [String: Value] {
        var fields: [String: Value] = [
            "NSPropertyName": writer.string(name), "NSRenamingIdentifier": writer.string(renamingIdentifier ?? name),
            "NSEntity": .uid(entity),
        ]
        if optional { fields["NSIsOptional"] = .bool(true) }
        if readOnly { fields["NSIsReadOnly"] = .bool(true) }
        if transient { fields["NSIsTransient"] = .bool(true) }
        if let modifier { fields["NSVersionHashModifier"] = writer.string(modifier) }
        if !userInfo.isEmpty { fields["NSUserInfo"] = self.userInfo(userInfo) }
        return fields
    }

    private mutating func fillAttribute(
        _ attribute: ObjectModel.Attribute, at index: Int, entity: Int, indexed: Bool
    ) {
        var fields = commonFields(
            name: attribute.name, renamingIdentifier: attribute.renamingIdentifier, entity: entity,
            optional: attribute.isOptional, readOnly: attribute.isReadOnly, transient: attribute.isTransient,
            modifier: attribute.versionHashModifier, userInfo: attribute.userInfo)
        fields["_P"] = .integer(
            Self.packedFlags(
                optional: attribute.isOptional, readOnly: attribute.isReadOnly, transient: attribute.isTransient,
                userInfo: attribute.userInfo, modifier: attribute.versionHashModifier))
        fields["NSAttributeType"] = .integer(Int64(attribute.type.rawValue))
        fields["NSAttributeValueClassName"] = writer.string(
            attribute.valueClassName ?? Self.valueClassName(attribute.type))
        fields["NSValueTransformerName"] = writer.string(attribute.valueTransformerName)
        fields["NSDefaultValue"] = defaultValue(attribute)
        var storage: Int64 = 0
        if attribute.allowsExternalStorage { storage |= 0x4 }
        if attribute.preservesValueInHistoryOnDeletion { storage |= 0x10 }
        fields["NSFlagsKey"] = .integer(storage)
        if indexed { fields["NSIsIndexed"] = .bool(true) }
        writer.fill(
            index, classHierarchy: ["NSAttributeDescription", "NSPropertyDescription", "NSObject"], fields: fields)
    }

    private mutating func fillRelationship(_ relationship: ObjectModel.Relationship, at index: Int, entity: String)
        throws(ModelCacheError)
    {
        guard let destination = entityObjects[relationship.destination] else {
            throw .malformed(
                "relationship \(relationship.name) of entity \(entity): its destination \(relationship.destination) "
                    + "is not in the model")
        }
        var fields = commonFields(
            name: relationship.name, renamingIdentifier: relationship.renamingIdentifier,
            entity: entityObjects[entity]!, optional: relationship.isOptional, readOnly: relationship.isReadOnly,
            transient: relationship.isTransient, modifier: relationship.versionHashModifier,
            userInfo: relationship.userInfo)
        fields["_P"] = .integer(
            Self.packedFlags(
                optional: relationship.isOptional, readOnly: relationship.isReadOnly,
                transient: relationship.isTransient, userInfo: relationship.userInfo,
                modifier: relationship.versionHashModifier, ordered: relationship.isOrdered))
        fields["NSDestinationEntity"] = .uid(destination)
        fields["_NSDestinationEntityName"] = writer.string(relationship.destination)
        let inverse = relationship.inverse.flatMap { propertyObjects[relationship.destination]?[$0] }
        fields["NSInverseRelationship"] = inverse.map(Value.uid) ?? KeyedArchiveWriter.null
        fields["_NSInverseRelationshipName"] = writer.string(inverse == nil ? nil : relationship.inverse)
        fields["NSDeleteRule"] = .integer(Int64(relationship.deleteRule.rawValue))
        fields["NSMaxCount"] = .integer(Int64(relationship.maxCount))
        fields["NSMinCount"] = .integer(Int64(relationship.minCount))
        if relationship.isOrdered { fields["NSIsOrdered"] = .bool(true) }
        writer.fill(
            index, classHierarchy: ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"], fields: fields)
    }

    /// The class Core Data names for an attribute's values when the model names none.
    static func valueClassName(_ type: ObjectModel.AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: return "NSNumber"
        case .decimal: return "NSDecimalNumber"
        case .string: return "NSString"
        case .date: return "NSDate"
        case .binaryData: return "NSData"
        case .uuid: return "NSUUID"
        case .uri: return "NSURL"
        case .undefined, .transformable, .objectID, .composite: return nil
        }
    }

    /// A default value as archived: a plist scalar, or a date or UUID object.
    enum ArchivedDefault {
        case scalar(Value)
        case date(Double)
        case uuid([UInt8])
    }

    /// The archived form of an attribute's default value, or nil when there is none or its text has no archived
    /// form this writer knows.
    static func archivedDefault(_ attribute: ObjectModel.Attribute) -> ArchivedDefault? {
        guard let text = attribute.defaultValue else { return nil }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            return Int64(text).map { .scalar(.integer($0)) }
        case .double, .float:
            return Double(text).map { .scalar(.real($0)) }
        case .boolean:
            // Models give YES or NO (a boolean object); some caches hold an integer, which reads back as digits.
            switch text {
            case "YES": return .scalar(.bool(true))
            case "NO": return .scalar(.bool(false))
            default: return Int64(text).map { .scalar(.integer($0)) }
            }
        case .string:
            return .scalar(.string(text))
        case .date:
            return (try? LosslessDate.date(from: text)).map { .date($0.timeIntervalSinceReferenceDate) }
        case .uuid:
            return UUID(uuidString: text).map { uuid in .uuid(withUnsafeBytes(of: uuid.uuid) { Array($0) }) }
        default:
            return nil
        }
    }

    private mutating func defaultValue(_ attribute: ObjectModel.Attribute) -> Value {
        switch Self.archivedDefault(attribute) {
        case .scalar(let value)?: return writer.leaf(value)
        case .date(let seconds)?: return writer.object(["NSDate", "NSObject"], ["NS.time": .real(seconds)])
        case .uuid(let bytes)?: return writer.object(["NSUUID", "NSObject"], ["NS.uuidbytes": .data(bytes)])
        case nil: return KeyedArchiveWriter.null
        }
    }

    // MARK: Collections

    private static let array = ["NSArray", "NSObject"]
    private static let mutableArray = ["NSMutableArray", "NSArray", "NSObject"]
    private static let mutableDictionary = ["NSMutableDictionary", "NSDictionary", "NSObject"]

    private mutating func dictionary(_ classes: [String], keys: [String], values: [Value]) -> Value {
        writer.object(classes, ["NS.keys": .array(keys.map { writer.string($0) }), "NS.objects": .array(values)])
    }

    /// A user info dictionary; the empty one is archived once and shared, as Foundation's empty dictionary is.
    private mutating func userInfo(_ info: [String: String]) -> Value {
        if info.isEmpty, let emptyDictionary { return emptyDictionary }
        let keys = info.keys.sorted(by: Self.byteOrder)
        let value = dictionary(["NSDictionary", "NSObject"], keys: keys, values: keys.map { writer.string(info[$0]) })
        if info.isEmpty { emptyDictionary = value }
        return value
    }

    /// Tuples of property names (`NSUniqueTuples`, `NSCompoundIndexes`).
    private mutating func tuples(_ tuples: [[String]]) -> Value {
        var values: [Value] = []
        for tuple in tuples {
            values.append(writer.object(Self.mutableArray, ["NS.objects": .array(tuple.map { writer.string($0) })]))
        }
        return writer.object(Self.mutableArray, ["NS.objects": .array(values)])
    }

    private static func byteOrder(_ a: String, _ b: String) -> Bool {
        Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }
}
