import Foundation
import TaskInterchange

/// The `@Model` class of one entity, nested in its version's schema enum (see `SwiftDataGenerator`).
struct SwiftDataEntityWriter {
    let entity: ObjectModel.Entity
    let model: ObjectModel
    let schema: String
    let source: String
    /// The model's entity names, for the per-attribute check of a type name an entity would hide.
    let entityNames: Set<String>
    /// True when another entity inherits from this one (its class is then not `final`).
    let hasSubentities: Bool
    /// The Swift names of its properties, inherited ones included (`SwiftNames.memberNames`).
    let memberNames: [String: String]

    init(
        entity: ObjectModel.Entity, model: ObjectModel, schema: String, source: String, entityNames: Set<String>? = nil,
        parents: Set<String>? = nil
    ) {
        self.entity = entity
        self.model = model
        self.schema = schema
        self.source = source
        self.entityNames = entityNames ?? Set(model.entities.map(\.name))
        hasSubentities = (parents ?? Set(model.entities.compactMap(\.superentity))).contains(entity.name)
        memberNames = SwiftNames.memberNames(of: entity, in: model)
    }

    /// The Swift name of one of its properties.
    func member(_ name: String) -> String {
        memberNames[name] ?? SwiftNames.swiftName(name)
    }

    /// SwiftData model inheritance is new in the 26 releases.
    static let inheritanceAvailability = "@available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, *)"

    /// One `init` parameter: a required attribute without a default.
    struct Parameter {
        var name: String
        var type: String
    }

