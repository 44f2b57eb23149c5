import Foundation
import TaskInterchange

/// `tasks inspect`: audits a store without changing a byte of it.
enum InspectCommand {
    static let description = CommandDescription(
        name: "inspect",
        abstract: "Describe a store: entities, columns, join tables, the mapping export would use, and integrity findings.",
        discussion: "The store's files are left byte-identical. Save the printed mapping with --json, edit it, and pass it to export or import with --mapping.",
        options: [
            .init(name: "--store", valueName: "path", help: "The Core Data SQLite store to inspect.", isRequired: true),
            .init(name: "--mapping", valueName: "file", help: "Use this mapping instead of detecting one."),
            .init(name: "--json", help: "Print a JSON object for scripts instead of text."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let store = try parsed.required("--store", for: description)
        let mapping = try parsed.value("--mapping").map { path throws(TaskInterchangeError) in try StoreMapping(contentsOf: path) }
        let snapshot = try StoreSnapshot(path: store)
        let inspection = try StoreInspection(snapshot: snapshot, mapping: mapping, mappingSource: parsed.value("--mapping") ?? "mapping")
        Console.output(parsed.flag("--json") ? Console.json(inspection) : text(inspection))
        return ExitCode.ok
    }

    static func text(_ inspection: StoreInspection) -> String {
        var lines = ["Store: \(inspection.store)", "Store UUID: \(inspection.storeUUID ?? "(none)")",
                     "Model: \(inspection.modelSource)", "", "Entities:"]
        for entity in inspection.entities {
            var line = "  \(entity.name) (Z_ENT \(entity.entityNumber)"
            if let superentity = entity.superentity { line += ", sub-entity of \(superentity)" }
            line += ", table \(entity.table ?? "missing"), \(entity.count) row\(entity.count == 1 ? "" : "s"), Z_MAX \(entity.maxKey))"
            if let computed = entity.versionHash, let stored = entity.storedVersionHash {
                line += computed == stored ? " version hash ✓" : " version hash ✗ (computed \(computed), stored \(stored))"
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
                lines.append("  \(join.table) (\(join.columns.joined(separator: ", "))): \(join.count) row\(join.count == 1 ? "" : "s")")
            }
        }
        lines += ["", "Mapping (save with --json and edit; pass with --mapping):"]
        for kind in StoreMapping.Kind.allCases {
            guard let mapping = inspection.mapping[kind] else {
                lines.append("  \(kind.rawValue): (no entity)")
                continue
            }
            let fields = kind.fields.map { "\($0) ← \(mapping.property(for: $0) ?? "-")" }
            let relationships = kind.relationships.map { "\($0) ← \(mapping.relationship(for: $0) ?? "-")" }
            lines.append("  \(kind.rawValue): \(mapping.entity) { \((fields + relationships).joined(separator: ", ")) }")
        }
        let carried = inspection.extraRelationships.sorted { $0.key < $1.key }.flatMap { kind, properties in
            properties.sorted { $0.key < $1.key }.map { property, declaration in
                "\(kind).\(property) → \(declaration.destination.rawValue)\(declaration.toMany ? (declaration.ordered ? " (ordered to-many)" : " (to-many)") : "")"
            }
        }
        if !carried.isEmpty { lines.append("  relationships carried under extra: " + carried.joined(separator: ", ")) }
        lines += ["", "Findings:"]
        if inspection.findings.isEmpty { lines.append("  none") }
        for finding in inspection.findings {
            lines.append("  \(finding.isWarning ? "warning" : "note"): \(finding.description)\(finding.count > 1 ? " [\(finding.count)]" : "")")
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
            var text = "    \(relationship.name) → \(relationship.destination) \(relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one")"
            text += ", inverse \(relationship.inverse ?? "none"), delete rule \(relationship.deleteRule)"
            lines.append(text)
        }
        for constraint in entity.uniquenessConstraints { lines.append("    unique: \(constraint.joined(separator: ", "))") }
        for index in entity.fetchIndexes { lines.append("    fetch index: \(index.name)") }
        return lines
    }
}
