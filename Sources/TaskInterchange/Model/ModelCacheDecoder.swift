/// Reads an `ObjectModel` out of a keyed archive of an `NSManagedObjectModel` (the inflated `Z_MODELCACHE`).
///
/// What the archive looks like, as written by Core Data (frameworks 847–1523 seen):
/// - root `NSManagedObjectModel`: `NSEntities` (an `NSKnownKeysDictionary1` or a plain dictionary of entities),
///   `NSVersionIdentifiers` (a set of strings);
/// - `NSEntityDescription`: `NSEntityName`, `NSSuperentity` (the parent object), `NSSubentities`, `NSProperties`
///   (name → property), `NSIsAbstract`, `NSVersionHashModifier`, `NSUniqueTuples`, `NSFetchIndexDescriptions`;
/// - a sub-entity lists its inherited properties too, as copies or as `_NSPropertyDescriptionProxy` objects
///   (`NSUnderlyingProperty` is the parent's property);
/// - flags: the packed `_P` integer when non-zero, otherwise the boolean keys (see `Flags`);
/// - a nil value is a reference to object 0, the `$null` placeholder — never read it as a string.
struct ModelCacheDecoder {
    typealias Fields = [String: KeyedArchive.Value]

    /// Deeper inheritance than this is taken for a corrupt archive (real models have a handful of levels); the limit
    /// also bounds the recursion of the version-hash computation, which walks the chain.
    static let maximumInheritanceDepth = 100
    /// Nesting budget for expressions, predicates, composite elements and proxies.
    static let maximumNesting = 32

    let archive: KeyedArchive

    /// One property as archived, before inherited ones are told apart from an entity's own.
    enum Property {
        case attribute(ObjectModel.Attribute)
        case relationship(ObjectModel.Relationship)
        case fetched(String)

        var name: String {
            switch self {
            case .attribute(let attribute): return attribute.name
            case .relationship(let relationship): return relationship.name
            case .fetched(let name): return name
            }
        }
    }

    /// An entity as archived: its own fields, and every property it lists (own and inherited).
    struct ArchivedEntity {
        var entity: ObjectModel.Entity
        var properties: [(property: Property, viaProxy: Bool)]
    }

    /// The decoded model.
    func model() throws(ModelCacheError) -> ObjectModel {
        let top = try archived { () throws(KeyedArchiveError) in try archive.topObject() }
        guard let top, let root = try fields(top, "the archive's root") else {
            throw .malformed("the archive's root object is nil")
        }
        let rootClasses = try classNames(root)
        guard rootClasses.contains("NSManagedObjectModel") else {
            throw .malformed("the archive's root is an \(rootClasses[0]), not an NSManagedObjectModel")
        }
        var archivedEntities: [ArchivedEntity] = []
        var seen: Set<Int> = []
        for value in try collectionValues(root["NSEntities"], "the model's entity list") {
            if case .reference(let index) = value, !seen.insert(index).inserted { continue }
            archivedEntities.append(try entity(value))
        }
        var model = ObjectModel(entities: try Self.separateInherited(try Self.checkedInheritance(archivedEntities)))
        model.entities.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        if root["NSVersionIdentifiers"] != nil {
            var identifiers: [String] = []
            for element in try elements(root["NSVersionIdentifiers"], "the model's version identifiers") {
                // Identifiers are arbitrary objects in the API; numbers are the only non-strings worth reading.
                if let number = try archived({ () throws(KeyedArchiveError) in try archive.resolve(element) })?.integer
                {
                    identifiers.append(String(number))
                } else if let identifier = try string(element, "a model version identifier") {
                    identifiers.append(identifier)
                }
            }
            model.versionIdentifiers = identifiers.sorted()
        }
        return model
    }

    // MARK: Entities

