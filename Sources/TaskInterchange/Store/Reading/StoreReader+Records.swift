import Foundation

/// Emitting each kind's records in id order.
extension StoreReader {
    /// Projects, categories or tags: their fields, extra values and links.
    func emitRecords<Record: SectionRecord>(
        _: Record.Type, _ index: KeyIndex,
        into visitor: inout some ArchiveVisitor
    ) throws {
        let kind = Record.kind
        guard let resolvedKind = resolved.kinds[kind] else { return }
        let rank = try rankFunction("tasks_rank_" + kind.rawValue, index)
        let fields = FieldColumns<Record>(resolvedKind, from: 1)
        let statement = try database.prepare(
            "SELECT \(CoreDataNames.primaryKey), \(selectList(fields.selectList, kind)) "
                + "FROM \(Database.quote(resolvedKind.table)) "
                + "WHERE \(resolvedKind.entityFilter)\(selected(kind)) ORDER BY \(try idOrder(index, rank: rank, table: resolvedKind.table))"
        )
        let extraColumns = extraColumns(kind)
        var position = 0
        while try statement.step() {
            let key = statement.int64(at: 0)
            try checkIdOrder(index, key: key, position: position, table: resolvedKind.table)
            var record = Record(blank: index.ids[position])
            record.key = key
            readFields(fields.plain, into: &record, statement, key: key)
            if let entry = fields.modificationDate { readField(entry, into: &record, statement, key: key) }
            record.extra = extraValues(
                statement, from: fields.end, extraColumns, entity: resolvedKind.entity.name, key: key)
            addLinks(to: &record.extra, of: kind, key: key)
            try record.deliver(to: &visitor, index: position)
            position += 1
        }
    }

    /// Tasks, merged with their tag links and their subtasks (an id-ordered stream).
    func emitTasks(
        projects: KeyIndex, categories: KeyIndex, tags: KeyIndex, into visitor: inout some ArchiveVisitor,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws {
        guard let kind = resolved.kinds[.task] else {
            try reportSubtasksWithoutTasks()
            return
        }
        let entity = kind.entity.name
        let index = indexes[.task]!
        let rank = try rankFunction("tasks_rank_task", index)
        let projectColumn = resolved.taskProjectColumn.map(Database.quote) ?? "NULL"
        let categoryColumn = resolved.taskCategoryColumn.map(Database.quote) ?? "NULL"
        let fields = FieldColumns<TaskRecord>(kind, from: 3)
        let statement = try database.prepare(
            "SELECT \(CoreDataNames.primaryKey), \(projectColumn), \(categoryColumn), "
                + "\(selectList(fields.selectList, .task)) "
                + "FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)\(selected(.task)) "
                + "ORDER BY \(try idOrder(index, rank: rank, table: kind.table))"
        )
        let tagLinks = try TagLinks(reader: self, tasks: index, tags: tags)
        var subtaskStream = try SubtaskStream(reader: self, taskRank: rank)
        // Origins (for findings) built once; each row only sets its key.
        let projectOrigin = Origin(kind: kind, field: "project", column: resolved.taskProjectColumn, key: 0)
        let categoryOrigin = Origin(kind: kind, field: "category", column: resolved.taskCategoryColumn, key: 0)
        let extraColumns = extraColumns(.task)
        var position = 0
        while try statement.step() {
            let key = statement.int64(at: 0)
            try checkIdOrder(index, key: key, position: position, table: kind.table)
            var record = TaskRecord(blank: index.ids[position])
            record.key = key
            readFields(fields.plain, into: &record, statement, key: key)
            record.projectId = reference(statement, 1, in: projects, origin: projectOrigin, key: key)
            record.categoryId = reference(statement, 2, in: categories, origin: categoryOrigin, key: key)
            if let entry = fields.modificationDate { readField(entry, into: &record, statement, key: key) }
            record.extra = extraValues(statement, from: fields.end, extraColumns, entity: entity, key: key)
            addLinks(to: &record.extra, of: .task, key: key)
            record.tagIds = tagLinks.tagIds(forRank: position)
            record.subtasks = try subtaskStream.subtasks(forRank: position)
            try visitor.visitTask(record, index: position)
            position += 1
            if position % 1_024 == 0 { try Cancellation.checkpoint() }
            if position % 10_000 == 0 { progress?(position, index.count) }
        }
    }

    /// Resolves a to-one foreign key through the destination's index; a key that names no row is reported.
    func reference(_ statement: Statement, _ column: Int32, in index: KeyIndex, origin: Origin, key row: Int64) -> UUID?
    {
        guard statement.columnType(at: column) != .null else { return nil }
        let key = statement.int64(at: column)
        if let id = statement.exactInteger(at: column).flatMap(index.id(of:)) { return id }
        if let kind = StoreMapping.Kind(rawValue: origin.field), isExcluded(kind) {
            log.add(
                .excludedReference, entity: origin.entity, property: origin.property,
                message: "refers to a \(origin.field) of an excluded entity; exported without it",
                example: "p\(row)→p\(key)")
            return nil
        }
        log.add(
            .danglingReference, entity: origin.entity, property: origin.property,
            message: "foreign key points at no \(origin.field) row; exported without a \(origin.field)",
            example: "p\(row)→p\(key)")
        return nil
    }

    /// With subtasks mapped but no task entity, every subtask is an orphan.
    func reportSubtasksWithoutTasks() throws {
        guard let kind = resolved.kinds[.subtask] else { return }
        let count =
            try database.scalar("SELECT count(*) FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)")?.int64
            ?? 0
        if count > 0 {
            log.add(
                .orphanSubtask, entity: kind.entity.name,
                message: "no task entity is mapped, so subtasks cannot be nested; not exported", count: Int(count))
        }
    }
}
