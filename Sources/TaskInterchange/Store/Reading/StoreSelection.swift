import Foundation

/// The rows an export with an `ExportSelection` reads: the roots the selection names, then, to a fixed point, every row
/// a kept row refers to — typed kinds and generic entities alike, row by row — except rows of excluded entities,
/// whose references are dropped.
///
/// Naming an entity (in `--entities` or `--exclude-entities`) names its sub-entities too, as a Core Data fetch of that
/// entity would. Each set of kept keys is visible to SQL as a function (1 or NULL), so every query of the reader
/// filters with the same sets.
final class StoreSelection {
    /// A set of kept rows: a mapped kind's (its entity and sub-entities) or one generic entity's.
    enum Node: Hashable {
        case kind(StoreMapping.Kind)
        case entity(String)
    }

    /// Kept primary keys by node.
    private(set) var keys: [Node: Set<Int64>] = [:]
    /// Kinds never exported: references to them are dropped and reported.
    let excluded: Set<StoreMapping.Kind>
    /// How many rows of each node the selection names itself (the rest came along as references).
    private(set) var rootCounts: [Node: Int] = [:]
    /// Entity numbers never exported.
    private let excludedNumbers: Set<Int64>
    /// The node each exported entity number's rows belong to.
    private var nodeOfNumber: [Int64: Node] = [:]
    /// The SQL function name of each node's set.
    private var functions: [Node: String] = [:]

    /// A reference as SQL: the keys, in `table`, of the rows the kept rows of `from` refer to.
    private struct Edge {
        var from: Node
        var table: String
        var sql: String
    }