    private func entity(_ value: KeyedArchive.Value) throws(ModelCacheError) -> ArchivedEntity {
        guard let fields = try fields(value, "an entity") else {
            throw .malformed("the entity list holds a nil entity")
        }
        let classes = try classNames(fields)
        guard classes.contains("NSEntityDescription") else {
            throw .malformed("the entity list holds an \(classes[0])")
        }
        guard let name = try string(fields["NSEntityName"], "an entity's NSEntityName"), !name.isEmpty else {
            throw .malformed("an entity has no name")
        }
        let context = "entity \(name)"
        var superentity: String?
        if let parent = try self.fields(fields["NSSuperentity"], "\(context)'s NSSuperentity") {
            guard let parentName = try string(parent["NSEntityName"], "\(context)'s superentity name") else {
                throw .malformed("\(context): its superentity has no name")
            }
            superentity = parentName
        }
        var entity = ObjectModel.Entity(name, superentity: superentity, attributes: [])
        entity.isAbstract = try flag(fields["NSIsAbstract"], "\(context)'s NSIsAbstract") ?? false
        entity.versionHashModifier = try string(fields["NSVersionHashModifier"], "\(context)'s NSVersionHashModifier")
        entity.className = try string(fields["NSClassNameForEntity"], "\(context)'s NSClassNameForEntity")
        entity.renamingIdentifier = try renamingIdentifier(fields, name: name, context)
        entity.uniquenessConstraints = try uniquenessConstraints(fields["NSUniqueTuples"], context)
        entity.fetchIndexes = try fetchIndexes(fields["NSFetchIndexDescriptions"], context)
        // Older archives keep compound indexes as tuples of properties; they index the same columns.
        for tuple in try uniquenessConstraints(fields["NSCompoundIndexes"], context) where !tuple.isEmpty {
            let name = tuple.joined(separator: "_")
            guard !entity.fetchIndexes.contains(where: { $0.name == name || $0.elements.map(\.compoundName) == tuple })
            else { continue }
            entity.fetchIndexes.append(ObjectModel.FetchIndex(name, elements: tuple.map { .init($0) }))
        }
        entity.userInfo = try userInfo(fields["NSUserInfo"], context)
        var properties: [(property: Property, viaProxy: Bool)] = []
        for (key, propertyValue) in try entries(fields["NSProperties"], "\(context)'s NSProperties") {
            let keyName = try string(key, "a property name in \(context)")
            properties.append(try property(propertyValue, keyName: keyName, context: context, nesting: 0))
        }
        return ArchivedEntity(entity: entity, properties: properties)
    }

    /// Tuples of property names (`NSUniqueTuples`, `NSCompoundIndexes`): each component a name or a property.
    private func uniquenessConstraints(_ value: KeyedArchive.Value?, _ context: String) throws(ModelCacheError)
        -> [[String]]
    {
        var constraints: [[String]] = []
        for tuple in try elements(value, "\(context)'s property tuples") {
            var components: [String] = []
            for component in try elements(tuple, "a uniqueness constraint of \(context)") {
                components.append(try propertyName(component, "a uniqueness constraint component of \(context)"))
            }
            constraints.append(components)
        }
        return constraints
    }

    private func fetchIndexes(_ value: KeyedArchive.Value?, _ context: String) throws(ModelCacheError) -> [ObjectModel
        .FetchIndex]
    {
        var indexes: [ObjectModel.FetchIndex] = []
        for indexValue in try elements(value, "\(context)'s NSFetchIndexDescriptions") {
            guard let fields = try fields(indexValue, "a fetch index of \(context)") else { continue }
            guard let name = try string(fields["NSIndexName"], "a fetch index name of \(context)") else {
                throw .malformed("\(context): a fetch index has no name")
            }
            var elements: [ObjectModel.FetchIndex.Element] = []
            for elementValue in try self.elements(fields["NSIndexElements"], "fetch index \(name) of \(context)") {
                guard let element = try self.fields(elementValue, "an element of fetch index \(name)") else { continue }
                guard let propertyValue = element["NSPropertyName"] ?? element["NSProperty"] else {
                    throw .malformed("\(context): an element of fetch index \(name) names no property")
                }
                let property = try propertyName(propertyValue, "an element of fetch index \(name) of \(context)")
                let kindCode = try integer(element["NSFetchIndexElementType"], "an element of fetch index \(name)") ?? 0
                guard let kind = ObjectModel.FetchIndex.Kind(rawValue: Int(kindCode)) else {
                    throw .unsupported("\(context): fetch index \(name) has an element of type \(kindCode)")
                }
                let ascending = try flag(element["NSAscending"], "an element of fetch index \(name)") ?? true
                // An element may index an expression (`SELF`, the key path `entity`) through an expression
                // description, which names no stored property.
                var expression: String?
                if let indexed = try self.fields(element["NSIndexedProperty"], "an element of fetch index \(name)"),
                    try classNames(indexed).contains("NSExpressionDescription"), let value = indexed["NSExpression"]
                {
                    expression = try expressionFormat(
                        value, nesting: 0, "the expression of an element of fetch index \(name) of \(context)")
                }
                elements.append(.init(property, ascending: ascending, kind: kind, expression: expression))
            }
            var index = ObjectModel.FetchIndex(name, elements: elements)
            if let predicate = fields["NSPartialIndexPredicate"],
                try archived({ () throws(KeyedArchiveError) in try archive.resolve(predicate) }) != nil
            {
                index.partialIndexPredicate = try predicateFormat(
                    predicate, nesting: 0, "the partial-index predicate of \(name) in \(context)")
            }
            indexes.append(index)
        }
        return indexes
    }

