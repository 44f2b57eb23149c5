import Foundation

/// The `ImportDestination` operations, as SQL on the Core Data layout.
extension StoreWriter {
    func existingKey(of kind: StoreMapping.Kind, id: UUID) -> Int64? {
        existing[kind]?[id]
    }

    func count(of kind: StoreMapping.Kind) throws -> Int {
        guard let resolvedKind = resolved.kinds[kind] else { return 0 }
        return Int(try database.scalar("SELECT count(*) FROM \(Database.quote(resolvedKind.table)) WHERE \(resolvedKind.entityFilter)")?.int64 ?? 0)
    }

    func removeAll() throws {
        try noteRemovingAll()
        if let join = resolved.tagJoin { try database.execute("DELETE FROM \(Database.quote(join.table))") }
        try removeJoinRows()
        for resolvedKind in resolved.kinds.values.sorted(by: { $0.kind < $1.kind }) {
            try database.execute("DELETE FROM \(Database.quote(resolvedKind.table)) WHERE \(resolvedKind.entityFilter)")
        }
        for kind in existing.keys { existing[kind] = [:] }
    }

    func insert(_ project: ProjectRecord) throws -> Int64 {
        let rows = try statements(.project)
        let key = try allocateKey(.project)
        let (modifiedAt, extra) = modification(project.modifiedAt, project.extra, of: .project)
        try rows.insertRow(key: key, id: project.id) { statement, slots, _ in
            statement.bind(project.name, at: slots[0])
            statement.bind(project.createdAt, at: slots[1])
            bindModification(modifiedAt, .project, statement, slots[2])
        }
        remember(.project, project.id, key)
        noteInserted(.project, key)
        try writeExtras(extra, of: .project, key: key)
        return key
    }

    func update(_ project: ProjectRecord, at key: Int64) throws {
        let (modifiedAt, extra) = modification(project.modifiedAt, project.extra, of: .project)
        try statements(.project).updateRow(key: key) { statement, slots, _ in
            statement.bind(project.name, at: slots[0])
            statement.bind(project.createdAt, at: slots[1])
            bindModification(modifiedAt, .project, statement, slots[2])
        }
        try writeExtras(extra, of: .project, key: key)
        noteChanged(.project, key)
    }

    func insert(_ category: CategoryRecord) throws -> Int64 {
        let rows = try statements(.category)
        let key = try allocateKey(.category)
        try rows.insertRow(key: key, id: category.id) { statement, slots, _ in
            statement.bind(category.name, at: slots[0])
            statement.bind(category.color, at: slots[1])
        }
        remember(.category, category.id, key)
        noteInserted(.category, key)
        try writeExtras(category.extra, of: .category, key: key)
        return key
    }

    func update(_ category: CategoryRecord, at key: Int64) throws {
        try statements(.category).updateRow(key: key) { statement, slots, _ in
            statement.bind(category.name, at: slots[0])
            statement.bind(category.color, at: slots[1])
        }
        try writeExtras(category.extra, of: .category, key: key)
        noteChanged(.category, key)
    }

    func insert(_ tag: TagRecord) throws -> Int64 {
        let rows = try statements(.tag)
        let key = try allocateKey(.tag)
        try rows.insertRow(key: key, id: tag.id) { statement, slots, _ in statement.bind(tag.name, at: slots[0]) }
        remember(.tag, tag.id, key)
        noteInserted(.tag, key)
        try writeExtras(tag.extra, of: .tag, key: key)
        return key
    }

    func update(_ tag: TagRecord, at key: Int64) throws {
        try statements(.tag).updateRow(key: key) { statement, slots, _ in statement.bind(tag.name, at: slots[0]) }
        try writeExtras(tag.extra, of: .tag, key: key)
        noteChanged(.tag, key)
    }

    func insert(_ task: TaskRecord, links: TaskLinks<Int64>) throws -> Int64 {
        let rows = try statements(.task)
        let key = try allocateKey(.task)
        let (modifiedAt, extra) = modification(task.modifiedAt, task.extra, of: .task)
        try rows.insertRow(key: key, id: task.id) { statement, slots, references in
            bindTask(task, modifiedAt: modifiedAt, links: links, statement, slots, references)
        }
        remember(.task, task.id, key)
        noteInserted(.task, key)
        try noteTaskLinks(of: nil, changingTo: links)
        try link(task: key, tags: links.tags)
        try writeExtras(extra, of: .task, key: key)
        return key
    }