    /// Works out the kept rows of every mapped kind and generic entity of `reader`'s store.
    /// - Throws: `TaskInterchangeError.usage` for an entity or project the store does not have, or task filters that
    ///   cannot apply; SQLite errors from reading.
    init(_ selection: ExportSelection, reader: StoreReader) throws {
        let resolved = reader.resolved
        let database = reader.database
        try Self.checkEntityNames(selection, schema: reader.schema)
        let named = selection.entities.map { Self.numbers(named: $0, in: reader.schema) }
        excludedNumbers = Self.numbers(named: selection.excludedEntities, in: reader.schema)
        var excluded: Set<StoreMapping.Kind> = []
        for (kind, resolvedKind) in resolved.kinds where excludedNumbers.contains(resolvedKind.entity.number) {
            excluded.insert(kind)
        }
        self.excluded = excluded
        for (kind, resolvedKind) in resolved.kinds.sorted(by: { $0.key < $1.key }) where !excluded.contains(kind) {
            for number in resolvedKind.entity.numbersIncludingSubentities where !excludedNumbers.contains(number) {
                nodeOfNumber[number] = .kind(kind)
            }
        }
        for name in reader.generic.names {
            guard let entity = reader.generic.entities[name], !excludedNumbers.contains(entity.number) else { continue }
            nodeOfNumber[entity.number] = .entity(name)
        }
        var nodes = resolved.kinds.keys.sorted().map(Node.kind)
        nodes += reader.generic.names.map(Node.entity)
        for (index, node) in nodes.enumerated() {
            let name = "tasks_kept_\(index)"
            functions[node] = name
            keys[node] = []
            try database.createFunction(name) { [unowned self] key in
                self.keys[node]?.contains(key) == true ? 1 : nil
            }
        }

        var roots: [Node: Set<Int64>] = [:]
        // Subtasks too: `--entities Subtask` names their entity, and each brings its task along (with its siblings).
        for kind in RecordKind.allCases {
            guard let resolvedKind = resolved.kinds[kind], !excluded.contains(kind) else { continue }
            var isRoot = selection.kinds?.contains(kind) ?? (!selection.hasTaskFilter || kind == .task)
            if let named { isRoot = isRoot && named.contains(resolvedKind.entity.number) }
            guard isRoot else { continue }
            roots[.kind(kind)] = try Self.keys(
                database,
                CoreDataNames.selectKeys(from: Database.quote(resolvedKind.table)) + " WHERE "
                    + resolvedKind.entityFilter + keptFilter)
        }
        for name in reader.generic.names {
            guard let entity = reader.generic.entities[name], nodeOfNumber[entity.number] != nil,
                named?.contains(entity.number) ?? (selection.namedKinds == nil && !selection.hasTaskFilter)
            else { continue }
            roots[.entity(name)] = try Self.keys(
                database,
                CoreDataNames.selectKeys(from: Database.quote(entity.table), ofEntity: "\(entity.number)"))
        }
        if selection.hasTaskFilter {
            guard let task = resolved.kinds[.task], roots[.kind(.task)] != nil else {
                throw TaskInterchangeError(
                    .usage,
                    "\(setting: .project), \(setting: .completion) and \(setting: .since) filter tasks, "
                        + "but the selection holds no tasks")
            }
            var conditions: [String] = []
            var arguments: [SQLValue] = []
            if let project = selection.project {
                guard !excluded.contains(.project) else {
                    throw TaskInterchangeError(
                        .usage, "\(setting: .project) keeps a project that \(setting: .excludedEntities) excludes")
                }
                let projects = try Self.projectKeys(project, reader: reader)
                roots[.kind(.project), default: []].formUnion(projects)
                guard let column = resolved.taskProjectColumn else {
                    throw TaskInterchangeError(
                        .usage,
                        "\(setting: .project): the task entity '\(task.entity.name)' has no "
                            + "project relationship in this store")
                }
                conditions.append(
                    "\(Database.quote(column)) IN (\(projects.sorted().map(String.init).joined(separator: ", ")))")
            }
            if let completion = selection.completion {
                guard let column = task.columns["isCompleted"] else {
                    throw TaskInterchangeError(
                        .usage,
                        "\(setting: .completion, completion.rawValue): the task entity '\(task.entity.name)' "
                            + "has no completion property in this store")
                }
                conditions.append("ifnull(\(Database.quote(column)), 0) \(completion == .completed ? "<>" : "=") 0")
            }
            if let since = selection.since {
                // The properties mapped to createdAt and modifiedAt: what the export itself writes as those dates.
                let columns = [task.columns["createdAt"], task.columns["modifiedAt"]].compactMap { $0 }
                guard !columns.isEmpty else {
                    throw TaskInterchangeError(
                        .usage,
                        "\(setting: .since): the task entity '\(task.entity.name)' has no creation "
                            + "or modification date in this store")
                }
                conditions.append("(" + columns.map { "\(Database.quote($0)) >= ?" }.joined(separator: " OR ") + ")")
                arguments += columns.map { _ in .real(since.timeIntervalSinceReferenceDate) }
            }
            roots[.kind(.task)] = try Self.keys(
                database,
                CoreDataNames.selectKeys(from: Database.quote(task.table)) + " WHERE "
                    + "\(task.entityFilter)\(keptFilter) AND "
                    + conditions.joined(separator: " AND "), arguments)
        }
        keys.merge(roots) { _, root in root }
        rootCounts = roots.mapValues(\.count)
        try close(edges(reader), database: database)
    }

    /// ` AND <function>(column) IS NOT NULL`: the condition that keeps only selected rows of `kind`.
    func condition(_ kind: StoreMapping.Kind, _ column: String = CoreDataNames.primaryKey) -> String {
        condition(.kind(kind), column)
    }

    /// ` AND <function>(column) IS NOT NULL`: the condition that keeps only selected rows of `node`.
    func condition(_ node: Node, _ column: String = CoreDataNames.primaryKey) -> String {
        guard let function = functions[node] else { return " AND 0" }
        return " AND \(function)(\(Database.quote(column))) IS NOT NULL"
    }

    /// Whether the row `key` of the generic entity `name` is exported.
    func isKept(entity name: String, _ key: Int64) -> Bool {
        keys[.entity(name)]?.contains(key) ?? false
    }

    /// Whether rows of this entity number are never exported.
    func isExcluded(number: Int64) -> Bool {
        excludedNumbers.contains(number)
    }

