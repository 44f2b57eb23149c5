import Foundation

/// The rows of each kind an export with an `ExportSelection` reads: the roots the selection names, then, to a fixed
/// point, every row a kept row refers to — except rows of excluded entities, whose references are dropped.
///
/// Each kind's kept keys are visible to SQL as `tasks_selected_<kind>(key)` (1 or NULL), so every query of the reader
/// filters with the same sets.
final class StoreSelection {
    /// Kept primary keys by kind (a set may also hold keys of other entities sharing the table; queries filter by
    /// entity too).
    private(set) var keys: [StoreMapping.Kind: Set<Int64>] = [:]
    /// Kinds never exported: references to them are dropped and reported.
    let excluded: Set<StoreMapping.Kind>
    /// How many rows of each kind the selection names itself (the rest came along as references).
    private(set) var rootCounts: [StoreMapping.Kind: Int] = [:]

    /// A reference between kinds as SQL: the destination keys of the rows of `from` that are kept.
    private struct Edge {
        var from: StoreMapping.Kind
        var to: StoreMapping.Kind
        var sql: String
    }

    /// Works out the kept rows of every mapped kind of `reader`'s store.
    /// - Throws: `TaskInterchangeError.usage` for an entity or project the store does not have, or task filters that
    ///   cannot apply; SQLite errors from reading.
    init(_ selection: ExportSelection, reader: StoreReader) throws {
        let resolved = reader.resolved
        let database = reader.database
        try Self.checkEntityNames(selection, schema: reader.schema)
        var excluded: Set<StoreMapping.Kind> = []
        for (kind, resolvedKind) in resolved.kinds where selection.excludedEntities.contains(resolvedKind.entity.name) {
            excluded.insert(kind)
        }
        self.excluded = excluded
        for kind in resolved.kinds.keys {
            let name = "tasks_selected_\(kind.rawValue)"
            try database.createFunction(name) { [unowned self] key in
                self.keys[kind]?.contains(key) == true ? 1 : nil
            }
        }

        var roots: [StoreMapping.Kind: Set<Int64>] = [:]
        for kind in RecordKind.sections {
            guard let resolvedKind = resolved.kinds[kind], !excluded.contains(kind) else { continue }
            var isRoot = selection.kinds?.contains(kind) ?? (!selection.hasTaskFilter || kind == .task)
            if let entities = selection.entities { isRoot = isRoot && entities.contains(resolvedKind.entity.name) }
            guard isRoot else { continue }
            roots[kind] = try Self.keys(database, "SELECT Z_PK FROM \(Database.quote(resolvedKind.table)) WHERE "
                                         + resolvedKind.entityFilter)
        }
        if selection.hasTaskFilter {
            guard let task = resolved.kinds[.task], roots[.task] != nil else {
                throw TaskInterchangeError(.usage, "--project, --completed, --open and --since filter tasks, "
                                           + "but the selection holds no tasks")
            }
            var conditions: [String] = []
            var arguments: [SQLValue] = []
            if let project = selection.project {
                guard !excluded.contains(.project) else {
                    throw TaskInterchangeError(.usage, "--project keeps a project that --exclude-entities excludes")
                }
                let projects = try Self.projectKeys(project, reader: reader)
                roots[.project, default: []].formUnion(projects)
                guard let column = resolved.taskProjectColumn else {
                    throw TaskInterchangeError(.usage, "--project: the task entity '\(task.entity.name)' has no "
                                               + "project relationship in this store")
                }
                conditions.append("\(Database.quote(column)) IN (\(projects.sorted().map(String.init).joined(separator: ", ")))")
            }
            if let completion = selection.completion {
                guard let column = task.columns["isCompleted"] else {
                    throw TaskInterchangeError(.usage, "--\(completion.rawValue): the task entity '\(task.entity.name)' "
                                               + "has no completion property in this store")
                }
                conditions.append("ifnull(\(Database.quote(column)), 0) \(completion == .completed ? "<>" : "=") 0")
            }
            if let since = selection.since {
                // The properties mapped to createdAt and modifiedAt: what the export itself writes as those dates.
                let columns = [task.columns["createdAt"], task.columns["modifiedAt"]].compactMap { $0 }
                guard !columns.isEmpty else {
                    throw TaskInterchangeError(.usage, "--since: the task entity '\(task.entity.name)' has no creation "
                                               + "or modification date in this store")
                }
                conditions.append("(" + columns.map { "\(Database.quote($0)) >= ?" }.joined(separator: " OR ") + ")")
                arguments += columns.map { _ in .real(since.timeIntervalSinceReferenceDate) }
            }
            roots[.task] = try Self.keys(database, "SELECT Z_PK FROM \(Database.quote(task.table)) WHERE "
                                         + "\(task.entityFilter) AND " + conditions.joined(separator: " AND "), arguments)
        }
        keys = roots
        rootCounts = roots.mapValues(\.count)
        for kind in resolved.kinds.keys where keys[kind] == nil { keys[kind] = [] }
        try close(edges(reader), database: database)
    }

    /// ` AND tasks_selected_<kind>(column) IS NOT NULL`: the condition that keeps only selected rows of `kind`.
    func condition(_ kind: StoreMapping.Kind, _ column: String = "Z_PK") -> String {
        " AND tasks_selected_\(kind.rawValue)(\(Database.quote(column))) IS NOT NULL"
    }

