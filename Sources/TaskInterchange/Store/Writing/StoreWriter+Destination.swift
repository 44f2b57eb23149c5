import Foundation

/// The `ImportDestination` operations, as SQL on the Core Data layout.
extension StoreWriter {
    func existingKey(of kind: StoreMapping.Kind, id: UUID) -> Int64? {
        existing[kind]?[UUIDKey(id)]
    }

    func count(of kind: StoreMapping.Kind) throws -> Int {
        guard let resolvedKind = resolved.kinds[kind] else { return 0 }
        return Int(
            try database.scalar(
                "SELECT count(*) FROM \(Database.quote(resolvedKind.table)) WHERE \(resolvedKind.entityFilter)")?.int64
                ?? 0)
    }

    /// Replace mode: removes every row of every entity's table (the typed kinds', the generic entities', sub-entities
    /// included) and every join row, remembering which object each was (`ReplacedObjects`): a record the archive
    /// holds again takes its old key back; new keys start above every key the store had, and Core Data's own
    /// entities (persistent history, CloudKit mirroring) are left as they are.
    func removeAll() throws {
        replaced = ReplacedObjects()
        for (kind, ids) in existing { replaced.noteIDs(ids, of: kind) }
        for name in genericLayout.names {
            replaced.noteIDs(try existingObjects(of: name), ofEntity: name)
            existingEntities[name] = [:]
        }
        let joins = Set(schema.tables(of: .join) + (resolved.tagJoin.map { [$0.table] } ?? []))
        for table in joins.sorted() { try database.execute("DELETE FROM \(Database.quote(table))") }
        for table in schema.tables(of: .entity) {
            let select = try database.prepare(
                "SELECT \(CoreDataNames.rowColumns.joined(separator: ", ")) FROM \(Database.quote(table)) "
                    + "ORDER BY \(CoreDataNames.primaryKey)")
            var root: StoreSchema.Entity?
            while try select.step() {
                let entity = select.int64(at: 1)
                replaced.noteRow(
                    select.int64(at: 0), ReplacedObjects.Row(entity: entity, version: select.int64(at: 2)), in: table)
                root = root ?? schema.entity(number: entity)
            }
            if let root {
                // Taken only to start the table above its largest key before the rows go, then given back.
                let next = try allocateKey(in: table, of: root)
                rowWriting.keys.giveBack(next, in: table)
            }
            try database.execute("DELETE FROM \(Database.quote(table))")
        }
        for kind in existing.keys { existing[kind] = [:] }
    }

    func insert(_ project: ProjectRecord) throws -> Int64 { try insertRecord(project) }

    func update(_ project: ProjectRecord, at key: Int64) throws { try updateRecord(project, at: key) }

    func insert(_ category: CategoryRecord) throws -> Int64 { try insertRecord(category) }

    func update(_ category: CategoryRecord, at key: Int64) throws { try updateRecord(category, at: key) }

    func insert(_ tag: TagRecord) throws -> Int64 { try insertRecord(tag) }

    func update(_ tag: TagRecord, at key: Int64) throws { try updateRecord(tag, at: key) }

    func insert(_ task: TaskRecord, links: TaskLinks<Int64>) throws -> Int64 {
        let (key, extra) = try insertRow(task) { statement, slots in bindReferences(of: links, statement, slots) }
        try noteTaskLinks(of: nil, changingTo: links)
        link(task: key, tags: links.tags)
        try writeExtras(extra, of: .task, key: key)
        return key
    }

    func update(_ task: TaskRecord, links: TaskLinks<Int64>, at key: Int64) throws {
        try noteTaskLinks(of: key, changingTo: links)
        noteChanged(.task, key)
        let extra = try updateRow(task, at: key) { statement, slots in bindReferences(of: links, statement, slots) }
        if let join = resolved.tagJoin {
            let unlink = try prepared(
                "DELETE FROM \(Database.quote(join.table)) WHERE \(Database.quote(join.taskColumn)) = ?")
            unlink.bind(key, at: 1)
            try unlink.run()
        }
        link(task: key, tags: links.tags)
        try writeExtras(extra, of: .task, key: key)
    }

    func insert(_ subtask: SubtaskRecord, of task: Int64, position: Int) throws -> Int64 {
        let (key, extra) = try insertRow(subtask) { statement, slots in
            bindReferences(
                ofSubtaskIn: task, position: subtask.position ?? StoredPositions.fresh(at: position), statement, slots)
        }
        try noteSubtask(nil, movingTo: task)
        try writeExtras(extra, of: .subtask, key: key)
        return key
    }

