import Foundation

/// A task's tag links (read ahead) and subtasks (an id-ordered stream), merged with the task rows by rank.
extension StoreReader {
    /// Every task's tag links, read ahead in one pass over the join table in task-key order (its index gives that
    /// order without a sort; sorting its rows by task and tag rank in SQL cost more than the rest of the export's
    /// reading of them), 4 bytes a link plus 8 a task. Join rows pointing at missing tasks or tags are reported.
    struct TagLinks {
        private let tags: KeyIndex
        /// Tag ranks, grouped by task.
        private var tagRanks: [Int32] = []
        /// Per task rank, where its tag ranks start and end in `tagRanks`.
        private var start: [Int32] = []
        private var end: [Int32] = []

        init(reader: StoreReader, tasks: KeyIndex, tags: KeyIndex) throws {
            self.tags = tags
            guard let join = reader.resolved.tagJoin else { return }
            start = [Int32](repeating: 0, count: tasks.count)
            end = start
            var current = -1
            let taskColumn = Database.quote(join.taskColumn)
            let tagColumn = Database.quote(join.tagColumn)
            let statement = try reader.database.prepare(
                "SELECT \(taskColumn), \(tagColumn) FROM \(Database.quote(join.table)) "
                    + "WHERE 1\(reader.selected(.task, join.taskColumn)) "
                    + "ORDER BY \(try reader.keyOrder(join.table, join.taskColumn)), "
                    + "\(try reader.keyOrder(join.table, join.tagColumn))")
            while try statement.step() {
                let taskKey = statement.int64(at: 0)
                let tagKey = statement.int64(at: 1)
                let task = statement.exactInteger(at: 0).flatMap(tasks.rank(of:))
                guard let task, let tag = statement.exactInteger(at: 1).flatMap(tags.rank(of:)) else {
                    if task != nil, reader.isExcluded(.tag) {
                        reader.log.add(
                            .excludedReference, entity: join.table, property: nil,
                            message: "links to tags of an excluded entity; not exported",
                            example: "p\(taskKey)↔p\(tagKey)")
                        continue
                    }
                    reader.log.add(
                        .danglingReference, entity: join.table, property: nil,
                        message: task == nil
                            ? "join row points at no task row; link not exported"
                            : "join row points at no tag row; link not exported",
                        example: "p\(taskKey)↔p\(tagKey)")
                    continue
                }
                // Rows come grouped by task key, and a key has one rank: a task's links are contiguous.
                if start[task] == end[task] {
                    if current >= 0 { settle(current) }
                    current = task
                    start[task] = Int32(tagRanks.count)
                }
                tagRanks.append(Int32(tag))
                end[task] = Int32(tagRanks.count)
            }
            if current >= 0 { settle(current) }
        }

        /// Sorts a task's tag ranks (ranks follow id order, so this sorts its ids) and drops repeated ones.
        private mutating func settle(_ task: Int) {
            let range = Int(start[task])..<Int(end[task])
            guard range.count > 1 else { return }
            tagRanks[range].sort()
            var kept = range.lowerBound
            for position in range where position == range.lowerBound || tagRanks[position] != tagRanks[kept - 1] {
                tagRanks[kept] = tagRanks[position]
                kept += 1
            }
            end[task] = Int32(kept)
        }

        /// The tag ids of the task at `rank`, sorted by id, each once.
        func tagIds(forRank rank: Int) -> [UUID] {
            guard rank < start.count else { return [] }
            let range = Int(start[rank])..<Int(end[rank])
            // Through buffers: this runs once per task, and subscripting the arrays cost more than the rest.
            return tags.ids.withUnsafeBufferPointer { ids in
                tagRanks.withUnsafeBufferPointer { ranks in range.map { ids[Int(ranks[$0])] } }
            }
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
            let keyColumn = CoreDataNames.primaryKey
            let order = orderColumn.map { "\($0), \(keyColumn)" } ?? "\(subtaskRank)(\(keyColumn))"
            statement = try reader.database.prepare(
                "SELECT \(taskRank)(\(taskColumn)) AS task_rank, \(keyColumn), \(taskColumn), "
                    + "\(orderColumn ?? "NULL"), "
                    + "\(reader.selectList(fields.selectList, .subtask)) FROM \(Database.quote(kind.table)) "
                    + "WHERE \(kind.entityFilter)\(reader.selected(.subtask)) ORDER BY task_rank, \(order)"
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
                    if statement.columnType(at: 3) == .integer { subtask.position = statement.int64(at: 3) }
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