    func update(_ task: TaskRecord, links: TaskLinks<Int64>, at key: Int64) throws {
        try noteTaskLinks(of: key, changingTo: links)
        noteChanged(.task, key)
        let (modifiedAt, extra) = modification(task.modifiedAt, task.extra, of: .task)
        try statements(.task).updateRow(key: key) { statement, slots, references in
            bindTask(task, modifiedAt: modifiedAt, links: links, statement, slots, references)
        }
        if let join = resolved.tagJoin {
            let unlink = try prepared("DELETE FROM \(Database.quote(join.table)) WHERE \(Database.quote(join.taskColumn)) = ?")
            unlink.bind(key, at: 1)
            try unlink.run()
        }
        try link(task: key, tags: links.tags)
        try writeExtras(extra, of: .task, key: key)
    }

    func insert(_ subtask: SubtaskRecord, of task: Int64, position: Int) throws -> Int64 {
        let rows = try statements(.subtask)
        let key = try allocateKey(.subtask)
        try rows.insertRow(key: key, id: subtask.id) { statement, slots, references in
            bindSubtask(subtask, task: task, position: position, statement, slots, references)
        }
        remember(.subtask, subtask.id, key)
        noteInserted(.subtask, key)
        try noteSubtask(nil, movingTo: task)
        try writeExtras(subtask.extra, of: .subtask, key: key)
        return key
    }

    func update(_ subtask: SubtaskRecord, of task: Int64, position: Int, at key: Int64) throws {
        try noteSubtask(key, movingTo: task)
        noteChanged(.subtask, key)
        try statements(.subtask).updateRow(key: key) { statement, slots, references in
            bindSubtask(subtask, task: task, position: position, statement, slots, references)
        }
        try writeExtras(subtask.extra, of: .subtask, key: key)
    }

    func removeSubtasks(of task: Int64, keeping: Set<Int64>) throws -> Int {
        guard let kind = resolved.kinds[.subtask], let column = resolved.subtaskTaskColumn else { return 0 }
        let select = try prepared("SELECT Z_PK, Z_ENT FROM \(Database.quote(kind.table)) WHERE \(Database.quote(column)) = ? AND \(kind.entityFilter)")
        select.reset()
        select.bind(task, at: 1)
        var doomed: [Int64: Int64] = [:]
        while try select.step() {
            let key = select.int64(at: 0)
            if !keeping.contains(key) { doomed[key] = select.int64(at: 1) }
        }
        select.reset()
        guard !doomed.isEmpty else { return 0 }
        let delete = try prepared("DELETE FROM \(Database.quote(kind.table)) WHERE Z_PK = ?")
        for (key, entity) in doomed {
            noteDeleted(key, entity: entity, table: kind.table)
            try delete.execute([.integer(key)])
        }
        noteChanged(.task, task)
        existing[StoreMapping.Kind.subtask] = existing[StoreMapping.Kind.subtask]?.filter { doomed[$0.value] == nil }
        return doomed.count
    }

    /// Records a new row's key for later lookups; a brand-new store needs none (the validator that runs in the same
    /// pass catches repeated ids), and skipping the map saves a hash insert per row.
    private func remember(_ kind: StoreMapping.Kind, _ id: UUID, _ key: Int64) {
        guard !isNew else { return }
        existing[kind, default: [:]][id] = key
    }

    // MARK: - Rows

    /// A record's modification date, and its extras without the value that held it: archives written before
    /// `modifiedAt` was a field carry the date under `extra`, by the store property's name.
    func modification(_ date: Date?, _ extra: [String: ExtraValue]?, of kind: StoreMapping.Kind) -> (Date?, [String: ExtraValue]?) {
        // Without a mapped property the date stays, to be counted as not imported.
        guard let property = resolved.mapping[kind]?.property(for: "modifiedAt") else { return (date, extra) }
        var dates = ModificationDates()
        dates.mappedProperties = [property.lowercased()]
        return dates.asStored(date, extra)
    }

    /// Binds a modification date, or counts it when the target maps no property to `modifiedAt`.
    func bindModification(_ date: Date?, _ kind: StoreMapping.Kind, _ statement: Statement, _ slot: Int32?) {
        guard let slot else {
            if date != nil, let entity = resolved.kinds[kind]?.entity.name { unplacedFields["\(entity).modifiedAt", default: 0] += 1 }
            return
        }
        statement.bind(date, at: slot)
    }

    /// Task fields in `Kind.task.fields` order after `id`: title, notes, isCompleted, createdAt, dueDate, priority, modifiedAt;
    /// references as `referenceColumns(for: .task)` lists them.
    private func bindTask(_ task: TaskRecord, modifiedAt: Date?, links: TaskLinks<Int64>, _ statement: Statement, _ slots: [Int32?], _ references: Int32) {
        statement.bind(task.title, at: slots[0])
        statement.bind(task.notes, at: slots[1])
        statement.bind(task.isCompleted, at: slots[2])
        statement.bind(task.createdAt, at: slots[3])
        statement.bind(task.dueDate, at: slots[4])
        statement.bind(Int64(task.priority), at: slots[5])
        bindModification(modifiedAt, .task, statement, slots[6])
        var next = references
        for (reference, key) in zip(taskReferences, [links.project, links.category]) where reference.present {
            statement.bind(key, at: next)
            next += 1
            if let entityNumber = reference.entityNumber {
                statement.bind(key == nil ? nil : entityNumber, at: next)
                next += 1
            }
        }
    }