    func update(_ subtask: SubtaskRecord, of task: Int64, position: Int, at key: Int64) throws {
        try noteSubtask(key, movingTo: task)
        noteChanged(.subtask, key)
        let extra = try updateRow(subtask, at: key) { statement, slots in
            bindReferences(
                ofSubtaskIn: task, position: subtask.position ?? StoredPositions.fresh(at: position), statement, slots)
        }
        try writeExtras(extra, of: .subtask, key: key)
    }

    func removeSubtasks(of task: Int64, keeping: Set<Int64>) throws -> Int {
        guard let kind = resolved.kinds[.subtask], let column = resolved.subtaskTaskColumn else { return 0 }
        let select = try prepared(
            "SELECT \(CoreDataNames.keyAndEntityList) FROM \(Database.quote(kind.table)) "
                + "WHERE \(Database.quote(column)) = ? AND \(kind.entityFilter)"
        )
        select.reset()
        select.bind(task, at: 1)
        var doomed: [Int64: Int64] = [:]
        while try select.step() {
            let key = select.int64(at: 0)
            if !keeping.contains(key) { doomed[key] = select.int64(at: 1) }
        }
        select.reset()
        guard !doomed.isEmpty else { return 0 }
        let delete = try prepared("DELETE FROM \(Database.quote(kind.table)) WHERE \(CoreDataNames.primaryKey) = ?")
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
        existing[kind, default: [:]][UUIDKey(id)] = key
    }

    // MARK: - Rows

    /// Inserts a project, category or tag with its extra values.
    private func insertRecord<Record: TypedRecord>(_ record: Record) throws -> Int64 {
        let (key, extra) = try insertRow(record) { _, _ in }
        try writeExtras(extra, of: Record.kind, key: key)
        return key
    }

    /// Overwrites a project, category or tag and its extra values.
    private func updateRecord<Record: TypedRecord>(_ record: Record, at key: Int64) throws {
        let extra = try updateRow(record, at: key) { _, _ in }
        try writeExtras(extra, of: Record.kind, key: key)
        noteChanged(Record.kind, key)
    }

