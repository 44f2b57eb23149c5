import Testing
@testable import TaskInterchange

@Suite("Row write queue")
struct RowWriteQueueTests {
    /// A table of rows 1…6 (`ZSEQ`: how many rows the connection had changed when the row was last written) and a join
    /// table.
    private func database() throws -> Database {
        let database = try Database(path: ":memory:", mode: .create)
        try database.execute(
            """
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, ZSHELF INTEGER, ZORDER INTEGER, ZSEQ INTEGER);
            CREATE TABLE Z_JOIN (A INTEGER, B INTEGER, P INTEGER, PRIMARY KEY (A, B));
            WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 6)
              INSERT INTO ZITEM (Z_PK) SELECT n FROM k;
            """)
        return database
    }

    private func values(_ numbers: Int64...) -> RowWriteQueue.Values {
        var values = RowWriteQueue.Values()
        for number in numbers { values.append(number) }
        return values
    }

    @Test("writes run in row order, those to one row in the order queued, each bound as its layout says")
    func order() throws {
        let database = try database()
        var queue = RowWriteQueue()
        let update = queue.register(
            try database.prepare("UPDATE ZITEM SET ZSHELF = ?1, ZORDER = ?2, ZSEQ = total_changes() WHERE Z_PK = ?3"),
            .update)
        let insert = queue.register(
            try database.prepare("INSERT OR REPLACE INTO Z_JOIN (A, B, P) VALUES (?, ?, ?)"), .insert)
        // An ordered to-many from two owners, in owner order: rows 6, 2, 4 then 5, 1, 3; row 4 claimed twice.
        for (position, row) in [6, 2, 4].enumerated() {
            try queue.add(update, row: Int64(row), values: values(10, Int64(position)))
        }
        for (position, row) in [5, 1, 3, 4].enumerated() {
            try queue.add(update, row: Int64(row), values: values(20, Int64(position)))
        }
        try queue.add(insert, row: 2, member: 9, values: values(1))
        try queue.add(insert, row: 1, member: 9, values: values(2))
        try queue.add(insert, row: 2, member: 9, values: values(3))
        #expect(!queue.isEmpty)
        #expect(try database.rows("SELECT count(*) FROM ZITEM WHERE ZSHELF IS NOT NULL").first?.first?.int64 == 0)
        try queue.drain()
        #expect(queue.isEmpty)
        // Rows were written in key order: each one's count of changes before it grows with its key.
        let sequence = try database.rows("SELECT ZSEQ FROM ZITEM ORDER BY Z_PK").map { $0[0].int64 ?? -1 }
        #expect(sequence == sequence.sorted() && Set(sequence).count == 6)
        let rows = try database.rows("SELECT Z_PK, ZSHELF, ZORDER FROM ZITEM ORDER BY Z_PK").map {
            $0.map(\.int64)
        }
        #expect(rows == [[1, 20, 1], [2, 10, 1], [3, 20, 2], [4, 20, 3], [5, 20, 0], [6, 10, 0]])
        #expect(
            try database.rows("SELECT A, B, P FROM Z_JOIN ORDER BY A").map { $0.map(\.int64) } == [
                [1, 9, 2], [2, 9, 3],
            ])
    }

    @Test("a failed write stops the rest and empties the queue; removeAll drops writes, not statements")
    func failure() throws {
        let database = try database()
        var queue = RowWriteQueue()
        let insert = queue.register(try database.prepare("INSERT INTO Z_JOIN (A, B) VALUES (?, ?)"), .insert)
        try queue.add(insert, row: 1, member: 1)
        try queue.add(insert, row: 1, member: 1)
        try queue.add(insert, row: 2, member: 1)
        #expect(throws: SQLiteError.self) { try queue.drain() }
        #expect(queue.isEmpty)
        #expect(try database.rows("SELECT A FROM Z_JOIN").map { $0[0].int64 } == [1])
        try queue.add(insert, row: 3, member: 1)
        queue.removeAll()
        try queue.drain()
        try queue.add(insert, row: 4, member: 1)
        try queue.drain()
        #expect(try database.rows("SELECT A FROM Z_JOIN ORDER BY A").map { $0[0].int64 } == [1, 4])
    }

    @Test("a derived write runs before the row's other writes, whenever it was queued")
    func derived() throws {
        let database = try database()
        var queue = RowWriteQueue()
        let update = queue.register(try database.prepare("UPDATE ZITEM SET ZORDER = ?1 WHERE Z_PK = ?2"), .update)
        try queue.add(update, row: 3, values: values(2048))
        try queue.add(update, row: 3, values: values(1024), derived: true)
        try queue.add(update, row: 2, values: values(7), derived: true)
        try queue.drain()
        let rows = try database.rows("SELECT Z_PK, ZORDER FROM ZITEM WHERE ZORDER IS NOT NULL ORDER BY Z_PK")
        #expect(rows.map { $0.map(\.int64) } == [[2, 7], [3, 2048]])
    }

    @Test("at its limit the queue runs what it holds, in row order, unless it runs whole (a derived write came)")
    func limit() throws {
        let database = try database()
        var queue = RowWriteQueue(limit: 2)
        let update = queue.register(
            try database.prepare("UPDATE ZITEM SET ZORDER = ?1, ZSEQ = total_changes() WHERE Z_PK = ?2"), .update)
        func written() throws -> [Int64?] {
            try database.rows("SELECT Z_PK FROM ZITEM WHERE ZORDER IS NOT NULL ORDER BY ZSEQ, Z_PK").map { $0[0].int64 }
        }
        try queue.add(update, row: 5, values: values(1))
        try queue.add(update, row: 4, values: values(1))
        #expect(try written().isEmpty)
        try queue.add(update, row: 6, values: values(1))
        #expect(try written() == [4, 5])
        try queue.add(update, row: 1, values: values(1), derived: true)
        try queue.add(update, row: 2, values: values(1))
        try queue.add(update, row: 3, values: values(1))
        #expect(try written() == [4, 5])
        try queue.drain()
        #expect(try written() == [4, 5, 1, 2, 3, 6])
        // Told up front (a model change): no part runs before a derived write that comes later.
        var whole = RowWriteQueue(limit: 1)
        whole.runsWhole = true
        let order = whole.register(try database.prepare("UPDATE ZITEM SET ZSHELF = ?1 WHERE Z_PK = ?2"), .update)
        try whole.add(order, row: 3, values: values(7))
        try whole.add(order, row: 2, values: values(8))
        try whole.add(order, row: 3, values: values(1024), derived: true)
        try whole.drain()
        #expect(try database.rows("SELECT ZSHELF FROM ZITEM WHERE Z_PK = 3").first?.first?.int64 == 7)
    }
}