    // MARK: Properties

    /// A property's flags. Core Data archives them packed in `_P` (0x2 optional, 0x4 read-only, 0x8 transient,
    /// 0x400 ordered, 0x80 "no version-hash modifier"); when `_P` is 0 or absent, the boolean keys `NSIsOptional`,
    /// `NSIsReadOnly`, `NSIsTransient` and `NSIsOrdered` hold them instead (older archives).
    struct Flags {
        var optional = false
        var readOnly = false
        var transient = false
        var ordered = false
        /// Whether `NSVersionHashModifier` may be read. With a packed `_P`, bit 0x80 set means "no modifier", and a
        /// stale or placeholder value under the key must then be ignored.
        var hasModifier = true
    }

    private func flags(_ fields: Fields, _ context: String) throws(ModelCacheError) -> Flags {
        let packed = try integer(fields["_P"], "\(context)'s _P") ?? 0
        if packed != 0 {
            return Flags(
                optional: packed & 0x2 != 0, readOnly: packed & 0x4 != 0, transient: packed & 0x8 != 0,
                ordered: packed & 0x400 != 0, hasModifier: packed & 0x80 == 0)
        }
        return Flags(
            optional: try flag(fields["NSIsOptional"], context) ?? false,
            readOnly: try flag(fields["NSIsReadOnly"], context) ?? false,
            transient: try flag(fields["NSIsTransient"], context) ?? false,
            ordered: try flag(fields["NSIsOrdered"], context) ?? false)
    }

    private func property(
        _ value: KeyedArchive.Value, keyName: String?, context entityContext: String,
        nesting: Int
    ) throws(ModelCacheError) -> (property: Property, viaProxy: Bool) {
        guard nesting <= Self.maximumNesting else {
            throw .malformed("\(entityContext): property proxies nest deeper than \(Self.maximumNesting) levels")
        }
        let label = keyName.map { "property \($0) of \(entityContext)" } ?? "a property of \(entityContext)"
        guard let fields = try fields(value, label) else { throw .malformed("\(label) is nil") }
        let classes = try classNames(fields)
        if classes.contains(where: { $0.hasSuffix("PropertyDescriptionProxy") }) {
            // A proxy stands for the parent's property and hashes exactly like it.
            guard let underlying = fields["NSUnderlyingProperty"] else {
                throw .malformed("\(label) is a proxy without NSUnderlyingProperty")
            }
            return (
                try property(underlying, keyName: keyName, context: entityContext, nesting: nesting + 1).property, true
            )
        }
        guard let name = try string(fields["NSPropertyName"], "\(label)'s NSPropertyName") ?? keyName, !name.isEmpty
        else {
            throw .malformed("\(label) has no name")
        }
        let context = "property \(name) of \(entityContext)"
        if classes.contains("NSRelationshipDescription") {
            return (.relationship(try relationship(fields, name: name, context: context)), false)
        }
        if classes.contains("NSFetchedPropertyDescription") {
            return (.fetched(name), false)
        }
        if classes.contains("NSAttributeDescription") {
            return (.attribute(try attribute(fields, name: name, context: context, nesting: nesting)), false)
        }
        throw .unsupported("\(context) is an \(classes[0]), not an attribute, relationship or fetched property")
    }

