import Foundation

/// Persistent history: when the target tracks it (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`), the import is
/// recorded as Core Data records one save, so history consumers and CloudKit mirroring see what it changed.
///
/// - One `ATRANSACTION` row per import that changed something, with `Z_OPT` NULL, `ZTIMESTAMP` in seconds since 2001,
///   and author, bundle identifier and process name all the interned string "tasks" (Core Data always fills the last
///   two; the API declares them non-optional).
/// - One `ACHANGE` row per object: inserts (type 0), then updates of objects that existed before the import (type 1),
///   then deletes (type 2). `ZENTITY` is the object's concrete `Z_ENT`. `ZCOLUMNS` is NULL for inserts and deletes;
///   for an update it names every stored property of the entity, because the order Core Data numbers properties in is
///   not established: a superset of what changed, and consumers re-read the object anyway.
/// - Keys come from the three entities' `Z_MAX` like every other entity's, and are written back in the same commit.
///
/// Objects are recorded while the import writes (inserted keys as runs of consecutive keys, so a bulk load costs a few
/// ranges); the rows are written at the end of its transaction. Nothing is recorded in a dry run.
extension StoreWriter {
    /// The three `Z_PRIMARYKEY` entities persistent history is stored as (numbered 16001–16003 by Core Data).
    struct HistoryEntities {
        var change: StoreSchema.Entity
        var transaction: StoreSchema.Entity
        var string: StoreSchema.Entity
    }

    /// The columns written here, per history table, with the entity each table's rows belong to.
    private static let historyShape = CoreDataNames.historyTables

    /// Inserts a row into history table `table`: every column `historyShape` names for it, the version NULL.
    private static func insertHistoryRow(into table: String) -> String {
        let columns = historyShape.first { $0.table == table }?.columns ?? []
        let values = columns.map { $0 == CoreDataNames.version ? "NULL" : "?" }
        return "INSERT INTO \(Database.quote(table)) (\(columns.joined(separator: ", "))) "
            + "VALUES (\(values.joined(separator: ", ")))"
    }

    /// The author, bundle identifier and process name of the transactions `tasks` writes.
    static let historyAuthor = "tasks"

    /// The target's history entities when it tracks history in the tables Core Data writes; nil when it does not
    /// track history, and nil with a warning when its history tables lack something written here.
    func historyEntities() -> HistoryEntities? {
        guard schema.tables["ATRANSACTION"] != nil else { return nil }
        var problems: [String] = []
        var found: [String: StoreSchema.Entity] = [:]
        for (table, name, required) in Self.historyShape {
            guard let columns = schema.columns(of: table) else {
                problems.append("no table \(table)")
                continue
            }
            let missing = required.filter { column in !columns.contains { $0.name == column } }
            if !missing.isEmpty { problems.append("\(table) has no \(missing.joined(separator: ", "))") }
            guard let entity = schema.entities.first(where: { $0.name == name && $0.isInternal && $0.table == table })
            else {
                problems.append("\(CoreDataNames.primaryKeyTable) has no \(name) entity")
                continue
            }
            found[name] = entity
        }
        guard problems.isEmpty, let change = found["CHANGE"], let transaction = found["TRANSACTION"],
            let string = found["TRANSACTIONSTRING"]
        else {
            diagnostics.warnings.append(
                """
                the target store tracks persistent history, but not in the tables Core Data \
                writes (\(problems.joined(separator: "; "))); rows written by tasks have no \
                history entries, so history consumers and CloudKit mirroring will not see them
                """
            )
            return nil
        }
        return HistoryEntities(change: change, transaction: transaction, string: string)
    }

    // MARK: - Recording

    /// A new object of `kind` at `key`.
    func noteInserted(_ kind: StoreMapping.Kind, _ key: Int64) {
        guard history != nil, let resolvedKind = resolved.kinds[kind] else { return }
        history?.noteInserted(key, entity: resolvedKind.entity.number, table: resolvedKind.table)
    }

    /// An object of `kind` whose attributes or relationships change; ignored when the import inserted it.
    func noteChanged(_ kind: StoreMapping.Kind, _ key: Int64?) {
        guard history != nil, let key, let table = resolved.kinds[kind]?.table else { return }
        history?.noteChanged(key, in: table)
    }

