import Foundation
import TaskInterchange

/// `tasks inspect`: audits a store without changing a byte of it.
struct InspectCommand: Command {
    static let store = SharedOptions.store("The Core Data SQLite store to inspect.")
    static let modelOptions = ModelOptions.Declarations(
        mapping: "Use this mapping instead of detecting one.",
        model: "Describe the store with the app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom), for a store that "
            + "keeps no model cache; the version is the one whose hashes the store records.",
        modelVersion: "With --model: the version that wrote the store.")
    static let json = SharedOptions.json("Print a JSON object for scripts instead of text.")

    static let description = CommandDescription(
        name: "inspect",
        abstract: "Describe a store: entities, columns, join tables, the mapping export would use, and integrity "
            + "findings.",
        summary: "Describe a store: entities, columns, join tables, mapping and integrity.",
        discussion: "The store's files are left byte-identical. Save the printed mapping with --json, edit it, and "
            + "pass it to export or import with --mapping.",
        positionals: [StoreArgument.positional],
        options: [store, modelOptions.mapping, modelOptions.model, modelOptions.modelVersion, json])

    var store: String
    var modelOptions: ModelOptions
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        store = try StoreArgument.read(arguments, Self.store, acceptsPositional: true)
        modelOptions = try ModelOptions(arguments, Self.modelOptions)
        json = arguments.flag(Self.json)
    }

    func validate() throws(UsageError) {
        try modelOptions.validate()
    }

    func run() throws -> Int32 {
        let mapping = try modelOptions.mapping.load()
        let snapshot = try StoreSnapshot(path: store)
        let inspection = try StoreInspection(
            snapshot: snapshot, mapping: mapping, mappingSource: modelOptions.mapping.path ?? "mapping",
            appModel: try modelOptions.model(forStore: store))
        try Console.output(json ? Console.json(inspection) : Self.text(inspection))
        return ExitCode.ok
    }

    static func text(_ inspection: StoreInspection) -> String {
        var lines = [
            "Store: \(inspection.store)", "Store UUID: \(inspection.storeUUID ?? "(none)")",
            "Model: \(inspection.modelSource)", "", "Entities:",
        ]
        for entity in inspection.entities {
            var line = "  \(entity.name) (\(CoreDataNames.entityNumber) \(entity.entityNumber)"
            if let superentity = entity.superentity { line += ", sub-entity of \(superentity)" }
            line +=
                ", table \(entity.table ?? "missing"), \(entity.count) row\(entity.count == 1 ? "" : "s"), "
                + "\(CoreDataNames.maxKeyColumn) \(entity.maxKey))"
            if let computed = entity.versionHash, let stored = entity.storedVersionHash {
                line +=
                    computed == stored
                    ? " version hash ✓"
                    : " version hash ✗ (computed \(computed), stored "
                        + "\(stored))"
            }
            lines.append(line)
            if let model = inspection.model?.entity(named: entity.name) {
                lines += describe(model)
            } else if entity.superentity == nil {
                lines.append("    columns: " + entity.columns.map { "\($0.name) \($0.type)" }.joined(separator: ", "))
            }
        }
        if !inspection.derivedAttributeTriggers.isEmpty {
            lines.append("  derived-attribute triggers: " + inspection.derivedAttributeTriggers.joined(separator: ", "))
        }
        if !inspection.joinTables.isEmpty {
            lines += ["", "Join tables:"]
            for join in inspection.joinTables {
                lines.append(
                    "  \(join.table) (\(join.columns.joined(separator: ", "))): \(join.count) "
                        + "row\(join.count == 1 ? "" : "s")")
            }
        }
        lines += ["", "Tables by kind (what a whole-store export does with them):"]
        for kind in ["entity", "join", "app", "virtual", "rtree-index", "shadow", "internal", "system"] {
            let tables = inspection.tables.filter { $0.kind == kind }
            guard !tables.isEmpty else { continue }
            let rows = tables.compactMap(\.count).reduce(0, +)
            lines.append(
                "  \(kind): \(tables.count) table\(tables.count == 1 ? "" : "s"), \(rows) row\(rows == 1 ? "" : "s")")
            guard ["app", "virtual", "rtree-index"].contains(kind) else { continue }
            for table in tables {
                let detail = [table.module, table.count.map { "\($0) row\($0 == 1 ? "" : "s")" } ?? "rows unreadable"]
                    .compactMap { $0 }.joined(separator: ", ")
                lines.append("    \(table.name) (\(detail)): \(table.export)")
            }
        }
        if inspection.model != nil {
            lines += ["", "Layout (the columns the model gives each property, checked against the store):"]
            lines +=
                inspection.layoutDifferences.isEmpty
                ? ["  every table and column is where the model puts it"]
                : inspection.layoutDifferences.map { "  \($0)" }
        }
        lines += ["", "Mapping (save with --json and edit; pass with --mapping):"]
        for kind in StoreMapping.Kind.allCases {
            guard let mapping = inspection.mapping[kind] else {
                lines.append("  \(kind.rawValue): (no entity)")
                continue
            }
            let fields = kind.fields.map { "\($0) ← \(mapping.property(for: $0) ?? "-")" }
            let relationships = kind.relationships.map { "\($0) ← \(mapping.relationship(for: $0) ?? "-")" }
            let members = (fields + relationships).joined(separator: ", ")
            lines.append("  \(kind.rawValue): \(mapping.entity) { \(members) }")
        }
        let carried = inspection.extraRelationships.sorted { $0.key < $1.key }.flatMap { kind, properties in
            properties.sorted { $0.key < $1.key }.map { property, declaration in
                let shape = declaration.toMany ? (declaration.ordered ? " (ordered to-many)" : " (to-many)") : ""
                return "\(kind).\(property) → \(declaration.destination.rawValue)\(shape)"
            }
        }
        if !carried.isEmpty { lines.append("  relationships carried under extra: " + carried.joined(separator: ", ")) }
        lines += ["", "Findings:"]
        if inspection.findings.isEmpty { lines.append("  none") }
        for finding in inspection.findings {
            lines.append(
                "  \(finding.isWarning ? "warning" : "note"): "
                    + "\(finding.description)\(finding.count > 1 ? " [\(finding.count)]" : "")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An entity's own attributes and relationships, as the model declares them.
    static func describe(_ entity: ObjectModel.Entity) -> [String] {
        var lines: [String] = []
        if entity.isAbstract { lines.append("    abstract") }
        for attribute in entity.attributes {
            var notes: [String] = [attribute.isOptional ? "optional" : "required"]
            if attribute.isTransient { notes.append("transient") }
            if let value = attribute.defaultValue { notes.append("default \(value)") }
            if attribute.allowsExternalStorage { notes.append("external storage") }
            if let transformer = attribute.valueTransformerName { notes.append("transformer \(transformer)") }
            if let derivation = attribute.derivation { notes.append("derived: \(derivation)") }
            lines.append("    \(attribute.name): \(attribute.type) (\(notes.joined(separator: ", ")))")
        }
        for relationship in entity.relationships {
            var text =
                "    \(relationship.name) → \(relationship.destination) "
                + "\(relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one")"
            text += ", inverse \(relationship.inverse ?? "none"), delete rule \(relationship.deleteRule)"
            lines.append(text)
        }
        for constraint in entity.uniquenessConstraints {
            lines.append(
                "    unique: "
                    + "\(constraint.joined(separator: ", "))")
        }
        for index in entity.fetchIndexes { lines.append("    fetch index: \(index.name)") }
        return lines
    }
}
