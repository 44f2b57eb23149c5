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
            let properties = schema.locator.propertyNames(of: entity)
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
            return schema.locator.joinDirections(linking: entity, to: tag).first?.relationship.lowercased()
        default:
            return nil
        }
    }
}
