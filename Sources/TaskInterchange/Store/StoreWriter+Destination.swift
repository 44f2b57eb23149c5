import Foundation

/// The `ImportDestination` operations, as SQL on the Core Data layout.
extension StoreWriter {
    public func existingKey(of kind: StoreMapping.Kind, id: UUID) -> Int64? {
        existing[kind]?[id]
    }

    public func count(of kind: StoreMapping.Kind) throws -> Int {
        guard let resolvedKind = resolved.kinds[kind] else { return 0 }
        return Int(try database.scalar("SELECT count(*) FROM \(Database.quote(resolvedKind.table)) WHERE \(resolvedKind.entityFilter)")?.int64 ?? 0)
    }

    public func removeAll() throws {
        if let join = resolved.tagJoin { try database.execute("DELETE FROM \(Database.quote(join.table))") }
        for resolvedKind in resolved.kinds.values.sorted(by: { $0.kind < $1.kind }) {
            try database.execute("DELETE FROM \(Database.quote(resolvedKind.table)) WHERE \(resolvedKind.entityFilter)")
        }
        for kind in existing.keys { existing[kind] = [:] }
    }

    public func insert(_ project: ProjectRecord) throws -> Int64 {
        try insertRow(.project, id: project.id, ["name": .text(project.name), "createdAt": date(project.createdAt)])
    }

    public func update(_ project: ProjectRecord, at key: Int64) throws {
        try updateRow(.project, key: key, ["name": .text(project.name), "createdAt": date(project.createdAt)])
    }

    public func insert(_ category: CategoryRecord) throws -> Int64 {
        try insertRow(.category, id: category.id, ["name": .text(category.name), "color": .text(category.color)])
    }

    public func update(_ category: CategoryRecord, at key: Int64) throws {
        try updateRow(.category, key: key, ["name": .text(category.name), "color": .text(category.color)])
    }

    public func insert(_ tag: TagRecord) throws -> Int64 {
        try insertRow(.tag, id: tag.id, ["name": .text(tag.name)])
    }

    public func update(_ tag: TagRecord, at key: Int64) throws {
        try updateRow(.tag, key: key, ["name": .text(tag.name)])
    }

    public func insert(_ task: TaskRecord, links: TaskLinks<Int64>) throws -> Int64 {
        let key = try insertRow(.task, id: task.id, taskValues(task), references: taskReferences(links))
        try link(task: key, tags: links.tags)
        return key
    }

    public func update(_ task: TaskRecord, links: TaskLinks<Int64>, at key: Int64) throws {
        try updateRow(.task, key: key, taskValues(task), references: taskReferences(links))
        if let join = resolved.tagJoin {
            try cached("DELETE FROM \(Database.quote(join.table)) WHERE \(Database.quote(join.taskColumn)) = ?").execute([.integer(key)])
        }
        try link(task: key, tags: links.tags)
    }

    public func insert(_ subtask: SubtaskRecord, of task: Int64, position: Int) throws -> Int64 {
        try insertRow(.subtask, id: subtask.id, ["title": .text(subtask.title), "isCompleted": .integer(subtask.isCompleted ? 1 : 0)],
                      references: subtaskReferences(task: task, position: position))
    }

    public func update(_ subtask: SubtaskRecord, of task: Int64, position: Int, at key: Int64) throws {
        try updateRow(.subtask, key: key, ["title": .text(subtask.title), "isCompleted": .integer(subtask.isCompleted ? 1 : 0)],
                      references: subtaskReferences(task: task, position: position))
    }

    public func removeSubtasks(of task: Int64, keeping: Set<Int64>) throws -> Int {
        guard let kind = resolved.kinds[.subtask], let column = resolved.subtaskTaskColumn else { return 0 }
        let select = try cached("SELECT Z_PK FROM \(Database.quote(kind.table)) WHERE \(Database.quote(column)) = ? AND \(kind.entityFilter)")
        select.reset()
        try select.bind([.integer(task)])
        var doomed: [Int64] = []
        while try select.step() {
            let key = select.int64(at: 0)
            if !keeping.contains(key) { doomed.append(key) }
        }
        select.reset()
        let delete = try cached("DELETE FROM \(Database.quote(kind.table)) WHERE Z_PK = ?")
        for key in doomed { try delete.execute([.integer(key)]) }
        existing[StoreMapping.Kind.subtask] = existing[StoreMapping.Kind.subtask]?.filter { !doomed.contains($0.value) }
        return doomed.count
    }

    // MARK: - Rows

    private func date(_ date: Date?) -> SQLValue {
        date.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
    }

    private func taskValues(_ task: TaskRecord) -> [String: SQLValue] {
        ["title": .text(task.title), "notes": task.notes.map(SQLValue.text) ?? .null, "isCompleted": .integer(task.isCompleted ? 1 : 0),
         "createdAt": date(task.createdAt), "dueDate": date(task.dueDate), "priority": .integer(Int64(task.priority))]
    }

    /// Foreign-key columns of a task, plus the `Z<n>_<NAME>` entity column when the store has one.
    private func taskReferences(_ links: TaskLinks<Int64>) -> [(String, SQLValue)] {
        var result: [(String, SQLValue)] = []
        for (column, key, kind) in [(resolved.taskProjectColumn, links.project, StoreMapping.Kind.project),
                                    (resolved.taskCategoryColumn, links.category, .category)] {
            guard let column else { continue }
            result.append((column, key.map(SQLValue.integer) ?? .null))
            if let destination = resolved.kinds[kind], let entityColumn = entityColumn(for: column, in: .task) {
                result.append((entityColumn, key == nil ? .null : .integer(destination.entity.number)))
            }
        }
        return result
    }