    private func attribute(_ fields: Fields, name: String, context: String, nesting: Int) throws(ModelCacheError)
        -> ObjectModel.Attribute
    {
        let classes = try classNames(fields)
        let typeCode = try integer(fields["NSAttributeType"], "\(context)'s NSAttributeType") ?? 0
        guard let type = ObjectModel.AttributeType(rawValue: Int(typeCode)) else {
            throw .unsupported("\(context) has attribute type \(typeCode), which tasks does not know")
        }
        let flags = try self.flags(fields, context)
        var attribute = ObjectModel.Attribute(name, type, optional: flags.optional)
        attribute.isTransient = flags.transient
        attribute.isReadOnly = flags.readOnly
        if flags.hasModifier {
            attribute.versionHashModifier = try string(
                fields["NSVersionHashModifier"], "\(context)'s NSVersionHashModifier")
        }
        let storage = try integer(fields["NSFlagsKey"], "\(context)'s NSFlagsKey") ?? 0
        attribute.allowsExternalStorage = storage & 0x4 != 0
        attribute.preservesValueInHistoryOnDeletion = storage & 0x10 != 0
        attribute.valueClassName = try string(
            fields["NSAttributeValueClassName"], "\(context)'s NSAttributeValueClassName")
        attribute.valueTransformerName = try string(
            fields["NSValueTransformerName"], "\(context)'s NSValueTransformerName")
        attribute.renamingIdentifier = try renamingIdentifier(fields, name: name, context)
        attribute.isIndexed = try flag(fields["NSIsIndexed"], "\(context)'s NSIsIndexed") ?? false
        attribute.defaultValue = try defaultValueText(fields["NSDefaultValue"], context)
        attribute.userInfo = try userInfo(fields["NSUserInfo"], context)
        (attribute.minValue, attribute.maxValue) = validationBounds(fields, context)
        if classes.contains("NSDerivedAttributeDescription") {
            // Core Data hashes a derived attribute by its expression's format alone (an absent one adds nothing).
            attribute.derivation =
                try fields["NSDerivationExpression"].map { (expression: KeyedArchive.Value) throws(ModelCacheError) in
                    try expressionFormat(expression, nesting: 0, "the derivation of \(context)")
                } ?? ""
            if let filter = fields["NSFilteringPredicate"],
                try archived({ () throws(KeyedArchiveError) in try archive.resolve(filter) }) != nil
            {
                attribute.derivationFilter = try predicateFormat(
                    filter, nesting: 0, "the filtering predicate of \(context)")
            }
        }
        if classes.contains("NSCompositeAttributeDescription") || fields["NSCompositeElements"] != nil {
            guard nesting < Self.maximumNesting else {
                throw .malformed("\(context): composite elements nest deeper than \(Self.maximumNesting) levels")
            }
            for elementValue in try elements(fields["NSCompositeElements"], "\(context)'s NSCompositeElements") {
                guard let element = try self.fields(elementValue, "an element of \(context)") else { continue }
                let elementClasses = try classNames(element)
                guard elementClasses.contains("NSAttributeDescription") else {
                    throw .unsupported("\(context) has a composite element of class \(elementClasses[0])")
                }
                guard let elementName = try string(element["NSPropertyName"], "an element name of \(context)"),
                    !elementName.isEmpty
                else {
                    throw .malformed("\(context) has a composite element without a name")
                }
                attribute.elements.append(
                    try self.attribute(
                        element, name: elementName, context: "element \(elementName) of \(context)",
                        nesting: nesting + 1))
            }
        }
        return attribute
    }

    private func relationship(_ fields: Fields, name: String, context: String) throws(ModelCacheError)
        -> ObjectModel.Relationship
    {
        var destination: String?
        if let entity = try self.fields(fields["NSDestinationEntity"], "\(context)'s NSDestinationEntity") {
            destination = try string(entity["NSEntityName"], "\(context)'s destination entity name")
        }
        if destination == nil {
            destination = try string(fields["_NSDestinationEntityName"], "\(context)'s _NSDestinationEntityName")
        }
        guard let destination, !destination.isEmpty else { throw .malformed("\(context) has no destination entity") }
        var inverse = try string(fields["_NSInverseRelationshipName"], "\(context)'s _NSInverseRelationshipName")
        if inverse == nil,
            let inverseFields = try self.fields(fields["NSInverseRelationship"], "\(context)'s NSInverseRelationship")
        {
            inverse = try string(inverseFields["NSPropertyName"], "\(context)'s inverse relationship name")
        }
        let flags = try self.flags(fields, context)
        let maxCount = try integer(fields["NSMaxCount"], "\(context)'s NSMaxCount") ?? 0
        var relationship = ObjectModel.Relationship(
            name, to: destination, inverse: inverse, toMany: true, ordered: flags.ordered)
        relationship.maxCount = Int(maxCount)
        relationship.minCount = Int(try integer(fields["NSMinCount"], "\(context)'s NSMinCount") ?? 0)
        relationship.isOptional = flags.optional
        relationship.isTransient = flags.transient
        relationship.isReadOnly = flags.readOnly
        if flags.hasModifier {
            relationship.versionHashModifier = try string(
                fields["NSVersionHashModifier"], "\(context)'s NSVersionHashModifier")
        }
        relationship.renamingIdentifier = try renamingIdentifier(fields, name: name, context)
        relationship.userInfo = try userInfo(fields["NSUserInfo"], context)
        let rule =
            try integer(fields["NSDeleteRule"], "\(context)'s NSDeleteRule")
            ?? Int64(ObjectModel.DeleteRule.nullify.rawValue)
        guard let deleteRule = ObjectModel.DeleteRule(rawValue: Int(rule)) else {
            throw .malformed("\(context) has delete rule \(rule)")
        }
        relationship.deleteRule = deleteRule
        return relationship
    }