    func file() -> String {
        var lines = [
            SwiftDataGenerator.header("from \(URL(fileURLWithPath: source).lastPathComponent), entity \(entity.name)"),
            "",
        ]
        lines.append("extension \(schema) {")
        lines += classLines().map { $0.isEmpty ? "" : "    " + $0 }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    func classLines() -> [String] {
        var lines: [String] = []
        if entity.isAbstract {
            lines.append(
                """
                // NOTE: abstract in Core Data; SwiftData has no \
                abstract models: never insert a \(entity.name) itself.
                """
            )
        }
        if let modifier = entity.versionHashModifier {
            lines.append(
                """
                // NOTE: the entity's version hash modifier \"\(modifier)\" has no \
                SwiftData equivalent; without it the entity's hash differs from the store's.
                """
            )
        }
        if let renaming = entity.renamingIdentifier {
            lines.append(
                """
                // NOTE: renaming identifier \"\(renaming)\": this entity was \(renaming); SwiftData \
                has no originalName for a model, so the migration from it is a custom stage.
                """
            )
        }
        if entity.superentity != nil {
            lines.append(
                """
                // NOTE: a sub-entity of \(entity.superentity!); SwiftData model \
                inheritance needs the 26 releases. Core Data keeps the whole hierarchy \
                in one table, so check the store SwiftData makes before relying on it.
                """
            )
            lines.append(Self.inheritanceAvailability)
        }
        let className = SwiftNames.swiftName(entity.name)
        if !SwiftNames.isIdentifier(entity.name) {
            lines.append(
                """
                // NOTE: the entity name \(Self.stringLiteral(entity.name)) is no Swift name, so the class is \
                \(className); SwiftData names a model after its class and has no originalName for one: move the \
                entity's data in a custom stage.
                """
            )
        }
        lines.append("@Model")
        let inheritance = entity.superentity.map { ": \(SwiftNames.swiftName($0))" } ?? ""
        lines.append("\(hasSubentities ? "" : "final ")class \(className)\(inheritance) {")
        var body: [String] = []
        let compound = entity.uniquenessConstraints.filter { $0.count > 1 }
        if !compound.isEmpty {
            body.append(
                "#Unique<\(className)>("
                    + compound.map { "[" + $0.map { "\\.\(member($0))" }.joined(separator: ", ") + "]" }
                    .joined(separator: ", ") + ")")
        }
        let indexable = entity.indexes.filter { index in
            index.partialIndexPredicate == nil && !index.elements.isEmpty
                && index.elements.allSatisfy { element in
                    element.kind == .binary && element.ascending
                        && entity.attributes.contains { $0.name == element.property && !$0.isTransient }
                }
        }
        if !indexable.isEmpty {
            body.append(
                """
                // NOTE: SwiftData names its indexes itself; Core Data's were \
                \(indexable.map { CoreDataNames.fetchIndexName($0.name, of: entity.name) }.joined(separator: ", ")).
                """
            )
            body.append(
                "#Index<\(className)>("
                    + indexable.map {
                        "[" + $0.elements.map { "\\.\(member($0.property))" }.joined(separator: ", ")
                            + "]"
                    }.joined(separator: ", ") + ")")
        }
        for index in entity.indexes where !indexable.contains(index) {
            body.append(
                """
                // NOTE: fetch index \(index.name) (descending, R-tree, \
                partial or on a relationship) has no SwiftData #Index form.
                """
            )
        }
        if !body.isEmpty { body.append("") }
        var parameters: [Parameter] = []
        for attribute in entity.attributes {
            body += attributeLines(attribute, parameters: &parameters)
        }
        for relationship in entity.relationships {
            body += relationshipLines(relationship)
        }
        for name in entity.fetchedProperties {
            body.append(
                """
                // NOTE: fetched property \(name) has no SwiftData \
                equivalent: run a FetchDescriptor in a ModelContext instead.
                """
            )
        }
        let inherited = inheritedParameters()
        if !body.isEmpty { body.append("") }
        let all = parameters + inherited
        // A sub-entity without required attributes of its own has its parent's initializer signature.
        let overrides = entity.superentity != nil && parameters.isEmpty
        body.append(
            (overrides ? "override " : "") + "init(" + all.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
                + ") {")
        for parameter in parameters {
            body.append("    self.\(parameter.name) = \(parameter.name)")
        }
        if entity.superentity != nil {
            body.append("    super.init(" + inherited.map { "\($0.name): \($0.name)" }.joined(separator: ", ") + ")")
        }
        if body.last!.hasSuffix("{") { body[body.count - 1] += "}" } else { body.append("}") }
        lines += body.map { $0.isEmpty ? "" : "    " + $0 }
        lines.append("}")
        return lines
    }

    /// The `init` parameters of the superentities, root first.
    func inheritedParameters() -> [Parameter] {
        var result: [Parameter] = []
        for ancestor in model.ancestry(of: entity).dropFirst().reversed() {
            var ignored: [Parameter] = []
            for attribute in ancestor.attributes {
                _ = SwiftDataEntityWriter(
                    entity: ancestor, model: model, schema: schema, source: source, entityNames: entityNames,
                    parents: []
                ).attributeLines(attribute, parameters: &ignored)
            }
            result += ignored
        }
        return result
    }

    // MARK: Attributes

    /// The Swift type of an attribute type, module-qualified when an entity of the model has the same name.
    func swiftType(_ attribute: ObjectModel.Attribute) -> String? {
        let (module, name): (String, String)
        switch attribute.type {
        case .integer16: (module, name) = ("Swift", "Int16")
        case .integer32: (module, name) = ("Swift", "Int32")
        case .integer64: (module, name) = ("Swift", "Int64")
        case .decimal: (module, name) = ("Foundation", "Decimal")
        case .double: (module, name) = ("Swift", "Double")
        case .float: (module, name) = ("Swift", "Float")
        case .string: (module, name) = ("Swift", "String")
        case .boolean: (module, name) = ("Swift", "Bool")
        case .date: (module, name) = ("Foundation", "Date")
        case .binaryData: (module, name) = ("Foundation", "Data")
        case .uuid: (module, name) = ("Foundation", "UUID")
        case .uri: (module, name) = ("Foundation", "URL")
        case .transformable:
            // The class the model names; NSObject stands in when it names none.
            let named = attribute.valueClassName.flatMap { $0.isEmpty ? nil : $0 }
            (module, name) = named.map { ("", $0) } ?? ("Foundation", "NSObject")
        case .undefined, .objectID, .composite: return nil
        }
        return !module.isEmpty && entityNames.contains(name) ? module + "." + name : name
    }

    /// Swift source for a default value given as the model's text, or nil when it has no literal form.
    func literal(_ text: String, for attribute: ObjectModel.Attribute, type: String) -> String? {
        switch attribute.type {
        case .integer16:
            return Int16(text) != nil ? text : nil
        case .integer32:
            return Int32(text) != nil ? text : nil
        case .integer64:
            return Int64(text) != nil ? text : nil
        case .double, .float:
            guard let value = Double(text) else { return nil }
            if value.isNaN { return ".nan" }
            // A literal the type cannot hold (1e39 for a Float) does not compile: the default becomes a NOTE.
            let finite = attribute.type == .float ? Float(text)?.isFinite == true : value.isFinite
            if value.isInfinite || !finite {
                return value.isInfinite ? (value < 0 ? "-.infinity" : ".infinity") : nil
            }
            // Plain decimal text is a Swift literal as it is; `0x1p3` and other spellings Double reads are not kept.
            guard DecimalText(text) != nil else { return nil }
            return text.contains(".") || text.contains("e") || text.contains("E") ? text : text + ".0"
        case .boolean:
            switch text.uppercased() {
            case "YES", "TRUE", "1": return "true"
            case "NO", "FALSE", "0": return "false"
            default: return nil
            }
        case .string:
            return Self.stringLiteral(text)
        case .decimal:
            return Decimal(string: text) != nil ? "\(type)(string: \(Self.stringLiteral(text)))!" : nil
        case .uuid:
            return UUID(uuidString: text) != nil ? "\(type)(uuidString: \(Self.stringLiteral(text)))!" : nil
        case .uri:
            return URL(string: text) != nil ? "\(type)(string: \(Self.stringLiteral(text)))!" : nil
        case .date:
            if let interval = Double(text) {
                return interval.isFinite ? "\(type)(timeIntervalSinceReferenceDate: \(interval))" : nil
            }
            if let date = ISO8601DateFormatter().date(from: text) {
                return "\(type)(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
            }
            return nil
        case .binaryData, .transformable, .undefined, .objectID, .composite:
            return nil
        }
    }

    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    func attributeLines(_ attribute: ObjectModel.Attribute, parameters: inout [Parameter]) -> [String] {
        var lines: [String] = []
        let name = member(attribute.name)
        if let derivation = attribute.derivation {
            lines.append(
                """
                // NOTE: derived attribute \(attribute.name) = \(derivation): \
                SwiftData has no derived attributes; compute it in Swift.
                """
            )
            return lines
        }
        if SwiftNames.persistentModelMembers.contains(attribute.name) {
            lines.append(
                """
                // NOTE: \(attribute.name) is a member every SwiftData model has, so it \
                cannot be a property: rename it and move its values in a custom stage.
                """
            )
            return lines
        }
        guard let type = swiftType(attribute) else {
            lines.append(
                """
                // NOTE: attribute \(attribute.name) of type \(XCDataModelParser.typeName(attribute.type)) \
                has no SwiftData equivalent\(attribute.type == .composite ? " (use a Codable struct)" : "").
                """
            )
            return lines
        }
        if attribute.type == .transformable && (attribute.valueClassName ?? "").isEmpty {
            lines.append("// NOTE: the model names no class for \(attribute.name); NSObject stands in.")
        }
        if attribute.minValue != nil || attribute.maxValue != nil {
            let range =
                (attribute.minValue.map { "\($0) ≤ " } ?? "") + attribute.name
                + (attribute.maxValue.map { " ≤ \($0)" } ?? "")
            lines.append("// NOTE: the model validates \(range); SwiftData does not: check it before saving.")
        }
        var options: [String] = []
        if entity.uniquenessConstraints.contains([attribute.name]) { options.append(".unique") }
        if attribute.allowsExternalStorage { options.append(".externalStorage") }
        if attribute.type == .transformable, let transformer = attribute.valueTransformerName, !transformer.isEmpty {
            options.append(".transformable(by: \(Self.stringLiteral(transformer)))")
        }
        if attribute.preservesValueInHistoryOnDeletion { options.append(".preserveValueOnDeletion") }
        var arguments = options
        if let original = originalName(
            attribute.name, spelled: name, renamingIdentifier: attribute.renamingIdentifier, &lines)
        {
            arguments.append("originalName: \(Self.stringLiteral(original))")
        }
        if let modifier = attribute.versionHashModifier {
            arguments.append("hashModifier: \(Self.stringLiteral(modifier))")
        }
        let defaultLiteral = attribute.defaultValue.flatMap { literal($0, for: attribute, type: type) }
        if let text = attribute.defaultValue, defaultLiteral == nil {
            lines.append(
                "// NOTE: default value \(Self.stringLiteral(text)) has no Swift literal here; set it in init.")
        }
        if attribute.isTransient {
            lines.append("@Transient var \(name): \(type)? = \(defaultLiteral ?? "nil")")
            return lines
        }
        let annotation = arguments.isEmpty ? "" : "@Attribute(\(arguments.joined(separator: ", "))) "
        if attribute.isOptional {
            lines.append("\(annotation)var \(name): \(type)?\(defaultLiteral.map { " = \($0)" } ?? "")")
        } else if let defaultLiteral {
            lines.append("\(annotation)var \(name): \(type) = \(defaultLiteral)")
        } else {
            lines.append("\(annotation)var \(name): \(type)")
            parameters.append(Parameter(name: name, type: type))
        }
        return lines
    }

    // MARK: Relationships

    /// True when this side of a relationship pair writes `inverse:`: the to-many side of a one-to-many, otherwise
    /// the side whose `Entity.name` sorts first. Writing it on one side only avoids the macros' circular reference.
    func writesInverse(_ relationship: ObjectModel.Relationship) -> Bool {
        guard let inverseName = relationship.inverse, let destination = model.entity(named: relationship.destination),
            let inverse = model.relationship(named: inverseName, in: destination)?.relationship
        else { return false }
        if relationship.isToMany != inverse.isToMany { return relationship.isToMany }
        let this = Array((entity.name + "." + relationship.name).utf8)
        let other = Array((destination.name + "." + inverse.name).utf8)
        return this == other || this.lexicographicallyPrecedes(other)
    }

    func relationshipLines(_ relationship: ObjectModel.Relationship) -> [String] {
        var lines: [String] = []
        let name = member(relationship.name)
        let destination = SwiftNames.swiftName(relationship.destination)
        if SwiftNames.persistentModelMembers.contains(relationship.name) {
            lines.append(
                """
                // NOTE: \(relationship.name) is a member every SwiftData model has, so \
                it cannot be a property: rename it and move its values in a custom stage.
                """
            )
            return lines
        }
        if relationship.isTransient {
            lines.append("// NOTE: transient relationship \(relationship.name) has no SwiftData equivalent.")
            return lines
        }
        if relationship.isOrdered {
            lines.append(
                """
                // NOTE: ordered in Core Data; SwiftData arrays keep no order (the store's \
                \(CoreDataNames.orderPrefix) order is not read): add a position attribute and sort by it.
                """
            )
        }
        if relationship.inverse == nil {
            lines.append("// NOTE: no inverse in the model.")
        }
        if !relationship.isToMany && (!relationship.isOptional || relationship.minCount > 0) {
            lines.append(
                """
                // NOTE: required in the model; optional here because SwiftData \
                sets relationships after insert: check it before saving.
                """
            )
        }
        var arguments: [String] = []
        let inverse = writesInverse(relationship)
        if relationship.deleteRule != .nullify || inverse {
            arguments.append("deleteRule: \(Self.deleteRule(relationship.deleteRule))")
        }
        if relationship.isToMany && relationship.minCount > 0 {
            arguments.append("minimumModelCount: \(relationship.minCount)")
        }
        if relationship.isToMany && relationship.maxCount > 0 {
            arguments.append("maximumModelCount: \(relationship.maxCount)")
        }
        if let original = originalName(
            relationship.name, spelled: name, renamingIdentifier: relationship.renamingIdentifier, &lines)
        {
            arguments.append("originalName: \(Self.stringLiteral(original))")
        }
        // The macro's parameter order: inverse before hashModifier.
        if inverse, let inverseName = relationship.inverse {
            let inverseMember =
                model.entity(named: relationship.destination).map {
                    SwiftNames.memberNames(of: $0, in: model)[inverseName]
                } ?? nil
            arguments.append("inverse: \\\(destination).\(inverseMember ?? SwiftNames.swiftName(inverseName))")
        }
        if let modifier = relationship.versionHashModifier {
            arguments.append("hashModifier: \(Self.stringLiteral(modifier))")
        }
        let annotation = arguments.isEmpty ? "" : "@Relationship(\(arguments.joined(separator: ", "))) "
        if relationship.isToMany {
            lines.append("\(annotation)var \(name): [\(destination)] = []")
        } else {
            lines.append("\(annotation)var \(name): \(destination)?")
        }
        return lines
    }

    /// The `originalName:` of a property: the model's renaming identifier (the name in the version before), or the
    /// model's own name when the class spells it otherwise (`spelled`), so SwiftData finds its data. With both, the
    /// renaming wins and a NOTE in `lines` says what is left to do.
    func originalName(_ name: String, spelled: String, renamingIdentifier: String?, _ lines: inout [String])
        -> String?
    {
        guard !SwiftNames.keeps(name, as: spelled) else { return renamingIdentifier }
        guard let renamingIdentifier else { return name }
        lines.append(
            """
            // NOTE: \(Self.stringLiteral(name)) is no Swift name and was \(renamingIdentifier) before: \
            originalName keeps the renaming, so move this version's \(Self.stringLiteral(name)) data in a custom stage.
            """
        )
        return renamingIdentifier
    }

    static func deleteRule(_ rule: ObjectModel.DeleteRule) -> String {
        switch rule {
        case .noAction: return ".noAction"
        case .nullify: return ".nullify"
        case .cascade: return ".cascade"
        case .deny: return ".deny"
        }
    }
}
