import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads the `contents` XML of one `.xcdatamodel` (what Xcode's model editor saves) into an `ObjectModel` shaped like
/// the one decoded from a model cache: entities and their own properties in byte-wise name order, renaming
/// identifiers only where they differ from the name, `versionIdentifiers` from `userDefinedModelVersionIdentifier`.
///
/// The XML names things differently from the compiled model: `elementID` is the renaming identifier,
/// `deletionRule` the delete rule, `parentEntity` the superentity, `allowsExternalBinaryDataStorage` external storage,
/// `preserveAfterDeletion` history preservation; a relationship without `toMany="YES"` is to-one (maximum 1).
package struct XCDataModelParser {
    /// The file named in error messages.
    let path: String

    /// Parses `data`.
    /// - Throws: `TaskInterchangeError.invalidData` naming `path:line:column` for XML that does not parse and for a
    ///   model that is not consistent (an unknown attribute type, a relationship to an entity that does not exist).
    func parse(_ data: Data) throws(TaskInterchangeError) -> ObjectModel {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let delegate = Delegate(path: path)
        parser.delegate = delegate
        let parsed = parser.parse()
        if let error = delegate.failure { throw error }
        guard parsed else {
            let reason = parser.parserError.map(XCDataModelParser.reason) ?? "the XML is not well-formed"
            throw TaskInterchangeError(
                .invalidData, "\(path):\(parser.lineNumber):\(parser.columnNumber): not a data model: \(reason)")
        }
        guard delegate.sawModel else {
            throw TaskInterchangeError(.invalidData, "\(path): not a data model: no <model> element")
        }
        return try delegate.finished()
    }

    /// The XML's attribute type names.
    static let attributeTypes: [String: ObjectModel.AttributeType] = [
        "Undefined": .undefined, "Integer 16": .integer16, "Integer 32": .integer32, "Integer 64": .integer64,
        "Decimal": .decimal, "Double": .double, "Float": .float, "String": .string, "Boolean": .boolean, "Date": .date,
        "Binary": .binaryData, "UUID": .uuid, "URI": .uri, "Transformable": .transformable, "ObjectID": .objectID,
        "Composite": .composite,
    ]

    /// The XML's delete rule names.
    static let deleteRules: [String: ObjectModel.DeleteRule] = [
        "No Action": .noAction, "Nullify": .nullify, "Cascade": .cascade, "Deny": .deny,
    ]

    /// The model editor's name of an attribute type ("Integer 16", "Binary").
    package static func typeName(_ type: ObjectModel.AttributeType) -> String {
        attributeTypes.first { $0.value == type }?.key ?? "\(type)"
    }

    /// The parser's error in words: FoundationXML on Linux describes every error as "The operation could not be
    /// completed", so the common `XMLParser.ErrorCode`s are named here.
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        let names: [Int: String] = [
            4: "the document is empty", 5: "the document ends too early", 26: "an undeclared entity",
            73: "'>' expected", 76: "an end tag does not match its start tag",
            89: "an entity refers to itself or expands too much",
        ]
        let text = error.localizedDescription
        guard text.hasPrefix("The operation could not be completed") || text.isEmpty else { return text }
        return "the XML is not well-formed: " + (names[error.code] ?? "XMLParser error \(error.code)")
    }

    /// Where an element started, for messages.
    struct Location {
        var line: Int
        var column: Int
    }

    /// The SAX side: builds entities as elements arrive. A class because `XMLParser` wants an `NSObject` delegate.
    private final class Delegate: NSObject, XMLParserDelegate {
        let path: String
        var failure: TaskInterchangeError?
        var sawModel = false
        var versionIdentifier: String?
        var entities: [(entity: ObjectModel.Entity, location: Location)] = []
        /// Relationships as read, with where they were, checked once every entity is known.
        var relationshipLocations: [String: Location] = [:]
        var configurations: [String: [String]] = [:]
        var currentConfiguration: String?
        var currentConstraint: [String]?
        var currentIndex: ObjectModel.FetchIndex?
        /// The open elements, outermost first: elements count only where Xcode writes them (an `attribute` only
        /// directly in an `entity` directly in the `model`), so stray nesting cannot attach properties elsewhere.
        var stack: [String] = []

        /// The open elements as `model/entity/attribute`; empty below the deepest level read (the longest path is
        /// five elements), so hostile nesting costs nothing.
        var elementPath: String { stack.count <= 5 ? stack.joined(separator: "/") : "" }

        init(path: String) { self.path = path }

        func fail(_ parser: XMLParser, _ message: String) {
            guard failure == nil else { return }
            failure = TaskInterchangeError(
                .invalidData, "\(path):\(parser.lineNumber):\(parser.columnNumber): \(message)")
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard failure == nil else { return }
            stack.append(name)
            let location = Location(line: parser.lineNumber, column: parser.columnNumber)
            switch elementPath {
            case "model":
                sawModel = true
                versionIdentifier = attributes["userDefinedModelVersionIdentifier"]
            case name:
                fail(parser, "not a data model: the root element is <\(name)>, not <model>")
            case "model/entity":
                guard let entityName = attributes["name"], !entityName.isEmpty else {
                    return fail(parser, "an entity has no name")
                }
                var entity = ObjectModel.Entity(entityName, superentity: attributes["parentEntity"], attributes: [])
                entity.isAbstract = attributes["isAbstract"] == "YES"
                entity.versionHashModifier = attributes["versionHashModifier"]
                entity.className = attributes["representedClassName"]
                entity.renamingIdentifier = renaming(attributes, name: entityName)
                entities.append((entity, location))
            case "model/entity/attribute":
                guard let attribute = attribute(parser, attributes) else { return }
                entities[entities.count - 1].entity.attributes.append(attribute)
            case "model/entity/relationship":
                guard let relationship = relationship(parser, attributes) else { return }
                let entityName = entities[entities.count - 1].entity.name
                relationshipLocations[entityName + "." + relationship.name] = location
                entities[entities.count - 1].entity.relationships.append(relationship)
            case "model/entity/fetchedProperty":
                guard let propertyName = attributes["name"], !propertyName.isEmpty else {
                    return fail(parser, "a fetched property has no name")
                }
                entities[entities.count - 1].entity.fetchedProperties.append(propertyName)
            case "model/entity/uniquenessConstraints/uniquenessConstraint":
                currentConstraint = []
            case "model/entity/uniquenessConstraints/uniquenessConstraint/constraint":
                guard let value = attributes["value"], !value.isEmpty else {
                    return fail(parser, "a uniqueness constraint names no property")
                }
                currentConstraint?.append(value)
            case "model/entity/fetchIndex":
                guard let indexName = attributes["name"], !indexName.isEmpty else {
                    return fail(parser, "a fetch index has no name")
                }
                currentIndex = ObjectModel.FetchIndex(indexName, elements: [])
                if let predicate = attributes["partialIndexPredicate"], !predicate.isEmpty {
                    currentIndex?.partialIndexPredicate = predicate
                }
            case "model/entity/fetchIndex/fetchIndexElement":
                guard let property = attributes["property"], !property.isEmpty else {
                    // Expression elements (`expression=`, `expressionType=`) name no stored property.
                    return fail(
                        parser,
                        """
                        fetch index \(currentIndex?.name ?? "") has an element \
                        without a property (expression elements are not supported)
                        """
                    )
                }
                let kind: ObjectModel.FetchIndex.Kind
                switch attributes["type"] ?? "Binary" {
                case "Binary": kind = .binary
                case "RTree": kind = .rTree
                case let other:
                    return fail(
                        parser,
                        """
                        fetch index \(currentIndex?.name ?? "") has an element \
                        of type \"\(other)\" (expected Binary or RTree)
                        """
                    )
                }
                currentIndex?.elements.append(
                    .init(property, ascending: attributes["order"] != "descending", kind: kind))
            case "model/entity/compoundIndexes/compoundIndex":
                currentIndex = ObjectModel.FetchIndex("", elements: [])
            case "model/entity/compoundIndexes/compoundIndex/index":
                guard let property = attributes["value"], !property.isEmpty else {
                    return fail(parser, "a compound index names no property")
                }
                currentIndex?.elements.append(.init(property))
            case "model/configuration":
                guard let configuration = attributes["name"], !configuration.isEmpty else {
                    return fail(parser, "a configuration has no name")
                }
                currentConfiguration = configuration
                configurations[configuration, default: []] = configurations[configuration] ?? []
            case "model/configuration/memberEntity":
                guard let member = attributes["name"], let configuration = currentConfiguration else { return }
                configurations[configuration, default: []].append(member)
            case "model/entity/userInfo/entry", "model/entity/attribute/userInfo/entry",
                "model/entity/relationship/userInfo/entry":
                guard let key = attributes["key"] else { return fail(parser, "a user info entry has no key") }
                setUserInfo(stack[2], key, attributes["value"] ?? "")
            default:
                // Layout (`elements`), fetch request templates, fetched properties' requests and keys Xcode adds over
                // the years (`syncable`, `codeGenerationType`) change nothing Core Data stores.
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard failure == nil else { return }
            let elementPath = self.elementPath
            stack.removeLast()
            switch elementPath {
            case "model/entity/uniquenessConstraints/uniquenessConstraint":
                if let constraint = currentConstraint, !constraint.isEmpty {
                    entities[entities.count - 1].entity.uniquenessConstraints.append(constraint)
                }
                currentConstraint = nil
            case "model/entity/fetchIndex":
                if let index = currentIndex { entities[entities.count - 1].entity.fetchIndexes.append(index) }
                currentIndex = nil
            case "model/entity/compoundIndexes/compoundIndex":
                // The model compiler turns a compound index into a fetch index named by its properties.
                if var index = currentIndex, !index.elements.isEmpty {
                    index.name = index.elements.map(\.property).joined(separator: "_")
                    let properties = index.elements.map(\.property)
                    if !entities[entities.count - 1].entity.fetchIndexes.contains(where: {
                        $0.name == index.name || $0.elements.map(\.property) == properties
                    }) {
                        entities[entities.count - 1].entity.fetchIndexes.append(index)
                    }
                }
                currentIndex = nil
            case "model/configuration":
                currentConfiguration = nil
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard failure == nil else { return }
            failure = TaskInterchangeError(
                .invalidData,
                """
                \(path):\(parser.lineNumber):\(parser.columnNumber): not a data model: \
                \(XCDataModelParser.reason(parseError))
                """
            )
        }

        // MARK: Properties

        func attribute(_ parser: XMLParser, _ attributes: [String: String]) -> ObjectModel.Attribute? {
            let entityName = entities.last?.entity.name ?? ""
            guard let name = attributes["name"], !name.isEmpty else {
                fail(parser, "an attribute of entity \(entityName) has no name")
                return nil
            }
            let typeName = attributes["attributeType"] ?? "Undefined"
            guard let type = XCDataModelParser.attributeTypes[typeName] else {
                fail(
                    parser,
                    "attribute \(entityName).\(name) has attributeType \"\(typeName)\", which tasks does not know")
                return nil
            }
            if type == .composite {
                // The XML keeps a composite's elements in a model-level definition this reader does not follow, and a
                // composite without its elements would hash wrong: refuse rather than guess.
                fail(
                    parser,
                    "attribute \(entityName).\(name) is a composite attribute, which tasks cannot read from XML yet")
                return nil
            }
            var attribute = ObjectModel.Attribute(name, type, optional: attributes["optional"] == "YES")
            attribute.isTransient = attributes["transient"] == "YES"
            attribute.versionHashModifier = attributes["versionHashModifier"]
            attribute.allowsExternalStorage = attributes["allowsExternalBinaryDataStorage"] == "YES"
            attribute.preservesValueInHistoryOnDeletion = attributes["preserveAfterDeletion"] == "YES"
            // Dates keep their default as seconds since 2001 in their own key.
            attribute.defaultValue = attributes["defaultValueString"] ?? attributes["defaultDateTimeInterval"]
            attribute.minValue = attributes["minValueString"] ?? attributes["minDateTimeInterval"]
            attribute.maxValue = attributes["maxValueString"] ?? attributes["maxDateTimeInterval"]
            attribute.valueTransformerName = attributes["valueTransformerName"]
            attribute.valueClassName = attributes["customClassName"]
            attribute.renamingIdentifier = renaming(attributes, name: name)
            attribute.isIndexed = attributes["indexed"] == "YES"
            if attributes["derived"] == "YES" {
                // Core Data hashes a derived attribute by its expression's text; the XML keeps the text as typed.
                attribute.derivation = attributes["derivationExpression"] ?? ""
            }
            return attribute
        }

        func relationship(_ parser: XMLParser, _ attributes: [String: String]) -> ObjectModel.Relationship? {
            let entityName = entities.last?.entity.name ?? ""
            guard let name = attributes["name"], !name.isEmpty else {
                fail(parser, "a relationship of entity \(entityName) has no name")
                return nil
            }
            guard let destination = attributes["destinationEntity"], !destination.isEmpty else {
                fail(parser, "relationship \(entityName).\(name) has no destinationEntity")
                return nil
            }
            let ruleName = attributes["deletionRule"] ?? "Nullify"
            guard let rule = XCDataModelParser.deleteRules[ruleName] else {
                fail(
                    parser,
                    """
                    relationship \(entityName).\(name) has deletionRule \
                    \"\(ruleName)\" (expected Nullify, Cascade, Deny or No Action)
                    """
                )
                return nil
            }
            let toMany = attributes["toMany"] == "YES"
            var relationship = ObjectModel.Relationship(
                name, to: destination, inverse: attributes["inverseName"], toMany: toMany,
                ordered: attributes["ordered"] == "YES", deleteRule: rule)
            for (key, value) in [("maxCount", attributes["maxCount"]), ("minCount", attributes["minCount"])] {
                guard let value else { continue }
                guard let number = Int(value), number >= 0 else {
                    fail(parser, "relationship \(entityName).\(name) has \(key) \"\(value)\", not a count")
                    return nil
                }
                if key == "maxCount" { relationship.maxCount = number } else { relationship.minCount = number }
            }
            if !toMany { relationship.maxCount = 1 }
            relationship.isOptional = attributes["optional"] == "YES"
            relationship.isTransient = attributes["transient"] == "YES"
            relationship.versionHashModifier = attributes["versionHashModifier"]
            relationship.renamingIdentifier = renaming(attributes, name: name)
            return relationship
        }

        func renaming(_ attributes: [String: String], name: String) -> String? {
            guard let identifier = attributes["elementID"], !identifier.isEmpty, identifier != name else { return nil }
            return identifier
        }

        /// Sets a user info entry on the entity (`owner` "userInfo"), or on its last attribute or relationship.
        func setUserInfo(_ owner: String, _ key: String, _ value: String) {
            guard let last = entities.indices.last else { return }
            switch owner {
            case "attribute":
                guard let index = entities[last].entity.attributes.indices.last else { return }
                entities[last].entity.attributes[index].userInfo[key] = value
            case "relationship":
                guard let index = entities[last].entity.relationships.indices.last else { return }
                entities[last].entity.relationships[index].userInfo[key] = value
            default:
                entities[last].entity.userInfo[key] = value
            }
        }

        // MARK: Finishing

        /// The model, after checking what only the whole document can tell.
        func finished() throws(TaskInterchangeError) -> ObjectModel {
            var byName: [String: Location] = [:]
            for (entity, location) in entities {
                guard byName.updateValue(location, forKey: entity.name) == nil else {
                    throw located(location, "two entities are named \(entity.name)")
                }
            }
            do {
                _ = try ModelCacheDecoder.checkedInheritance(entities.map { .init(entity: $0.entity, properties: []) })
            } catch {
                if case .malformed(let reason) = error {
                    throw TaskInterchangeError(.invalidData, "\(path): \(reason)")
                }
                throw TaskInterchangeError(.invalidData, "\(path): \(error)")
            }
            let unsorted = ObjectModel(entities: entities.map(\.entity))
            let entityByName = Dictionary(
                entities.map { ($0.entity.name, $0.entity) }, uniquingKeysWith: { first, _ in first })
            for (entity, location) in entities {
                var seen: Set<String> = []
                for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties
                {
                    guard seen.insert(name).inserted else {
                        throw located(location, "entity \(entity.name) has two properties named \(name)")
                    }
                }
                for relationship in entity.relationships {
                    let place = relationshipLocations[entity.name + "." + relationship.name] ?? location
                    guard let destination = entityByName[relationship.destination] else {
                        throw located(
                            place,
                            """
                            relationship \(entity.name).\(relationship.name) points to \
                            entity \(relationship.destination), which the model does not have
                            """
                        )
                    }
                    if let inverse = relationship.inverse {
                        guard unsorted.relationship(named: inverse, in: destination, byName: entityByName) != nil else {
                            throw located(
                                place,
                                """
                                relationship \(entity.name).\(relationship.name) names \
                                inverse \(inverse), which \(destination.name) does not have
                                """
                            )
                        }
                    }
                }
            }
            var model = ObjectModel(
                entities: entities.map { pair in
                    var entity = pair.entity
                    entity.attributes.sort { Self.byteOrder($0.name, $1.name) }
                    entity.relationships.sort { Self.byteOrder($0.name, $1.name) }
                    entity.fetchedProperties.sort(by: Self.byteOrder)
                    return entity
                }.sorted { Self.byteOrder($0.name, $1.name) })
            model.versionIdentifiers = [versionIdentifier ?? ""]
            model.configurations = configurations
            return model
        }

        func located(_ location: Location, _ message: String) -> TaskInterchangeError {
            TaskInterchangeError(.invalidData, "\(path):\(location.line):\(location.column): \(message)")
        }

        static func byteOrder(_ a: String, _ b: String) -> Bool {
            Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
    }
}