    private func subtaskReferences(task: Int64, position: Int) -> [(String, SQLValue)] {
        var result: [(String, SQLValue)] = []
        if let column = resolved.subtaskTaskColumn {
            result.append((column, .integer(task)))
            if let taskKind = resolved.kinds[.task], let entityColumn = entityColumn(for: column, in: .subtask) {
                result.append((entityColumn, .integer(taskKind.entity.number)))
            }
        }
        // Core Data spaces ordered positions by 1024, starting at 2048 (as in the Apple-written Bookmarks fixture).
        if let order = resolved.subtaskOrderColumn { result.append((order, .integer(Int64(position + 2) * 1024))) }
        return result
    }

    /// `Z<n>_<NAME>`: present when the relationship's destination entity has sub-entities.
    private func entityColumn(for column: String, in kind: StoreMapping.Kind) -> String? {
        guard let table = resolved.kinds[kind]?.table else { return nil }
        let suffix = "_" + column.dropFirst()
        return schema.columns(of: table)?.first { $0.name.hasSuffix(suffix) && $0.name.dropFirst().first?.isNumber == true }?.name
    }

    private func idValue(_ id: UUID, column: String, table: String) -> SQLValue {
        let declared = schema.columns(of: table)?.first { $0.name == column }?.declaredType ?? "BLOB"
        return declared.contains("CHAR") || declared.contains("TEXT") || declared.contains("CLOB") ? .text(id.uuidString) : .blob(id.bytes)
    }

    private func insertRow(_ kind: StoreMapping.Kind, id: UUID, _ fields: [String: SQLValue],
                           references: [(String, SQLValue)] = []) throws -> Int64 {
        guard let resolvedKind = resolved.kinds[kind] else {
            throw TaskInterchangeError(.invalidData, "\(path): the target store has no \(kind.rawValue) entity to import \(kind.rawValue) \(id.uuidString) into")
        }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        let key = try allocateKey(resolvedKind)
        var values: [SQLValue] = [.integer(key), .integer(resolvedKind.entity.number), .integer(1)]
        if let idColumn = resolvedKind.columns["id"] {
            columns.append(idColumn)
            values.append(idValue(id, column: idColumn, table: resolvedKind.table))
        }
        for field in kind.fields where field != "id" {
            guard let column = resolvedKind.columns[field], let value = fields[field] else { continue }
            columns.append(column)
            values.append(value)
        }
        for (column, value) in references {
            columns.append(column)
            values.append(value)
        }
        let sql = "INSERT INTO \(Database.quote(resolvedKind.table)) (\(columns.map(Database.quote).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        try cached(sql).execute(values)
        existing[kind, default: [:]][id] = key
        return key
    }

    private func updateRow(_ kind: StoreMapping.Kind, key: Int64, _ fields: [String: SQLValue],
                           references: [(String, SQLValue)] = []) throws {
        guard let resolvedKind = resolved.kinds[kind] else { return }
        var assignments: [String] = []
        var values: [SQLValue] = []
        for field in kind.fields where field != "id" {
            guard let column = resolvedKind.columns[field], let value = fields[field] else { continue }
            assignments.append("\(Database.quote(column)) = ?")
            values.append(value)
        }
        for (column, value) in references {
            assignments.append("\(Database.quote(column)) = ?")
            values.append(value)
        }
        assignments.append("Z_OPT = coalesce(Z_OPT, 0) + 1")
        values.append(.integer(key))
        try cached("UPDATE \(Database.quote(resolvedKind.table)) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?").execute(values)
    }

    private func link(task: Int64, tags: [Int64]) throws {
        guard let join = resolved.tagJoin, !tags.isEmpty else { return }
        let insert = try cached("INSERT OR IGNORE INTO \(Database.quote(join.table)) (\(Database.quote(join.taskColumn)), \(Database.quote(join.tagColumn))) VALUES (?, ?)")
        for tag in tags { try insert.execute([.integer(task), .integer(tag)]) }
    }

    private func cached(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    // MARK: - Keys

    /// The next key of the entity's table: above both the root's `Z_MAX` and the largest key present (stores edited by
    /// other tools may have `Z_MAX` below it).
    private func allocateKey(_ kind: ResolvedMapping.ResolvedKind) throws -> Int64 {
        if let next = nextKey[kind.table] {
            nextKey[kind.table] = next + 1
            return next
        }
        let root = rootEntity(of: kind.entity)
        let recorded = try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(root.number)])?.int64 ?? 0
        let present = try database.scalar("SELECT max(Z_PK) FROM \(Database.quote(kind.table))")?.int64 ?? 0
        if present > recorded {
            warnings.append("\(root.name): Z_MAX (\(recorded)) was below the largest key in \(kind.table) (\(present)); new keys start above \(present) and Z_MAX is corrected")
        }
        let next = max(recorded, present) + 1
        nextKey[kind.table] = next + 1
        return next
    }

    func rootEntity(of entity: StoreSchema.Entity) -> StoreSchema.Entity {
        var current = entity
        var steps = 0
        while current.superNumber != 0, let parent = schema.entity(number: current.superNumber), steps < schema.entities.count {
            current = parent
            steps += 1
        }
        return current
    }

    /// Writes each used table's last key back to its root entity's `Z_MAX`, inside the import's transaction.
    func writeMaxKeys() throws {
        let update = try database.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND coalesce(Z_MAX, 0) < ?")
        for (table, next) in nextKey {
            guard let entity = schema.entities.first(where: { $0.table == table && $0.superNumber == 0 }) ?? schema.entities.first(where: { $0.table == table }) else { continue }
            let root = rootEntity(of: entity)
            try update.execute([.integer(next - 1), .integer(root.number), .integer(next - 1)])
        }
        nextKey = [:]
    }
}