    /// ` AND Z_ENT NOT IN (…)` for the excluded entities stored in a table (empty when none is).
    private var keptFilter: String {
        excludedNumbers.isEmpty
            ? ""
            : " AND \(CoreDataNames.entityNumber) NOT IN "
                + "(\(excludedNumbers.sorted().map(String.init).joined(separator: ", ")))"
    }

    /// Follows every edge from the kept rows until nothing new is reached; each reached row joins the node of its
    /// concrete entity (a row of an excluded entity joins none).
    private func close(_ edges: [Edge], database: Database) throws {
        var changed = true
        while changed {
            changed = false
            for edge in edges where !(keys[edge.from]?.isEmpty ?? true) {
                let statement = try database.prepare(
                    "SELECT \(CoreDataNames.keyAndEntityList) FROM \(Database.quote(edge.table)) "
                        + "WHERE \(CoreDataNames.primaryKey) IN (\(edge.sql))")
                while try statement.step() {
                    guard let node = nodeOfNumber[statement.int64(at: 1)] else { continue }
                    if keys[node, default: []].insert(statement.int64(at: 0)).inserted { changed = true }
                }
            }
            try Cancellation.checkpoint()
        }
    }

    /// The references the archive carries, as SQL over the kept rows: a task's project, category, tags and subtasks
    /// (a subtask's task), every relationship carried under `extra`, and every relationship of a generic entity.
    private func edges(_ reader: StoreReader) -> [Edge] {
        let resolved = reader.resolved
        var edges: [Edge] = []
        func table(_ kind: StoreMapping.Kind) -> String? { resolved.kinds[kind]?.table }
        func keyColumn(_ from: StoreMapping.Kind, _ to: StoreMapping.Kind, _ column: String?) {
            guard let column, let owner = resolved.kinds[from], let destination = table(to) else { return }
            let quoted = Database.quote(column)
            edges.append(
                Edge(
                    from: .kind(from), table: destination,
                    sql: "SELECT \(quoted) FROM "
                        + "\(Database.quote(owner.table)) WHERE \(owner.entityFilter)\(condition(from))"))
        }
        keyColumn(.task, .project, resolved.taskProjectColumn)
        keyColumn(.task, .category, resolved.taskCategoryColumn)
        keyColumn(.subtask, .task, resolved.subtaskTaskColumn)
        if let join = resolved.tagJoin, let tags = table(.tag) {
            edges.append(
                Edge(
                    from: .kind(.task), table: tags,
                    sql: "SELECT \(Database.quote(join.tagColumn)) FROM "
                        + "\(Database.quote(join.table)) WHERE 1\(condition(.task, join.taskColumn))"))
        }
        if let column = resolved.subtaskTaskColumn, let subtask = resolved.kinds[.subtask] {
            edges.append(
                Edge(
                    from: .kind(.task), table: subtask.table,
                    sql: CoreDataNames.selectKeys(from: Database.quote(subtask.table))
                        + " WHERE \(subtask.entityFilter)\(condition(.task, column))"))
        }
        for (kind, list) in reader.relationships.carried {
            for relationship in list {
                let destination = relationship.declaration.destination
                guard let destinationTable = table(destination) else { continue }
                switch relationship.storage {
                case .column(let column):
                    keyColumn(kind, destination, column)
                case .destinationColumn(let table, let filter, let column, _):
                    edges.append(
                        Edge(
                            from: .kind(kind), table: table,
                            sql: CoreDataNames.selectKeys(from: Database.quote(table))
                                + " WHERE \(filter)\(condition(kind, column))"))
                case .joinTable(let direction):
                    edges.append(
                        Edge(
                            from: .kind(kind), table: destinationTable,
                            sql: "SELECT "
                                + "\(Database.quote(direction.memberColumn)) FROM \(Database.quote(direction.table)) "
                                + "WHERE 1\(condition(kind, direction.ownerColumn))"))
                }
            }
        }
        for name in reader.generic.names {
            guard let entity = reader.generic.entities[name] else { continue }
            let node = Node.entity(name)
            for relationship in entity.relationships {
                let destination = Database.quote(relationship.destinationTable)
                let sql: String
                switch relationship.storage {
                case .column(let key, _, _):
                    sql =
                        "SELECT \(Database.quote(key)) FROM \(Database.quote(entity.table)) "
                        + "WHERE \(CoreDataNames.entityNumber) = \(entity.number)\(condition(node))"
                case .destinationColumn(let key, _, _):
                    sql = CoreDataNames.selectKeys(from: destination) + " WHERE 1\(condition(node, key))"
                case .joinTable(let direction):
                    sql =
                        "SELECT \(Database.quote(direction.memberColumn)) FROM \(Database.quote(direction.table)) "
                        + "WHERE 1\(condition(node, direction.ownerColumn))"
                }
                edges.append(Edge(from: node, table: relationship.destinationTable, sql: sql))
            }
        }
        return edges
    }