    /// An object about to be deleted.
    func noteDeleted(_ key: Int64, entity: Int64, table: String) {
        history?.noteDeleted(key, entity: entity, table: table)
    }

    /// Replace mode, once every record is written: the removed objects no record took back are the deleted ones.
    func noteReplacedDeletions() {
        defer { replaced = ReplacedObjects() }
        guard history != nil else { return }
        for row in replaced.deleted { noteDeleted(row.key, entity: row.entity, table: row.table) }
    }

    /// Before a task's project, category and tags are written: the ones it leaves and the ones it joins change too
    /// (their `tasks`). `task` is nil for a new task.
    func noteTaskLinks(of task: Int64?, changingTo links: TaskLinks<Int64>) throws {
        guard history != nil, let taskKind = resolved.kinds[.task] else { return }
        let references: [(String?, StoreMapping.Kind, Int64?)] = [
            (resolved.taskProjectColumn, .project, links.project),
            (resolved.taskCategoryColumn, .category, links.category),
        ]
        for case let (column?, kind, new) in references {
            let old =
                try task.map {
                    try keys(
                        CoreDataNames.select(Database.quote(column), from: Database.quote(taskKind.table)), $0
                    ).first
                } ?? nil
            if old != new {
                noteChanged(kind, old)
                noteChanged(kind, new)
            }
        }
        if let join = resolved.tagJoin {
            let old =
                try task.map {
                    try keys(
                        """
                        SELECT \(Database.quote(join.tagColumn)) FROM \(Database.quote(join.table)) \
                        WHERE \(Database.quote(join.taskColumn)) = ?
                        """,
                        $0)
                } ?? []
            for tag in Set(old).symmetricDifference(links.tags) { noteChanged(.tag, tag) }
        }
    }

    /// Before a subtask is written under `task` (its ordered subtasks change): an existing subtask's previous task
    /// changes too when it moves. `subtask` is nil for a new one.
    func noteSubtask(_ subtask: Int64?, movingTo task: Int64) throws {
        guard history != nil, let column = resolved.subtaskTaskColumn, let subtaskKind = resolved.kinds[.subtask] else {
            return
        }
        if let subtask {
            for old in try keys(
                CoreDataNames.select(Database.quote(column), from: Database.quote(subtaskKind.table)), subtask)
            where old != task {
                noteChanged(.task, old)
            }
        }
        noteChanged(.task, task)
    }

    /// Before a relationship from `extra` is linked: the owner, and the destinations that gain or lose it when the
    /// relationship has an inverse; a destination moved away from another owner changes that owner too.
    func noteLink(
        _ target: LinkTarget, of kind: StoreMapping.Kind, _ key: Int64, relationship: String,
        _ declaration: ExtraRelationship, to destinations: [Int64], replacing: Bool
    ) throws {
        guard history != nil, let owner = resolved.kinds[kind],
            let destination = resolved.kinds[declaration.destination]
        else { return }
        let hasInverse = relationshipHasInverse(kind, relationship, declaration)
        switch target {
        case .ownerColumn(let column, _, _):
            guard destinations.count <= 1 else { return }
            let old = try keys(
                CoreDataNames.select(Database.quote(column), from: Database.quote(owner.table)), key
            ).first
            guard old != destinations.first else { return }
            noteChanged(kind, key)
            if hasInverse {
                noteChanged(declaration.destination, old)
                noteChanged(declaration.destination, destinations.first)
            }
        case .destinationColumn(let column, _, let orderColumn):
            let table = Database.quote(destination.table)
            var moved: [Int64] = []
            for member in destinations {
                let previous = try keys(CoreDataNames.select(Database.quote(column), from: table), member).first
                guard previous != key else { continue }
                moved.append(member)
                noteChanged(kind, previous)
            }
            if replacing {
                let kept = Set(destinations)
                let owned = "SELECT \(CoreDataNames.primaryKey) FROM \(table) WHERE \(Database.quote(column)) = ?"
                moved += try keys(owned, key).filter { !kept.contains($0) }
            }
            if !moved.isEmpty || orderColumn != nil { noteChanged(kind, key) }
            if hasInverse { for member in moved { noteChanged(declaration.destination, member) } }
        case .joinTable(let join):
            let old =
                replacing
                ? try keys(
                    """
                    SELECT \(Database.quote(join.memberColumn)) FROM \(Database.quote(join.table)) \
                    WHERE \(Database.quote(join.ownerColumn)) = ?
                    """,
                    key)
                : []
            let changed = Set(old).symmetricDifference(destinations)
            if !changed.isEmpty || join.orderColumn != nil { noteChanged(kind, key) }
            if hasInverse { for member in changed { noteChanged(declaration.destination, member) } }
        }
    }

