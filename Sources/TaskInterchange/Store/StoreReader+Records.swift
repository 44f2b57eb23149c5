import Foundation

/// Emitting each kind's records in id order.
extension StoreReader {
    func emitProjects(_ index: KeyIndex, into visitor: inout some ArchiveVisitor) throws {
        guard let kind = resolved.kinds[.project] else { return }
        let rank = try rankFunction("tasks_rank_project", index)
        let statement = try database.prepare(
            "SELECT Z_PK, \(selectList(kind, ["name", "createdAt", "modifiedAt"])) FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)\(selected(.project)) ORDER BY \(rank)(Z_PK)")
        var position = 0
        while try statement.step() {
            let key = statement.int64(at: 0)
            var record = ProjectRecord(
                id: index.ids[position],
                name: requiredString(statement, 1, Origin(entity: kind.entity.name, field: "name", column: kind.columns["name"], key: key)),
                createdAt: optionalDate(statement, 2, Origin(entity: kind.entity.name, field: "createdAt", column: kind.columns["createdAt"], key: key)))
            record.modifiedAt = optionalDate(statement, 3, Origin(entity: kind.entity.name, field: "modifiedAt", column: kind.columns["modifiedAt"], key: key))
            record.extra = extraValues(statement, from: 4, extraColumns(.project), entity: kind.entity.name, key: key)
            addLinks(to: &record.extra, of: .project, key: key)
            try visitor.visitProject(record, index: position)
            position += 1
        }
    }

    func emitCategories(_ index: KeyIndex, into visitor: inout some ArchiveVisitor) throws {
        guard let kind = resolved.kinds[.category] else { return }
        let rank = try rankFunction("tasks_rank_category", index)
        let statement = try database.prepare(
            "SELECT Z_PK, \(selectList(kind, ["name", "color"])) FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)\(selected(.category)) ORDER BY \(rank)(Z_PK)")
        var position = 0
        while try statement.step() {
            let key = statement.int64(at: 0)
            let origin = Origin(entity: kind.entity.name, field: "color", column: kind.columns["color"], key: key)
            var record = CategoryRecord(
                id: index.ids[position],
                name: requiredString(statement, 1, Origin(entity: kind.entity.name, field: "name", column: kind.columns["name"], key: key)),
                color: optionalString(statement, 2, origin) ?? CategoryRecord.defaultColor)
            record.extra = extraValues(statement, from: 3, extraColumns(.category), entity: kind.entity.name, key: key)
            addLinks(to: &record.extra, of: .category, key: key)
            try visitor.visitCategory(record, index: position)
            position += 1
        }
    }

    func emitTags(_ index: KeyIndex, into visitor: inout some ArchiveVisitor) throws {
        guard let kind = resolved.kinds[.tag] else { return }
        let rank = try rankFunction("tasks_rank_tag", index)
        let statement = try database.prepare(
            "SELECT Z_PK, \(selectList(kind, ["name"])) FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)\(selected(.tag)) ORDER BY \(rank)(Z_PK)")
        var position = 0
        while try statement.step() {
            let key = statement.int64(at: 0)
            var record = TagRecord(
                id: index.ids[position],
                name: requiredString(statement, 1, Origin(entity: kind.entity.name, field: "name", column: kind.columns["name"], key: key)))
            record.extra = extraValues(statement, from: 2, extraColumns(.tag), entity: kind.entity.name, key: key)
            addLinks(to: &record.extra, of: .tag, key: key)
            try visitor.visitTag(record, index: position)
            position += 1
        }
    }