    /// The numbers of the named entities and all their sub-entities.
    private static func numbers(named names: Set<String>, in schema: StoreSchema) -> Set<Int64> {
        Set(names.compactMap { schema.entity(named: $0) }.flatMap(\.numbersIncludingSubentities))
    }

    private static func keys(_ database: Database, _ sql: String, _ arguments: [SQLValue] = []) throws -> Set<Int64> {
        let statement = try database.prepare(sql)
        try statement.bind(arguments)
        var result: Set<Int64> = []
        while try statement.step() {
            // A key stored as text or a number of another class is the key the reader reads it as.
            if statement.columnType(at: 0) != .null { result.insert(statement.int64(at: 0)) }
        }
        return result
    }

    /// The project named by `text`: its exchange id, or the exact name of exactly one project.
    private static func projectKeys(_ text: String, reader: StoreReader) throws -> Set<Int64> {
        guard let project = reader.resolved.kinds[.project] else {
            throw TaskInterchangeError(.usage, "\(setting: .project): the store has no project entity")
        }
        if let id = UUID(uuidString: text) {
            var log = FindingLog()
            let entries = try StoreIdentity.read(
                project, from: reader.database, storeUUID: reader.storeUUID, log: &log, store: reader.snapshot.path)
            if let entry = entries.first(where: { $0.id == id }) { return [entry.key] }
        }
        guard let column = project.columns["name"] else {
            throw TaskInterchangeError(.usage, "\(setting: .project): no project has the id \(text)")
        }
        let statement = try reader.database.prepare(
            CoreDataNames.selectKeys(from: Database.quote(project.table)) + " WHERE "
                + "\(project.entityFilter) AND \(Database.quote(column)) = ?")
        try statement.bind([.text(text)])
        var found: Set<Int64> = []
        while try statement.step() { found.insert(statement.int64(at: 0)) }
        switch found.count {
        case 1: return found
        case 0: throw TaskInterchangeError(.usage, "\(setting: .project): no project has the id or name '\(text)'")
        default:
            throw TaskInterchangeError(
                .usage,
                "\(setting: .project): \(found.count) projects are named '\(text)' "
                    + "(p\(found.sorted().map(String.init).joined(separator: ", p"))); give its id")
        }
    }

    /// Every entity named by the selection exists in the store.
    private static func checkEntityNames(_ selection: ExportSelection, schema: StoreSchema) throws(TaskInterchangeError)
    {
        let known = schema.entities.map(\.name)
        for (option, names) in [
            (TaskInterchangeError.Setting.exportEntities, selection.entities ?? []),
            (.excludedEntities, selection.excludedEntities),
        ] {
            for name in names.sorted() where !known.contains(name) {
                let near = Suggestion.closest(to: name, among: known)
                throw TaskInterchangeError(
                    .usage,
                    "\(setting: option): the store has no entity '\(name)'"
                        + (near.map { " (did you mean '\($0)'?)" } ?? "")
                        + "; it has: \(known.joined(separator: ", "))")
            }
        }
    }
}
