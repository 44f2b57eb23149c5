/// A `StoreMapping` checked against a store: every entity, column and join table it names exists.
struct ResolvedMapping {
    /// One kind, resolved.
    struct ResolvedKind {
        var kind: StoreMapping.Kind
        var entity: StoreSchema.Entity
        var table: String
        /// Interchange field → column name.
        var columns: [String: String]
        /// Columns of the table that feed this kind (fields, relationship keys, order columns).
        var usedColumns: Set<String>

        /// `Z_ENT IN (…)` for the entity and its sub-entities (numbers are integers read from the store).
        var entityFilter: String {
            "Z_ENT IN (\(entity.numbersIncludingSubentities.map(String.init).joined(separator: ", ")))"
        }
    }

    /// The many-to-many join between tasks and tags.
    struct TagJoin {
        var table: String
        var taskColumn: String
        var tagColumn: String
    }

    var mapping: StoreMapping
    var kinds: [StoreMapping.Kind: ResolvedKind]
    var taskProjectColumn: String?
    var taskCategoryColumn: String?
    var tagJoin: TagJoin?
    var subtaskTaskColumn: String?
    var subtaskOrderColumn: String?

    /// Resolves `mapping` against `schema`; `source` names the mapping in error messages (a file path, or "detected").
    init(_ mapping: StoreMapping, schema: StoreSchema, source: String) throws(TaskInterchangeError) {
        self.mapping = mapping
        var kinds: [StoreMapping.Kind: ResolvedKind] = [:]
        func fail(_ path: String, _ message: String) -> TaskInterchangeError {
            TaskInterchangeError(.invalidData, "\(source): \(path): \(message)")
        }
        for kind in StoreMapping.Kind.allCases {
            guard let kindMapping = mapping[kind] else { continue }
            let path = "$.kinds.\(kind.rawValue)"
            guard let entity = schema.entity(named: kindMapping.entity) else {
                throw fail("\(path).entity", "no entity '\(kindMapping.entity)' in the store (it has: \(schema.entities.map(\.name).joined(separator: ", ")))")
            }
            guard let table = entity.table, let tableColumns = schema.columns(of: table) else {
                throw fail("\(path).entity", "the entity '\(entity.name)' has no table Z\(entity.name.uppercased()) in the store")
            }
            let names = Set(tableColumns.map(\.name))
            var columns: [String: String] = [:]
            for field in kind.fields {
                guard let property = kindMapping.property(for: field) else { continue }
                let column = "Z" + property.uppercased()
                guard names.contains(column) else {
                    throw fail("\(path).fields.\(field)", "the entity '\(entity.name)' has no property '\(property)' (no column \(column) in \(table))")
                }
                columns[field] = column
            }
            kinds[kind] = ResolvedKind(kind: kind, entity: entity, table: table, columns: columns, usedColumns: Set(columns.values))
        }
        self.kinds = kinds

        if var task = kinds[.task], let taskMapping = mapping[.task] {
            let names = Set(schema.columns(of: task.table)?.map(\.name) ?? [])
            for reference in ["project", "category"] {
                guard let relationship = taskMapping.relationship(for: reference) else { continue }
                let column = "Z" + relationship.uppercased()
                guard kinds[StoreMapping.Kind(rawValue: reference)!] != nil else {
                    throw fail("$.kinds.task.relationships.\(reference)", "maps to '\(relationship)' but no \(reference) entity is mapped")
                }
                guard names.contains(column) else {
                    throw fail("$.kinds.task.relationships.\(reference)", "the entity '\(task.entity.name)' has no to-one relationship '\(relationship)' (no column \(column) in \(task.table))")
                }
                if reference == "project" { taskProjectColumn = column } else { taskCategoryColumn = column }
                task.usedColumns.insert(column)
                // The `Z<n>_<NAME>` column names the destination's concrete entity; part of the same relationship.
                for name in names where name.hasSuffix("_" + relationship.uppercased()) && name.dropFirst().first?.isNumber == true {
                    task.usedColumns.insert(name)
                }
            }
            if let relationship = taskMapping.relationship(for: "tags") {
                guard let tag = kinds[.tag] else {
                    throw fail("$.kinds.task.relationships.tags", "maps to '\(relationship)' but no tag entity is mapped")
                }
                guard let join = StoreMapping.joinTables(linking: task.entity, to: tag.entity, in: schema)
                    .first(where: { $0.relationship == relationship.lowercased() }) else {
                    throw fail("$.kinds.task.relationships.tags", "no many-to-many join table for '\(task.entity.name).\(relationship)' ↔ '\(tag.entity.name)' in the store")
                }
                tagJoin = TagJoin(table: join.table, taskColumn: join.sourceColumn, tagColumn: join.destinationColumn)
            }
            kinds[.task] = task
        }
        if var subtask = kinds[.subtask], let subtaskMapping = mapping[.subtask] {
            if let relationship = subtaskMapping.relationship(for: "task") {
                guard kinds[.task] != nil else {
                    throw fail("$.kinds.subtask.relationships.task", "maps to '\(relationship)' but no task entity is mapped")
                }
                let names = Set(schema.columns(of: subtask.table)?.map(\.name) ?? [])
                let column = "Z" + relationship.uppercased()
                guard names.contains(column) else {
                    throw fail("$.kinds.subtask.relationships.task", "the entity '\(subtask.entity.name)' has no to-one relationship '\(relationship)' (no column \(column) in \(subtask.table))")
                }
                subtaskTaskColumn = column
                subtask.usedColumns.insert(column)
                let order = "Z_FOK_" + relationship.uppercased()
                if names.contains(order) {
                    subtaskOrderColumn = order
                    subtask.usedColumns.insert(order)
                }
            }
            kinds[.subtask] = subtask
        }
        self.kinds = kinds
    }
}