    /// Inserts a record's row under a new key (`bindReferences` fills the kind's reference columns) and returns the
    /// key with the extra values still to write.
    private func insertRow<Record: TypedRecord>(
        _ record: Record, bindReferences: (Statement, RowStatements.Slots) -> Void
    )
        throws -> (key: Int64, extra: [String: ExtraValue]?)
    {
        let kind = Record.kind
        let rows = try statements(Record.self)
        let (record, extra) = asStored(record)
        let table = resolved.kinds[kind]?.table
        let takenBack = table.flatMap { replaced.takeBack(kind, id: record.id, in: $0) }
        if let takenBack, let table { try useKept(takenBack.key, in: table) }
        let kept = try takenBack?.key ?? keptKey(of: record, in: rows)
        var key = try kept ?? allocateKey(kind)
        do {
            // The same object, removed by replace mode, is written again one version on.
            try rows.insertRow(key: key, id: record.id, version: (takenBack?.row.version ?? 0) + 1) {
                statement, slots in
                bindFields(of: record, statement, slots)
                bindReferences(statement, slots)
            }
        } catch let error as SQLiteError where error.isPrimaryKeyConflict && kept != nil {
            guard !configuration.keepIdentity else {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(kind.rawValue) \(record.id.uuidString): \(setting: .keepIdentity): "
                        + "key \(key) is taken by another record of the archive"
                )
            }
            // An archive edited by hand may repeat a key: the later record takes a new one.
            key = try allocateKey(kind)
            try rows.insertRow(key: key, id: record.id) { statement, slots in
                bindFields(of: record, statement, slots)
                bindReferences(statement, slots)
            }
        }
        remember(kind, record.id, key)
        if key == takenBack?.key {
            noteChanged(kind, key)
        } else {
            noteInserted(kind, key)
        }
        return (key, extra)
    }

    /// The archive's key for a new row, where it is kept: with `keepIdentity` (required then), or where the target
    /// derives the kind's ids from keys (it has no UUID attribute for them) and the table keeps keys.
    private func keptKey<Record: TypedRecord>(of record: Record, in rows: RowStatements) throws -> Int64? {
        guard configuration.keepIdentity || rows.idColumn == nil, let kind = resolved.kinds[Record.kind] else {
            return nil
        }
        guard try keepsKeys(in: kind.table, of: kind.entity), let key = record.key else {
            if configuration.keepIdentity {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(setting: .keepIdentity): the \(Record.kind.rawValue) record \(record.id.uuidString) has no key; a restore "
                        + "needs every record's (archives written before keys were exported, or by other tools, have none)"
                )
            }
            return nil
        }
        try useKept(key, in: kind.table)
        return key
    }

    /// Overwrites a record's row and returns the extra values still to write.
    private func updateRow<Record: TypedRecord>(
        _ record: Record, at key: Int64,
        bindReferences: (Statement, RowStatements.Slots) -> Void
    )
        throws -> [String: ExtraValue]?
    {
        let (record, extra) = asStored(record)
        try statements(Record.self).updateRow(key: key) { statement, slots in
            bindFields(of: record, statement, slots)
            bindReferences(statement, slots)
        }
        return extra
    }

    /// A record with its modification date as this target stores it, and its extras without the value that held
    /// it: archives written before `modifiedAt` was a field carry the date under `extra`, by the store property's name.
    private func asStored<Record: TypedRecord>(_ record: Record) -> (Record, [String: ExtraValue]?) {
        // Without a mapped property the date stays, to be counted as not imported.
        guard let field = Record.modificationDate, let slot = field.modificationDateSlot,
            let property = resolved.mapping[Record.kind]?.property(for: field.name)
        else { return (record, record.extra) }
        var dates = ModificationDates()
        dates.mappedProperties = [property.lowercased()]
        var record = record
        let extra: [String: ExtraValue]?
        (record[slot], extra) = dates.asStored(record[slot], record.extra)
        return (record, extra)
    }

    /// Binds every field of `record` to its slot; a field the target has no column for is not written (a
    /// modification date that then has nowhere to go is counted, for a warning).
    private func bindFields<Record: TypedRecord>(
        of record: Record, _ statement: Statement, _ slots: RowStatements.Slots
    ) {
        let hasNulls = record.nulls != nil
        for field in Record.layout {
            let slot = slots.fields[field.index]
            if hasNulls, let slot, slots.nullable[field.index], record.holdsStoredNull(field) {
                statement.bindNull(at: slot)
                continue
            }
            switch field.access {
            case .text(let value), .textOrDefault(let value): statement.bind(record[value], at: slot)
            case .optionalText(let value): statement.bind(record[value], at: slot)
            case .flag(let value): statement.bind(record[value], at: slot)
            case .date(let value): statement.bind(record[value], at: slot)
            case .optionalDate(let value):
                let date = record[value]
                if slot == nil, field.isModificationDate, date != nil,
                    let entity = resolved.kinds[Record.kind]?.entity.name
                {
                    diagnostics.unplacedFields["\(entity).\(field.name)", default: 0] += 1
                }
                statement.bind(date, at: slot)
            case .level(let value, _): statement.bind(Int64(record[value]), at: slot)
            case .optionalInteger(let value): statement.bind(record[value].map(Int64.init), at: slot)
            }
        }
    }

    /// Whether the target may hold NULL for a kind's field: its attribute is optional in the target's model (or the
    /// model is unknown: the store then says nothing against it). A restore with `keepIdentity` writes back what the
    /// source held under the same model, NULL included.
    private func isNullable(_ field: String, of kind: RecordKind) -> Bool {
        guard !configuration.keepIdentity, let model = targetModel else { return true }
        guard let resolvedKind = resolved.kinds[kind], let property = resolved.mapping[kind]?.property(for: field),
            let entity = model.entity(named: resolvedKind.entity.name)
        else { return false }
        let attribute = model.ancestry(of: entity).lazy.flatMap(\.attributes).first { $0.name == property }
        return attribute?.isOptional ?? false
    }

    /// A task's project and category keys, with their entity numbers where the target has `Z<n>_` columns.
    private func bindReferences(of links: TaskLinks<Int64>, _ statement: Statement, _ slots: RowStatements.Slots) {
        statement.bind(links.project, at: slots[.project])
        statement.bind(links.project == nil ? nil : referencedEntities.project, at: slots[.projectEntity])
        statement.bind(links.category, at: slots[.category])
        statement.bind(links.category == nil ? nil : referencedEntities.category, at: slots[.categoryEntity])
    }

    /// A subtask's task key (with its entity number) and its stored position among the task's subtasks.
    private func bindReferences(
        ofSubtaskIn task: Int64, position: Int64, _ statement: Statement,
        _ slots: RowStatements.Slots
    ) {
        statement.bind(task, at: slots[.task])
        statement.bind(referencedEntities.task, at: slots[.taskEntity])
        statement.bind(position, at: slots[.position])
    }

    /// The reference columns each kind writes, by name.
    private func referenceColumns(for kind: RecordKind) -> [(ReferenceColumn, String)] {
        var columns: [(ReferenceColumn, String)] = []
        func add(_ column: String?, _ reference: ReferenceColumn, entity: ReferenceColumn) {
            guard let column else { return }
            columns.append((reference, column))
            if let entityColumn = entityColumn(for: column, in: kind) { columns.append((entity, entityColumn)) }
        }
        switch kind {
        case .task:
            add(resolved.taskProjectColumn, .project, entity: .projectEntity)
            add(resolved.taskCategoryColumn, .category, entity: .categoryEntity)
        case .subtask:
            add(resolved.subtaskTaskColumn, .task, entity: .taskEntity)
            if let order = resolved.subtaskOrderColumn { columns.append((.position, order)) }
        case .project, .category, .tag:
            break
        }
        return columns
    }

    /// `Z<n>_<NAME>`: present when the relationship's destination entity has sub-entities.
    func entityColumn(for column: String, in kind: StoreMapping.Kind) -> String? {
        resolved.kinds[kind]?.entityColumns[column]
    }

    private func statements<Record: TypedRecord>(_: Record.Type) throws -> RowStatements {
        let kind = Record.kind
        if let rows = rowWriting.kinds[kind] { return rows }
        guard let resolvedKind = resolved.kinds[kind] else {
            throw TaskInterchangeError(
                .invalidData,
                "\(path): the target store has no \(kind.rawValue) entity to import \(kind.rawValue) records into")
        }
        let rows = try RowStatements(
            kind: resolvedKind, fields: Record.fields.map(\.name), references: referenceColumns(for: kind),
            nullable: Record.fields.map { isNullable($0.name, of: kind) }, schema: schema, database: database)
        rowWriting.kinds[kind] = rows
        return rows
    }

    /// Queues a task's join rows for `writeTagLinks()`. No statement of the import reads another task's join rows
    /// before then (an update deletes and reads only its own task's, and each task is visited once).
    private func link(task: Int64, tags: [Int64]) {
        guard resolved.tagJoin != nil else { return }
        linkWriting.tagLinks.add(task: task, tags: tags)
    }

    /// Writes the queued join rows in the join table's key order (tag, then task), so its primary-key index grows at
    /// its end instead of at one place per tag, `tagLinksPerStatement` rows to a statement.
    func writeTagLinks() throws {
        guard let join = resolved.tagJoin, !linkWriting.tagLinks.isEmpty else { return }
        let columns = "\(Database.quote(join.taskColumn)), \(Database.quote(join.tagColumn))"
        let insert = "INSERT OR IGNORE INTO \(Database.quote(join.table)) (\(columns)) VALUES "
        let single = try prepared(insert + "(?, ?)")
        let batch = try prepared(
            insert + Array(repeating: "(?, ?)", count: Self.tagLinksPerStatement).joined(separator: ", "))
        let total = linkWriting.tagLinks.count
        let batched = total - total % Self.tagLinksPerStatement
        var written = 0
        try linkWriting.tagLinks.drain { task, tag in
            if written < batched {
                let slot = Int32(written % Self.tagLinksPerStatement) * 2
                batch.bind(task, at: slot + 1)
                batch.bind(tag, at: slot + 2)
                if slot == Int32(Self.tagLinksPerStatement - 1) * 2 { try batch.run() }
            } else {
                single.bind(task, at: 1)
                single.bind(tag, at: 2)
                try single.run()
            }
            written += 1
        }
    }

    static let tagLinksPerStatement = 64

    /// Statements outside the per-kind row statements (join rows, subtask removal), prepared once per writer.
    func prepared(_ sql: String) throws -> Statement {
        try rowWriting.prepared(sql, in: database)
    }
}