    /// Whether the target's relationship has an inverse: from its model when it has one, else from the declaration.
    private func relationshipHasInverse(
        _ kind: StoreMapping.Kind, _ relationship: String, _ declaration: ExtraRelationship
    ) -> Bool {
        let cacheKey = "\(kind.rawValue).\(relationship)"
        if let known = history?.inverses[cacheKey] { return known }
        var hasInverse = declaration.inverse != nil
        if let model = targetModel, let name = resolved.kinds[kind]?.entity.name,
            let entity = model.entity(named: name),
            let (found, _) = model.storedRelationship(matching: relationship, in: entity)
        {
            hasInverse = found.inverse != nil
        }
        history?.inverses[cacheKey] = hasInverse
        return hasInverse
    }

    /// The non-NULL integers a one-parameter query returns for `key`.
    private func keys(_ sql: String, _ key: Int64) throws -> [Int64] {
        let select = try prepared(sql)
        select.reset()
        select.bind(key, at: 1)
        defer { select.reset() }
        var result: [Int64] = []
        while try select.step() {
            if !select.isNull(at: 0) { result.append(select.int64(at: 0)) }
        }
        return result
    }

    // MARK: - Writing

    /// Writes the import's transaction and changes, inside its SQLite transaction and before `writeMaxKeys()`.
    /// Nothing when the store does not track history or nothing changed.
    func writeHistory() throws {
        guard let log = history else { return }
        history?.clear()
        let entities = log.entities
        let transactionTable = entities.transaction.expectedTable
        let changeTable = entities.change.expectedTable
        let keptNextKey = rowWriting.keys.peek(transactionTable)
        let transaction = try allocateKey(in: transactionTable, of: entities.transaction)
        let insert = try database.prepare(Self.insertHistoryRow(into: changeTable))
        var counts = (inserts: 0, updates: 0, deletes: 0, withoutColumns: 0)
        var bitmaps: [Int64: [UInt8]?] = [:]
        // An updated object's concrete entity, read now: a row the import deleted after changing it has its delete
        // entry only.
        func entity(_ table: String, _ key: Int64) throws -> Int64? {
            let select = try entityNumberStatement(in: table)
            select.reset()
            select.bind(key, at: 1)
            defer { select.reset() }
            guard try select.step(), !select.isNull(at: 0) else { return nil }
            return select.int64(at: 0)
        }
        try log.forEachChange(entity: entity) { change in
            var columns: [UInt8]?
            switch change.type {
            case .insert: counts.inserts += 1
            case .update:
                if bitmaps[change.entity] == nil {
                    bitmaps[change.entity] = .some(
                        schema.entity(number: change.entity).flatMap { storedPropertyCount(of: $0.name) }.flatMap(
                            Self.changedColumns(propertyCount:)))
                }
                columns = bitmaps[change.entity] ?? nil
                counts.updates += 1
                if columns == nil { counts.withoutColumns += 1 }
            case .delete: counts.deletes += 1
            }
            insert.bind(try allocateKey(in: changeTable, of: entities.change), at: 1)
            insert.bind(entities.change.number, at: 2)
            insert.bind(change.type.rawValue, at: 3)
            insert.bind(change.entity, at: 4)
            insert.bind(change.key, at: 5)
            insert.bind(transaction, at: 6)
            if let columns { columns.withUnsafeBytes { insert.bind(blob: $0, at: 7) } } else { insert.bindNull(at: 7) }
            try insert.run()
        }
        guard counts.inserts + counts.updates + counts.deletes > 0 else {
            // A save without changes has no transaction.
            rowWriting.keys.giveBack(keptNextKey, in: transactionTable)
            return
        }
        let author = try internedString(Self.historyAuthor, entities.string)
        // Not before the latest transaction, so that date-based history fetches see this one after it.
        let latest =
            try database.scalar(
                "SELECT max(\(CoreDataNames.transactionTimestampColumn)) FROM \(Database.quote(transactionTable))"
            )?.double ?? -.infinity
        try database.prepare(Self.insertHistoryRow(into: transactionTable))
            .execute([
                .integer(transaction), .integer(entities.transaction.number), .integer(author), .integer(author),
                .integer(author),
                .real(max(Date().timeIntervalSinceReferenceDate, latest)),
            ])
        if counts.withoutColumns > 0 {
            diagnostics.warnings.append(
                """
                persistent history: the target has no model cache, so \(counts.withoutColumns) \
                update entr\(counts.withoutColumns == 1 ? "y does" : "ies do") not say which \
                properties changed (\(CoreDataNames.changeColumnsColumn) NULL)
                """
            )
        }
        if counts.deletes > 0,
            schema.columns(of: changeTable)?.contains(where: {
                $0.name.hasPrefix(CoreDataNames.column(of: "tombstone"))
            }) == true
        {
            diagnostics.warnings.append(
                """
                persistent history: the target keeps tombstones of deleted objects; tasks does not fill them, so \
                \(counts.deletes) delete entr\(counts.deletes == 1 ? "y has" : "ies have") no preserved values
                """
            )
        }
    }

