import Foundation

/// Id-ordered streams of a task's tag links and subtasks, merged with the task rows by rank.
extension StoreReader {
    /// Join rows sorted by (task rank, tag rank); rows pointing at missing tasks or tags sort first (NULL) and are
    /// reported.
    struct TagStream {
        private let reader: StoreReader
        private let statement: Statement?
        private let tags: KeyIndex
        private var current: (task: Int, tag: Int)?
        private var finished = false

        init(reader: StoreReader, taskRank: String, tags: KeyIndex) throws {
            self.reader = reader
            self.tags = tags
            guard let join = reader.resolved.tagJoin else {
                statement = nil
                finished = true
                return
            }
            let taskColumn = Database.quote(join.taskColumn)
            let tagColumn = Database.quote(join.tagColumn)
            statement = try reader.database.prepare(
                "SELECT \(taskRank)(\(taskColumn)) AS task_rank, tasks_rank_tag(\(tagColumn)) AS tag_rank, \(taskColumn), \(tagColumn) FROM \(Database.quote(join.table)) WHERE 1\(reader.selected(.task, join.taskColumn)) ORDER BY task_rank, tag_rank"
            )
            try advance()
        }

        private mutating func advance() throws {
            guard let statement, !finished else { return }
            while try statement.step() {
                if statement.isNull(at: 0) || statement.isNull(at: 1) {
                    let table = reader.resolved.tagJoin?.table
                    if !statement.isNull(at: 0), reader.isExcluded(.tag) {
                        reader.log.add(
                            .excludedReference, entity: table, property: nil,
                            message: "links to tags of an excluded entity; not exported",
                            example: "p\(statement.int64(at: 2))↔p\(statement.int64(at: 3))")
                        continue
                    }
                    reader.log.add(
                        .danglingReference, entity: table, property: nil,
                        message: statement.isNull(at: 0)
                            ? "join row points at no task row; link not exported"
                            : "join row points at no tag row; link not exported",
                        example: "p\(statement.int64(at: 2))↔p\(statement.int64(at: 3))")
                    continue
                }
                current = (Int(statement.int64(at: 0)), Int(statement.int64(at: 1)))
                return
            }
            current = nil
            finished = true
        }

        /// The tag ids of the task at `rank`, sorted by id.
        mutating func tagIds(forRank rank: Int) throws -> [UUID] {
            var ids: [UUID] = []
            while let row = current, row.task <= rank {
                if row.task == rank, ids.last != tags.ids[row.tag] { ids.append(tags.ids[row.tag]) }
                try advance()
            }
            return ids
        }
    }

    /// Subtask rows sorted by (task rank, position); subtasks of no existing task sort first and are reported.
    struct SubtaskStream {
        private let reader: StoreReader
        private let statement: Statement?
        private let index: KeyIndex
        private var currentRank: Int?
        private var finished = false
        private let entity: String
        private let fields: FieldColumns<SubtaskRecord>?
        private let extraColumns: [StoreExtras.Column]

        init(reader: StoreReader, taskRank: String) throws {
            self.reader = reader
            extraColumns = reader.extraColumns(.subtask)
            guard let kind = reader.resolved.kinds[.subtask] else {
                statement = nil
                index = KeyIndex([])
                finished = true
                entity = ""
                fields = nil
                return
            }
            entity = kind.entity.name
            let fields = FieldColumns<SubtaskRecord>(kind, from: 4)
            self.fields = fields
            index = reader.indexes[.subtask]!
            let subtaskRank = try reader.rankFunction("tasks_rank_subtask", index)
            let taskColumn = reader.resolved.subtaskTaskColumn.map(Database.quote) ?? "NULL"
            let orderColumn = reader.resolved.subtaskOrderColumn.map(Database.quote)
            let order = orderColumn.map { "\($0), Z_PK" } ?? "\(subtaskRank)(Z_PK)"
            statement = try reader.database.prepare(
                "SELECT \(taskRank)(\(taskColumn)) AS task_rank, Z_PK, \(taskColumn), \(orderColumn ?? "NULL"), \(reader.selectList(fields.selectList, .subtask)) FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)\(reader.selected(.subtask)) ORDER BY task_rank, \(order)"
            )
            try advance()
        }

        private mutating func advance() throws {
            guard let statement, !finished else { return }
            while try statement.step() {
                if statement.isNull(at: 0) {
                    reader.log.add(
                        .orphanSubtask, entity: entity, property: nil,
                        message: statement.isNull(at: 2)
                            ? "subtask belongs to no task; not exported"
                            : "subtask's task key points at no task row; not exported",
                        example: "p\(statement.int64(at: 1))")
                    continue
                }
                currentRank = Int(statement.int64(at: 0))
                return
            }
            currentRank = nil
            finished = true
        }

        /// The subtasks of the task at `rank`, in order.
        mutating func subtasks(forRank rank: Int) throws -> [SubtaskRecord] {
            var result: [SubtaskRecord] = []
            while let current = currentRank, current <= rank, let statement {
                if current == rank {
                    let key = statement.int64(at: 1)
                    var subtask = SubtaskRecord(blank: index.id(of: key)!)
                    subtask.key = key
                    if statement.columnType(at: 3) == 1 { subtask.position = statement.int64(at: 3) }
                    if let fields { reader.readFields(fields.plain, into: &subtask, statement, key: key) }
                    subtask.extra = reader.extraValues(
                        statement, from: fields?.end ?? 0, extraColumns, entity: entity, key: key)
                    reader.addLinks(to: &subtask.extra, of: .subtask, key: key)
                    result.append(subtask)
                }
                try advance()
            }
            return result
        }
    }
}