    /// The renaming identifier when it differs from the name (Core Data archives the name itself by default).
    private func renamingIdentifier(_ fields: Fields, name: String, _ context: String) throws(ModelCacheError)
        -> String?
    {
        let identifier = try string(fields["NSRenamingIdentifier"], "\(context)'s NSRenamingIdentifier")
        return identifier == name ? nil : identifier
    }

    /// A property named by a string or by an archived property description.
    private func propertyName(_ value: KeyedArchive.Value, _ context: String) throws(ModelCacheError) -> String {
        let resolved = try archived { () throws(KeyedArchiveError) in try archive.resolve(value) }
        if case .string(let name)? = resolved { return name }
        guard let fields = try fields(value, context), let name = try string(fields["NSPropertyName"], context) else {
            throw .malformed("\(context) is neither a property name nor a property")
        }
        return name
    }

    // MARK: Archive access with this decoder's error type

    func archived<T>(_ body: () throws(KeyedArchiveError) -> T) throws(ModelCacheError) -> T {
        do { return try body() } catch { throw .archive(error) }
    }

    func fields(_ value: KeyedArchive.Value?, _ context: @autoclosure () -> String) throws(ModelCacheError) -> Fields? {
        guard let value else { return nil }
        return try archived { () throws(KeyedArchiveError) in try archive.object(value, context()) }
    }

    func classNames(_ fields: Fields) throws(ModelCacheError) -> [String] {
        try archived { () throws(KeyedArchiveError) in try archive.classNames(of: fields) }
    }

    func string(_ value: KeyedArchive.Value?, _ context: @autoclosure () -> String) throws(ModelCacheError) -> String? {
        try archived { () throws(KeyedArchiveError) in try archive.string(value, context()) }
    }

    func elements(_ value: KeyedArchive.Value?, _ context: @autoclosure () -> String) throws(ModelCacheError)
        -> [KeyedArchive.Value]
    {
        try archived { () throws(KeyedArchiveError) in try archive.elements(value, context()) }
    }

    func entries(_ value: KeyedArchive.Value?, _ context: @autoclosure () -> String) throws(ModelCacheError) -> [(
        key: KeyedArchive.Value, value: KeyedArchive.Value
    )] {
        try archived { () throws(KeyedArchiveError) in try archive.entries(value, context()) }
    }

    /// The values of a dictionary object, or the elements of an array or set object.
    func collectionValues(_ value: KeyedArchive.Value?, _ context: @autoclosure () -> String) throws(ModelCacheError)
        -> [KeyedArchive.Value]
    {
        guard let value, let fields = try fields(value, context()) else { return [] }
        if fields["NS.keys"] != nil || fields["values"] != nil { return try entries(value, context()).map(\.value) }
        return try elements(value, context())
    }

    /// An inline or referenced integer (booleans count as 0/1); nil when absent or `$null`.
    func integer(_ value: KeyedArchive.Value?, _ context: @autoclosure () -> String) throws(ModelCacheError) -> Int64? {
        guard let value, let resolved = try archived({ () throws(KeyedArchiveError) in try archive.resolve(value) })
        else { return nil }
        guard let integer = resolved.integer else {
            throw .malformed("\(context()) is \(resolved.kindName), not an integer")
        }
        return integer
    }

    /// An inline or referenced boolean; nil when absent or `$null`.
    func flag(_ value: KeyedArchive.Value?, _ context: @autoclosure () -> String) throws(ModelCacheError) -> Bool? {
        guard let value, let resolved = try archived({ () throws(KeyedArchiveError) in try archive.resolve(value) })
        else { return nil }
        guard let flag = resolved.bool else { throw .malformed("\(context()) is \(resolved.kindName), not a boolean") }
        return flag
    }
}