    /// The key of `name` in `ATRANSACTIONSTRING`, inserting it when the store does not have it yet.
    private func internedString(_ name: String, _ entity: StoreSchema.Entity) throws -> Int64 {
        let table = Database.quote(entity.expectedTable)
        let (keyColumn, nameColumn) = (CoreDataNames.primaryKey, CoreDataNames.stringNameColumn)
        if let key = try database.scalar(
            "SELECT \(keyColumn) FROM \(table) WHERE \(nameColumn) = ? ORDER BY \(keyColumn) LIMIT 1", [.text(name)]
        )?.int64 {
            return key
        }
        let key = try allocateKey(in: entity.expectedTable, of: entity)
        try database.prepare(Self.insertHistoryRow(into: entity.expectedTable))
            .execute([.integer(key), .integer(entity.number), .text(name)])
        return key
    }

    /// The entity's stored properties in the target's model (attributes and relationships, to-many and inherited ones
    /// included; not transient ones); nil when the target has no model cache and is not the built-in task manager
    /// model (a store `tasks` created has no cache: its metadata's version hash identifies the entity).
    func storedPropertyCount(of name: String) -> Int? {
        let model: ObjectModel
        if let targetModel {
            model = targetModel
        } else {
            let builtIn = TaskManagerModel.model
            guard let hash = builtIn.versionHashes[name],
                ((try? StoreMetadata(in: database, path: path)) ?? nil)?.versionHashes[name] == hash
            else { return nil }
            model = builtIn
        }
        guard let entity = model.entity(named: name) else { return nil }
        return model.ancestry(of: entity).reduce(0) { count, member in
            count + member.attributes.count(where: { !$0.isTransient })
                + member.relationships.count(where: { !$0.isTransient })
        }
    }

    /// `ZCOLUMNS` of an update that names all of an entity's `propertyCount` properties: bit *i* is `0x80 >> (i % 8)`
    /// of byte `i / 8` (most significant first), `ceil(n / 8)` bytes, no bit at or past `n`. Nil (NULL) for no
    /// properties.
    static func changedColumns(propertyCount: Int) -> [UInt8]? {
        guard propertyCount > 0 else { return nil }
        var bytes = [UInt8](repeating: 0xFF, count: (propertyCount + 7) / 8)
        let last = propertyCount % 8
        if last != 0 { bytes[bytes.count - 1] = UInt8(truncatingIfNeeded: 0xFF << (8 - last)) }
        return bytes
    }
}
