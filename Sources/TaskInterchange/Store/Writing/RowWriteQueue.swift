/// The row writes of generic relationships, queued until the end of the import's transaction and run in the order of
/// the rows they write.
///
/// Links come grouped by their owner, but many change other rows: an ordered to-many kept in its destinations' rows
/// writes one row per destination, spread over the whole table, so owner after owner walked the table again and, once
/// the table outgrew SQLite's page cache, wrote every page back many times. In row order each table is walked once.
///
/// Each queued statement changes only the row its keys name (an `UPDATE … WHERE Z_PK = ?`, or one join row by its two
/// keys), so running writes to different rows in another order changes nothing but the speed; writes to one row keep
/// the order they were queued in (the sort is stable), derived ones first (`add`). A statement that reads or changes
/// rows by anything else (a clear of an owner's links) must `drain` the queue first.
struct RowWriteQueue {
    /// How a queued write's values bind to its statement.
    enum Layout {
        /// `UPDATE … SET ?1, … WHERE Z_PK = ?n`: the values, then the row's key.
        case update
        /// `INSERT INTO <join table> (<owner>, <member>, …) VALUES (?1, ?2, …)`: the row's two keys, then the values.
        case insert
    }

    /// Up to three values of one write, kept inline (a link write is queued per destination: no allocation each).
    struct Values {
        fileprivate var slots: (Int64, Int64, Int64) = (0, 0, 0)
        fileprivate var count: UInt8 = 0

        init() {}

        /// Adds `value` after the others.
        mutating func append(_ value: Int64) {
            precondition(count < 3, "a queued link write binds at most three values")
            withUnsafeMutableBytes(of: &slots) {
                $0.storeBytes(of: value, toByteOffset: Int(count) * 8, as: Int64.self)
            }
            count += 1
        }

        fileprivate subscript(offset: Int) -> Int64 {
            withUnsafeBytes(of: slots) { $0.load(fromByteOffset: offset * 8, as: Int64.self) }
        }
    }

    /// One write: the row it changes (a join row by both keys) and its values.
    private struct Write {
        var row: Int64
        var member: Int64
        var statement: Int32
        /// 0 for a derived write, 1 for the others: derived ones go first within a row.
        var rank: UInt8
        var values: Values
    }

    private var statements: [(statement: Statement, layout: Layout)] = []
    private var writes: [Write] = []
    /// Runs only whole, never in parts: set when derived writes may come (a part already run could not go after
    /// them), and by the first one.
    var runsWhole = false
    /// Writes held before the queue runs the ones it holds, in row order, to bound its memory (56 bytes a write,
    /// half again while sorting): a part walks each table once, as the whole would.
    let limit: Int

    var isEmpty: Bool { writes.isEmpty }

    init(limit: Int = 1 << 20) {
        self.limit = limit
    }

    /// Makes `statement` one the queue can run; the number names it in `add`.
    mutating func register(_ statement: Statement, _ layout: Layout) -> Int32 {
        statements.append((statement, layout))
        return Int32(statements.count - 1)
    }

    /// Queues a write of `values` to the row `row` (with `member`: the join row of both keys). A `derived` write (a
    /// link written from the other side of its pair) runs before the other writes to its row, whenever it was queued.
    /// At `limit` writes the queue runs those it holds, unless it `runsWhole`.
    /// - Throws: what running them throws.
    mutating func add(
        _ statement: Int32, row: Int64, member: Int64 = 0, values: Values = Values(), derived: Bool = false
    ) throws(SQLiteError) {
        if writes.count >= limit && !runsWhole { try drain() }
        writes.append(Write(row: row, member: member, statement: statement, rank: derived ? 0 : 1, values: values))
        runsWhole = runsWhole || derived
    }

    /// Runs every queued write in row order and empties the queue; the first failure stops it (the transaction that
    /// queued them rolls back).
    mutating func drain() throws(SQLiteError) {
        defer { removeAll() }
        writes.sort { ($0.row, $0.member, $0.rank) < ($1.row, $1.member, $1.rank) }
        for write in writes {
            let (statement, layout) = statements[Int(write.statement)]
            var index: Int32 = 1
            if layout == .insert {
                statement.bind(write.row, at: 1)
                statement.bind(write.member, at: 2)
                index = 3
            }
            for offset in 0..<Int(write.values.count) {
                statement.bind(write.values[offset], at: index + Int32(offset))
            }
            if layout == .update { statement.bind(write.row, at: index + Int32(write.values.count)) }
            try statement.run()
        }
    }

    /// Drops every queued write (a rolled-back transaction's); the statements and `runsWhole` stay.
    mutating func removeAll() {
        writes = []
    }
}
