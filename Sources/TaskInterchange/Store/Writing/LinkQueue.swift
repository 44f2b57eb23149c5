/// The task–tag join rows an import writes at its end, after both ends of every link exist: queued per tag, and
/// handed back in the join table's key order (tag, then task), so its primary-key index grows at its end instead of
/// at one place per tag.
struct LinkQueue {
    /// Task keys per tag key, in the order they were queued.
    private var tasksByTag: [Int64: [Int64]] = [:]
    /// How many links are queued.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues `task`'s links to `tags`.
    mutating func add(task: Int64, tags: [Int64]) {
        for tag in tags { tasksByTag[tag, default: []].append(task) }
        count += tags.count
    }

    /// Hands every queued link to `body` in key order (tag, then task) and empties the queue; a link `body` throws at
    /// and the ones after it are dropped with it.
    mutating func drain(_ body: (_ task: Int64, _ tag: Int64) throws -> Void) rethrows {
        defer { removeAll() }
        for tag in tasksByTag.keys.sorted() {
            var tasks = tasksByTag.removeValue(forKey: tag)!
            // New tasks come in key order; updated ones may not.
            if zip(tasks, tasks.dropFirst()).contains(where: { $0 > $1 }) { tasks.sort() }
            for task in tasks { try body(task, tag) }
        }
    }

    /// Drops every queued link (a rolled-back transaction's).
    mutating func removeAll() {
        tasksByTag = [:]
        count = 0
    }
}
