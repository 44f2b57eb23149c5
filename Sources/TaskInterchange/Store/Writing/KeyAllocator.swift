/// The primary keys (`Z_PK`) one import hands out, per table: each table's next key once its first is known, and
/// whether the table keeps the keys the archive gives its rows. What the store says (`Z_MAX`, the largest key present)
/// is read by `StoreWriter` (`StoreWriter+Keys.swift`), which starts a table here and writes `Z_MAX` back from
/// `finish()`.
struct KeyAllocator {
    /// The next key of each table this import has written to.
    private var next: [String: Int64] = [:]
    /// Per table: whether its rows keep the archive's keys, decided at its first insert.
    var keepsKeys: [String: Bool] = [:]

    /// Whether `table` has a next key (a key was handed out or kept there).
    func hasStarted(_ table: String) -> Bool { next[table] != nil }

    /// The next key of `table`, or nil before it has started (`start(_:after:)`).
    /// - Throws: `TaskInterchangeError.invalidData` when SQLite's largest key was handed out.
    mutating func take(in table: String) throws(TaskInterchangeError) -> Int64? {
        guard let key = next[table] else { return nil }
        return try hand(key, in: table)
    }

    /// Starts `table` above `last` (the larger of its root's `Z_MAX` and its largest key), and hands out its first key.
    mutating func start(_ table: String, after last: Int64) throws(TaskInterchangeError) -> Int64 {
        guard last < .max else { throw Self.noKeyLeft(table, after: last) }
        return try hand(last + 1, in: table)
    }

    /// Notes a key kept from the archive: keys handed out later go above it.
    mutating func useKept(_ key: Int64, in table: String) throws(TaskInterchangeError) {
        guard key < .max else { throw Self.noKeyLeft(table, after: key) }
        next[table] = max(next[table] ?? 1, key + 1)
    }

    /// Makes `key` the next key of `table` again (nil: the table has not started), for a key taken only to learn
    /// where new keys begin.
    mutating func giveBack(_ key: Int64?, in table: String) {
        next[table] = key
    }

    /// The next key of `table` without taking it (nil before it has started).
    func peek(_ table: String) -> Int64? { next[table] }

    /// The last key handed out or kept per table, by table name, and a fresh start: what goes back to `Z_MAX`.
    mutating func finish() -> [(table: String, last: Int64)] {
        defer { next = [:] }
        return next.sorted { $0.key < $1.key }.map { ($0.key, $0.value - 1) }
    }

    private mutating func hand(_ key: Int64, in table: String) throws(TaskInterchangeError) -> Int64 {
        guard key < .max else { throw Self.noKeyLeft(table, after: key) }
        next[table] = key + 1
        return key
    }

    private static func noKeyLeft(_ table: String, after key: Int64) -> TaskInterchangeError {
        TaskInterchangeError(
            .invalidData,
            "\(table): keys reach \(key), and SQLite's largest is \(Int64.max): no key is left for new objects")
    }
}
