extension StoreMapping {
    /// Entity names each kind goes by in the apps seen in the wild, after normalizing (see `normalize`).
    static let entitySynonyms: [Kind: [String]] = [
        .task: ["task", "todo", "todoitem", "taskitem", "item", "reminder"],
        .project: ["project", "list", "tasklist", "todolist"],
        .category: ["category", "folder", "group"],
        .tag: ["tag", "label"],
        .subtask: ["subtask", "checklistitem", "step", "subitem", "subtaskitem"],
    ]

    /// Lowercases and strips the `CD` prefix and `Entity`/`MO`/`Model`/`ManagedObject` suffixes apps add.
    static func normalize(_ name: String) -> String {
        var result = name.lowercased().filter { $0 != "_" }
        if name.hasPrefix("CD") || name.hasPrefix("cd"), result.count > 2 { result.removeFirst(2) }
        for suffix in ["managedobject", "entity", "model", "mo"]
        where result.hasSuffix(suffix) && result.count > suffix.count {
            result.removeLast(suffix.count)
            break
        }
        return result
    }

    /// Guesses the mapping from entity and column names; with the store's `model`, property names are spelled exactly
    /// as the model has them (columns keep only the upper case).
    init(detectingFrom schema: StoreSchema, model: ObjectModel? = nil) {
        var chosen: [Kind: StoreSchema.Entity] = [:]
        var taken: Set<String> = []
        for kind in Kind.allCases {
            let synonyms = Self.entitySynonyms[kind] ?? []
            let candidates = schema.entities.filter { $0.table != nil && !taken.contains($0.name) }
            let best =
                candidates
                .compactMap { entity -> (StoreSchema.Entity, Int)? in
                    guard let rank = synonyms.firstIndex(of: Self.normalize(entity.name)) else { return nil }
                    return (entity, rank)
                }
                .min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0.number < $1.0.number) }
            if let entity = best?.0 {
                chosen[kind] = entity
                taken.insert(entity.name)
            }
        }
        var kinds: [Kind: KindMapping?] = [:]
        for (kind, entity) in chosen {
            let properties = Self.ownProperties(of: entity, in: schema)
            let spelled = Self.modelSpelling(of: entity.name, in: model)
            var used: Set<String> = []
            var fields: [String: String?] = [:]
            for field in kind.fields {
                let synonyms = kind.synonyms(of: field)
                let match = synonyms.first { properties.contains($0.lowercased()) && !used.contains($0.lowercased()) }
                if let match { used.insert(match.lowercased()) }
                fields[field] = .some(match.map { spelled[$0.lowercased()] ?? $0 })
            }
            var relationships: [String: String?] = [:]
            for reference in kind.relationships {
                let detected = Self.detectRelationship(
                    reference, of: entity, kind: kind, chosen: chosen,
                    properties: properties.filter { !used.contains($0) }, schema: schema)
                relationships[reference] = .some(detected.map { spelled[$0.lowercased()] ?? $0 })
            }
            kinds[kind] = KindMapping(entity: entity.name, fields: fields, relationships: relationships)
        }
        self.init(kinds: Self.plausible(kinds))
    }

    /// Keeps only the kinds whose entity really looks like one — a name alone is not enough (Apple Notes' `Folder`
    /// has a `name` but is no category): a task has a title and a completion flag, due date or priority; a project,
    /// category or tag is what a task's relationship points at; a subtask has a title and belongs to a task. The
    /// rest travel in the generic section.
    static func plausible(_ kinds: [Kind: KindMapping?]) -> [Kind: KindMapping?] {
        func has(_ kind: Kind, field: String) -> Bool { (kinds[kind] ?? nil)?.fields[field].map { $0 != nil } ?? false }
        func links(_ kind: Kind, _ reference: String) -> Bool {
            (kinds[kind] ?? nil)?.relationships[reference].map { $0 != nil } ?? false
        }
        guard has(.task, field: "title"),
            has(.task, field: "isCompleted") || has(.task, field: "dueDate")
                || has(.task, field: "priority")
        else { return [:] }
        var result: [Kind: KindMapping?] = [.task: kinds[.task] ?? nil]
        for (kind, reference) in [(Kind.project, "project"), (.category, "category"), (.tag, "tags")]
        where links(.task, reference) {
            result[kind] = kinds[kind] ?? nil
        }
        if has(.subtask, field: "title"), links(.subtask, "task") { result[.subtask] = kinds[.subtask] ?? nil }
        return result
    }

    /// Lowercased name → the model's spelling, for the entity's stored properties (inherited ones included).
    static func modelSpelling(of entity: String, in model: ObjectModel?) -> [String: String] {
        guard let model, let found = model.entity(named: entity) else { return [:] }
        var result: [String: String] = [:]
        for member in model.ancestry(of: found).reversed() {
            for name in member.attributes.map(\.name) + member.relationships.map(\.name) {
                result[name.lowercased()] = name
            }
        }
        return result
    }

    /// Lowercased property names from the entity's `Z…` columns (system and `Z_FOK_`/`Z<n>_` columns left out).
    static func ownProperties(of entity: StoreSchema.Entity, in schema: StoreSchema) -> [String] {
        guard let table = entity.table, let columns = schema.columns(of: table) else { return [] }
        return columns.compactMap { column in
            let name = column.name
            guard name.hasPrefix("Z"), !name.hasPrefix("Z_"), name.count > 1,
                !(name.dropFirst().first?.isNumber ?? false)
            else { return nil }
            return String(name.dropFirst()).lowercased()
        }
    }

    static func detectRelationship(
        _ reference: String, of entity: StoreSchema.Entity, kind: Kind,
        chosen: [Kind: StoreSchema.Entity], properties: [String],
        schema: StoreSchema
    ) -> String? {
        switch reference {
        case "project", "category", "task":
            guard let target = chosen[Kind(rawValue: reference)!] else { return nil }
            var names =
                [normalize(target.name), target.name.lowercased(), reference]
                + (entitySynonyms[Kind(rawValue: reference)!] ?? [])
            if reference == "task" { names += ["parent", "owner", "parenttask"] }
            return names.first { properties.contains($0) }
        case "tags":
            guard let tag = chosen[.tag] else { return nil }
            return joinTables(linking: entity, to: tag, in: schema).first?.relationship
        default:
            return nil
        }
    }

    /// Join tables of many-to-many relationships from `source` to `destination`: the column `Z_<dest#><REL>` holds the
    /// destination's keys and is named after the source's relationship; the other `Z_<source#>…` column holds the
    /// source's.
    static func joinTables(
        linking source: StoreSchema.Entity, to destination: StoreSchema.Entity,
        in schema: StoreSchema
    ) -> [(table: String, sourceColumn: String, destinationColumn: String, relationship: String)] {
        var result: [(String, String, String, String)] = []
        for (table, columns) in schema.tables.sorted(by: { $0.key < $1.key }) where schema.kind(of: table) == .join {
            let keyColumns = columns.map(\.name).filter { !$0.hasPrefix("Z_FOK_") }
            guard keyColumns.count == 2 else { continue }
            for destinationColumn in keyColumns {
                let other = keyColumns.first { $0 != destinationColumn }!
                guard let (destinationNumber, relationship) = splitJoinColumn(destinationColumn),
                    let (sourceNumber, _) = splitJoinColumn(other),
                    destination.numbersIncludingSubentities.contains(destinationNumber),
                    source.numbersIncludingSubentities.contains(sourceNumber),
                    source.name != destination.name
                else { continue }
                result.append((table, other, destinationColumn, relationship.lowercased()))
            }
        }
        return result
    }

    /// `Z_4TAGS` → (4, "TAGS").
    static func splitJoinColumn(_ column: String) -> (Int64, String)? {
        guard column.hasPrefix("Z_") else { return nil }
        let rest = column.dropFirst(2)
        let digits = rest.prefix { $0.isNumber }
        guard !digits.isEmpty, let number = Int64(digits), digits.count < rest.count else { return nil }
        return (number, String(rest.dropFirst(digits.count)))
    }
}