    private func bindSubtask(_ subtask: SubtaskRecord, task: Int64, position: Int, _ statement: Statement, _ slots: [Int32?], _ references: Int32) {
        statement.bind(subtask.title, at: slots[0])
        statement.bind(subtask.isCompleted, at: slots[1])
        var next = references
        if resolved.subtaskTaskColumn != nil {
            statement.bind(task, at: next)
            next += 1
            if let entityNumber = subtaskTaskEntityNumber {
                statement.bind(entityNumber, at: next)
                next += 1
            }
        }
        // Core Data spaces ordered positions by 1024, starting at 2048 (as in the Apple-written Bookmarks fixture).
        if resolved.subtaskOrderColumn != nil { statement.bind(Int64(position + 2) * 1024, at: next) }
    }

    /// The extra columns each kind writes, in the order `bindTask`/`bindSubtask` fill them.
    private func referenceColumns(for kind: StoreMapping.Kind) -> [String] {
        var columns: [String] = []
        switch kind {
        case .task:
            for column in [resolved.taskProjectColumn, resolved.taskCategoryColumn].compactMap({ $0 }) {
                columns.append(column)
                if let entityColumn = entityColumn(for: column, in: .task) { columns.append(entityColumn) }
            }
        case .subtask:
            if let column = resolved.subtaskTaskColumn {
                columns.append(column)
                if let entityColumn = entityColumn(for: column, in: .subtask) { columns.append(entityColumn) }
            }
            if let order = resolved.subtaskOrderColumn { columns.append(order) }
        default:
            break
        }
        return columns
    }

    /// `Z<n>_<NAME>`: present when the relationship's destination entity has sub-entities.
    func entityColumn(for column: String, in kind: StoreMapping.Kind) -> String? {
        guard let table = resolved.kinds[kind]?.table else { return nil }
        return schema.entityColumn(of: String(column.dropFirst()), in: table)
    }

    private func statements(_ kind: StoreMapping.Kind) throws -> RowStatements {
        if let rows = rowStatements[kind] { return rows }
        guard let resolvedKind = resolved.kinds[kind] else {
            throw TaskInterchangeError(.invalidData, "\(path): the target store has no \(kind.rawValue) entity to import \(kind.rawValue) records into")
        }
        let rows = try RowStatements(kind: resolvedKind, referenceColumns: referenceColumns(for: kind), schema: schema, database: database)
        rowStatements[kind] = rows
        return rows
    }

    private func link(task: Int64, tags: [Int64]) throws {
        guard let join = resolved.tagJoin, !tags.isEmpty else { return }
        let insert: Statement
        if let statement = tagLinkInsert {
            insert = statement
        } else {
            insert = try database.prepare("INSERT OR IGNORE INTO \(Database.quote(join.table)) (\(Database.quote(join.taskColumn)), \(Database.quote(join.tagColumn))) VALUES (?, ?)")
            tagLinkInsert = insert
        }
        for tag in tags {
            insert.bind(task, at: 1)
            insert.bind(tag, at: 2)
            try insert.run()
        }
    }

    /// Statements outside the per-kind row statements (join rows, subtask removal), prepared once per writer.
    func prepared(_ sql: String) throws -> Statement {
        if let statement = preparedStatements[sql] { return statement }
        let statement = try database.prepare(sql)
        preparedStatements[sql] = statement
        return statement
    }

    // MARK: - Keys

    /// The next key of the entity's table: above both the root's `Z_MAX` and the largest key present (stores edited by
    /// other tools may have `Z_MAX` below it).
    private func allocateKey(_ mappedKind: StoreMapping.Kind) throws -> Int64 {
        let kind = resolved.kinds[mappedKind]!
        return try allocateKey(in: kind.table, of: kind.entity)
    }

    /// The next key of `table`, whose rows are `entity`'s (or its root's): the same rule for Core Data's own entities
    /// (persistent history) as for the mapped ones.
    func allocateKey(in table: String, of entity: StoreSchema.Entity) throws -> Int64 {
        if let next = nextKey[table] {
            nextKey[table] = next + 1
            return next
        }
        let root = rootEntity(of: entity)
        let recorded = try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(root.number)])?.int64 ?? 0
        let present = try database.scalar("SELECT max(Z_PK) FROM \(Database.quote(table))")?.int64 ?? 0
        if present > recorded {
            warnings.append("\(root.name): Z_MAX (\(recorded)) was below the largest key in \(table) (\(present)); new keys start above \(present) and Z_MAX is corrected")
        }
        let next = max(recorded, present) + 1
        nextKey[table] = next + 1
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
