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
            CoreDataNames.entityFilter(entity.numbersIncludingSubentities)
        }
        /// To-one key column → its `Z<n>_` column naming the destination row's entity (when the destination has
        /// sub-entities), as the locator placed them.
        var entityColumns: [String: String] = [:]
        /// Column → the property it holds, for messages (the model's name when the store's model is known).
        var properties: [String: String] = [:]

        /// The property `column` holds, for messages.
        func property(ofColumn column: String) -> String {
            properties[column] ?? CoreDataNames.property(ofColumn: column)
        }
    }

    /// The many-to-many join between tasks and tags.
    struct TagJoin {
        var table: String
        var taskColumn: String
        var tagColumn: String
    }

    /// A property the mapping names, marked with `?`, that the entity does not have: the store was made by another
    /// version of the app's model (one mapping serves them all). An unmarked one is refused.
    struct MissingProperty {
        var kind: StoreMapping.Kind
        /// The interchange field or reference (`dueDate`, `project`).
        var field: String
        var entity: String
        var property: String
        /// What is missing, for messages: "no relationship 'project' (no column ZPROJECT in ZTODOITEM)".
        var detail: String
        var suggestion: String?

        /// "mapped to task.project, but this store's model version has no relationship 'project' (…); read as absent"
        func message(_ whose: String, _ consequence: String) -> String {
            "mapped to \(kind.rawValue).\(field), but \(whose) model version has \(detail); \(consequence)"
        }
    }

    var mapping: StoreMapping
    var kinds: [StoreMapping.Kind: ResolvedKind]
    /// Mapped properties the store's entities lack; read as absent, written nowhere, each reported.
    var missing: [MissingProperty] = []
    var taskProjectColumn: String?
    var taskCategoryColumn: String?
    var tagJoin: TagJoin?
    var subtaskTaskColumn: String?
    var subtaskOrderColumn: String?

    /// Resolves `mapping` against `schema`; `source` names the mapping in error messages (a file path, or "detected").
    init(_ mapping: StoreMapping, schema: StoreSchema, source: String) throws(TaskInterchangeError) {
        self.mapping = mapping
        var kinds: [StoreMapping.Kind: ResolvedKind] = [:]
        var missing: [MissingProperty] = []
        let locator = schema.locator
        func fail(_ path: String, _ message: String) -> TaskInterchangeError {
            TaskInterchangeError(.invalidData, "\(source): \(path): \(message)")
        }
        for kind in StoreMapping.Kind.allCases {
            guard let kindMapping = mapping[kind] else { continue }
            let path = "$.kinds.\(kind.rawValue)"
            guard let entity = schema.entity(named: kindMapping.entity) else {
                let names = schema.entities.map(\.name)
                let suggestion = Suggestion.closest(to: kindMapping.entity, among: names)
                    .map { "; did you mean '\($0)'?" }
                throw fail(
                    "\(path).entity",
                    "no entity '\(kindMapping.entity)' in the store (it has: "
                        + names.joined(separator: ", ") + ")" + (suggestion ?? ""))
            }
            guard let table = entity.table, let tableColumns = schema.columns(of: table) else {
                throw fail(
                    "\(path).entity",
                    "the entity '\(entity.name)' has no table \(entity.expectedTable) in the store")
            }
            let names = Set(tableColumns.map(\.name))
            var columns: [String: String] = [:]
            for field in kind.fields {
                guard let property = kindMapping.property(for: field) else { continue }
                guard let column = locator.column(of: property, in: entity), names.contains(column) else {
                    missing.append(Self.missing(kind, field, entity, property, "property", table, names))
                    continue
                }
                columns[field] = column
            }
            kinds[kind] = ResolvedKind(
                kind: kind, entity: entity, table: table, columns: columns, usedColumns: Set(columns.values),
                properties: Dictionary(
                    columns.values.map { ($0, locator.property(ofColumn: $0, in: table)) },
                    uniquingKeysWith: { first, _ in first }))
        }
        self.kinds = kinds

        if var task = kinds[.task], let taskMapping = mapping[.task] {
            let names = Set(schema.columns(of: task.table)?.map(\.name) ?? [])
            for reference in ["project", "category"] {
                guard let relationship = taskMapping.relationship(for: reference) else { continue }
                guard kinds[StoreMapping.Kind(rawValue: reference)!] != nil else {
                    throw fail(
                        "$.kinds.task.relationships.\(reference)",
                        "maps to '\(relationship)' but no \(reference) entity is mapped")
                }
                guard let toOne = locator.toOne(relationship, in: task.entity), names.contains(toOne.key) else {
                    missing.append(
                        Self.missing(
                            .task, reference, task.entity, relationship, "to-one relationship", task.table, names))
                    continue
                }
                if reference == "project" { taskProjectColumn = toOne.key } else { taskCategoryColumn = toOne.key }
                // The `Z<n>_<NAME>` column names the destination's concrete entity; part of the same relationship.
                task.usedColumns.formUnion([toOne.key, toOne.entity].compactMap { $0 })
                task.entityColumns[toOne.key] = toOne.entity
                task.properties[toOne.key] = locator.property(ofColumn: toOne.key, in: task.table)
            }
            if let relationship = taskMapping.relationship(for: "tags") {
                guard let tag = kinds[.tag] else {
                    throw fail(
                        "$.kinds.task.relationships.tags", "maps to '\(relationship)' but no tag entity is mapped")
                }
                if let direction = locator.mappedJoin(from: task.entity, to: tag.entity, relationship: relationship) {
                    tagJoin = TagJoin(
                        table: direction.table, taskColumn: direction.ownerColumn, tagColumn: direction.memberColumn)
                } else {
                    let detail = "no many-to-many relationship '\(relationship)' to \(tag.entity.name) (no join table)"
                    let joins = locator.joinDirections(linking: task.entity, to: tag.entity)
                    let suggestion = Suggestion.closest(
                        to: relationship.lowercased(), among: joins.map { $0.relationship.lowercased() })
                    missing.append(
                        MissingProperty(
                            kind: .task, field: "tags", entity: task.entity.name,
                            property: relationship, detail: detail, suggestion: suggestion))
                }
            }
            kinds[.task] = task
        }
        if var subtask = kinds[.subtask], let subtaskMapping = mapping[.subtask] {
            if let relationship = subtaskMapping.relationship(for: "task") {
                guard kinds[.task] != nil else {
                    throw fail(
                        "$.kinds.subtask.relationships.task", "maps to '\(relationship)' but no task entity is mapped")
                }
                let names = Set(schema.columns(of: subtask.table)?.map(\.name) ?? [])
                if let toOne = locator.toOne(relationship, in: subtask.entity), names.contains(toOne.key) {
                    subtaskTaskColumn = toOne.key
                    subtask.usedColumns.formUnion([toOne.key, toOne.entity].compactMap { $0 })
                    subtask.entityColumns[toOne.key] = toOne.entity
                    if let order = toOne.order, names.contains(order) {
                        subtaskOrderColumn = order
                        subtask.usedColumns.insert(order)
                    }
                } else {
                    missing.append(
                        Self.missing(
                            .subtask, "task", subtask.entity, relationship, "to-one relationship", subtask.table, names)
                    )
                }
            }
            kinds[.subtask] = subtask
        }
        self.kinds = kinds
        // A name the entity does not have is refused before any work, with the closest one, unless the mapping marks
        // it with `?` as absent from some versions of the app's model (one mapping serves them all): read as absent.
        if let unknown = missing.first(where: { !(mapping[$0.kind]?.mayBeAbsent($0.field) ?? false) }) {
            let section = unknown.kind.fields.contains(unknown.field) ? "fields" : "relationships"
            throw TaskInterchangeError(
                .usage,
                "\(source): $.kinds.\(unknown.kind.rawValue).\(section).\(unknown.field): \(unknown.entity) "
                    + "has \(unknown.detail)"
                    + (unknown.suggestion.map { "; did you mean '\($0)'?" }
                        ?? "; if some versions of the app's model have it, end the name with '?'"))
        }
        self.missing = missing
    }

    /// A mapped property without its column; the suggestion is the closest property name the table has.
    private static func missing(
        _ kind: StoreMapping.Kind, _ field: String, _ entity: StoreSchema.Entity,
        _ property: String, _ what: String, _ table: String, _ columns: Set<String>
    ) -> MissingProperty {
        let column = CoreDataNames.column(of: property)
        let properties = columns.filter(CoreDataNames.isPropertyColumn).map(CoreDataNames.spelledProperty(ofColumn:))
        let suggestion = Suggestion.closest(to: property.uppercased(), among: properties.sorted())
        return MissingProperty(
            kind: kind, field: field, entity: entity.name, property: property,
            detail: "no \(what) '\(property)' (no column \(column) in \(table))",
            suggestion: suggestion.map { $0.lowercased() })
    }
}