    /// Follows every edge from the kept rows until nothing new is reached.
    private func close(_ edges: [Edge], database: Database) throws {
        var changed = true
        while changed {
            changed = false
            for edge in edges where !excluded.contains(edge.to) && !(keys[edge.from]?.isEmpty ?? true) {
                let reached = try Self.keys(database, edge.sql)
                let before = keys[edge.to]?.count ?? 0
                keys[edge.to, default: []].formUnion(reached)
                if keys[edge.to]!.count != before { changed = true }
            }
            try Cancellation.checkpoint()
        }
    }

    /// The references the archive carries, as SQL over the kept rows: a task's project, category, tags and subtasks
    /// (a subtask's task), and every relationship carried under `extra`.
    private func edges(_ reader: StoreReader) -> [Edge] {
        let resolved = reader.resolved
        var edges: [Edge] = []
        func keyColumn(_ from: StoreMapping.Kind, _ to: StoreMapping.Kind, _ column: String?) {
            guard let column, let owner = resolved.kinds[from] else { return }
            let quoted = Database.quote(column)
            edges.append(Edge(from: from, to: to, sql: "SELECT DISTINCT \(quoted) FROM \(Database.quote(owner.table)) "
                              + "WHERE \(owner.entityFilter)\(condition(from)) AND \(quoted) IS NOT NULL"))
        }
        keyColumn(.task, .project, resolved.taskProjectColumn)
        keyColumn(.task, .category, resolved.taskCategoryColumn)
        keyColumn(.subtask, .task, resolved.subtaskTaskColumn)
        if let join = resolved.tagJoin {
            edges.append(Edge(from: .task, to: .tag, sql: "SELECT DISTINCT \(Database.quote(join.tagColumn)) FROM "
                              + "\(Database.quote(join.table)) WHERE 1\(condition(.task, join.taskColumn))"))
        }
        if let column = resolved.subtaskTaskColumn, let subtask = resolved.kinds[.subtask] {
            edges.append(Edge(from: .task, to: .subtask, sql: "SELECT Z_PK FROM \(Database.quote(subtask.table)) WHERE "
                              + "\(subtask.entityFilter)\(condition(.task, column))"))
        }
        for (kind, list) in reader.relationships.carried {
            for relationship in list {
                let destination = relationship.declaration.destination
                switch relationship.storage {
                case .column(let column):
                    keyColumn(kind, destination, column)
                case .destinationColumn(let table, let filter, let column, _):
                    edges.append(Edge(from: kind, to: destination, sql: "SELECT Z_PK FROM \(Database.quote(table)) "
                                      + "WHERE \(filter)\(condition(kind, column))"))
                case .joinTable(let direction):
                    edges.append(Edge(from: kind, to: destination, sql: "SELECT DISTINCT "
                                      + "\(Database.quote(direction.memberColumn)) FROM \(Database.quote(direction.table)) "
                                      + "WHERE 1\(condition(kind, direction.ownerColumn))"))
                }
            }
        }
        return edges
    }

    private static func keys(_ database: Database, _ sql: String, _ arguments: [SQLValue] = []) throws -> Set<Int64> {
        let statement = try database.prepare(sql)
        try statement.bind(arguments)
        var result: Set<Int64> = []
        while try statement.step() {
            if statement.columnType(at: 0) == 1 { result.insert(statement.int64(at: 0)) }
        }
        return result
    }

    /// The project named by `text`: its exchange id, or the exact name of exactly one project.
    private static func projectKeys(_ text: String, reader: StoreReader) throws -> Set<Int64> {
        guard let project = reader.resolved.kinds[.project] else {
            throw TaskInterchangeError(.usage, "--project: the store has no project entity")
        }
        if let id = UUID(uuidString: text) {
            var log = FindingLog()
            let entries = try StoreIdentity.read(project, from: reader.database, storeUUID: reader.storeUUID, log: &log)
            if let entry = entries.first(where: { $0.id == id }) { return [entry.key] }
        }
        guard let column = project.columns["name"] else {
            throw TaskInterchangeError(.usage, "--project: no project has the id \(text)")
        }
        let statement = try reader.database.prepare("SELECT Z_PK FROM \(Database.quote(project.table)) WHERE "
                                                    + "\(project.entityFilter) AND \(Database.quote(column)) = ?")
        try statement.bind([.text(text)])
        var found: Set<Int64> = []
        while try statement.step() { found.insert(statement.int64(at: 0)) }
        switch found.count {
        case 1: return found
        case 0: throw TaskInterchangeError(.usage, "--project: no project has the id or name '\(text)'")
        default:
            throw TaskInterchangeError(.usage, "--project: \(found.count) projects are named '\(text)' "
                                       + "(p\(found.sorted().map(String.init).joined(separator: ", p"))); give its id")
        }
    }

    /// Every entity named by the selection exists in the store.
    private static func checkEntityNames(_ selection: ExportSelection, schema: StoreSchema) throws(TaskInterchangeError) {
        let known = schema.entities.map(\.name)
        for (option, names) in [("--entities", selection.entities ?? []), ("--exclude-entities", selection.excludedEntities)] {
            for name in names.sorted() where !known.contains(name) {
                let near = Suggestion.closest(to: name, among: known)
                throw TaskInterchangeError(.usage, "\(option): the store has no entity '\(name)'"
                                           + (near.map { " (did you mean '\($0)'?)" } ?? "")
                                           + "; it has: \(known.joined(separator: ", "))")
            }
        }
    }
}