    /// Tasks, merged with two more id-ordered streams: their tag join rows and their subtasks.
    func emitTasks(projects: KeyIndex, categories: KeyIndex, tags: KeyIndex, into visitor: inout some ArchiveVisitor,
                   progress: (@Sendable (Int, Int) -> Void)?) throws {
        guard let kind = resolved.kinds[.task] else {
            try reportSubtasksWithoutTasks()
            return
        }
        let entity = kind.entity.name
        let index = indexes[.task]!
        let rank = try rankFunction("tasks_rank_task", index)
        let fields = ["title", "notes", "isCompleted", "createdAt", "dueDate", "priority", "modifiedAt"]
        let projectColumn = resolved.taskProjectColumn.map(Database.quote) ?? "NULL"
        let categoryColumn = resolved.taskCategoryColumn.map(Database.quote) ?? "NULL"
        let statement = try database.prepare(
            "SELECT Z_PK, \(projectColumn), \(categoryColumn), \(selectList(kind, fields)) FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)\(selected(.task)) ORDER BY \(rank)(Z_PK)")
        var tagStream = try TagStream(reader: self, taskRank: rank, tags: tags)
        var subtaskStream = try SubtaskStream(reader: self, taskRank: rank)
        // Origins (for findings) built once; each row only sets its key.
        let templates = fields.map { Origin(entity: entity, field: $0, column: kind.columns[$0], key: 0) }
        let projectOrigin = Origin(entity: entity, field: "project", column: resolved.taskProjectColumn, key: 0)
        let categoryOrigin = Origin(entity: entity, field: "category", column: resolved.taskCategoryColumn, key: 0)
        var position = 0
        while try statement.step() {
            let key = statement.int64(at: 0)
            func origin(_ field: Int) -> Origin {
                var origin = templates[field]
                origin.key = key
                return origin
            }
            var record = TaskRecord(
                id: index.ids[position],
                title: requiredString(statement, 3, origin(0)),
                notes: optionalString(statement, 4, origin(1)),
                isCompleted: requiredBool(statement, 5, origin(2)),
                createdAt: requiredDate(statement, 6, origin(3)),
                dueDate: optionalDate(statement, 7, origin(4)),
                priority: priority(statement, 8, origin(5)))
            record.projectId = reference(statement, 1, in: projects, origin: projectOrigin, key: key)
            record.categoryId = reference(statement, 2, in: categories, origin: categoryOrigin, key: key)
            record.modifiedAt = optionalDate(statement, 9, origin(6))
            record.extra = extraValues(statement, from: 10, extraColumns(.task), entity: entity, key: key)
            addLinks(to: &record.extra, of: .task, key: key)
            record.tagIds = try tagStream.tagIds(forRank: position)
            record.subtasks = try subtaskStream.subtasks(forRank: position)
            try visitor.visitTask(record, index: position)
            position += 1
            if position % 1_024 == 0 { try Cancellation.checkpoint() }
            if position % 10_000 == 0 { progress?(position, index.count) }
        }
    }

    /// Resolves a to-one foreign key through the destination's index; a key that names no row is reported.
    func reference(_ statement: Statement, _ column: Int32, in index: KeyIndex, origin: Origin, key row: Int64) -> UUID? {
        guard statement.columnType(at: column) != 5 else { return nil }
        let key = statement.int64(at: column)
        if let id = index.id(of: key) { return id }
        if let kind = StoreMapping.Kind(rawValue: origin.field), isExcluded(kind) {
            log.add(.excludedReference, entity: origin.entity, property: origin.property,
                    message: "refers to a \(origin.field) of an excluded entity; exported without it", example: "p\(row)→p\(key)")
            return nil
        }
        log.add(.danglingReference, entity: origin.entity, property: origin.property,
                message: "foreign key points at no \(origin.field) row; exported without a \(origin.field)", example: "p\(row)→p\(key)")
        return nil
    }

    /// With subtasks mapped but no task entity, every subtask is an orphan.
    func reportSubtasksWithoutTasks() throws {
        guard let kind = resolved.kinds[.subtask] else { return }
        let count = try database.scalar("SELECT count(*) FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)")?.int64 ?? 0
        if count > 0 {
            log.add(.orphanSubtask, entity: kind.entity.name, message: "no task entity is mapped, so subtasks cannot be nested; not exported", count: Int(count))
        }
    }
}
