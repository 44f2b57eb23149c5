import CSQLite
import Testing
@testable import TaskInterchange

@Suite("SQLite storage classes")
struct StorageClassTests {
    @Test("each of SQLite's codes names its class")
    func codes() {
        #expect(StorageClass(SQLITE_INTEGER) == .integer)
        #expect(StorageClass(SQLITE_FLOAT) == .real)
        #expect(StorageClass(SQLITE_TEXT) == .text)
        #expect(StorageClass(SQLITE_BLOB) == .blob)
        #expect(StorageClass(SQLITE_NULL) == .null)
    }

    @Test("a row's values have the class SQLite stored them as, whatever the column's declared type")
    func columnTypes() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("classes.sqlite"), mode: .create)
        try database.execute("CREATE TABLE T (A INTEGER, B); INSERT INTO T VALUES (1, 1.5), ('x', x'00'), (NULL, 2)")
        let statement = try database.prepare("SELECT A, B FROM T ORDER BY rowid")
        var classes: [[StorageClass]] = []
        while try statement.step() { classes.append([statement.columnType(at: 0), statement.columnType(at: 1)]) }
        #expect(classes == [[.integer, .real], [.text, .blob], [.null, .integer]])
        // An integer function registered on the connection reads its argument as a row's key is read: a value that
        // is exactly an integer (its text, a whole real) is one; NULL and anything else give NULL.
        try database.createFunction("twice") { $0 * 2 }
        #expect(try database.scalar("SELECT twice(21)") == .integer(42))
        #expect(try database.scalar("SELECT twice('21')") == .integer(42))
        #expect(try database.scalar("SELECT twice(21.0)") == .integer(42))
        #expect(try database.scalar("SELECT twice(NULL)") == .null)
        #expect(try database.scalar("SELECT twice(21.5)") == .null)
        #expect(try database.scalar("SELECT twice('21abc')") == .null)
        #expect(try database.scalar("SELECT twice(x'15')") == .null)
        #expect(try database.scalar("SELECT twice(9223372036854775808.0)") == .null)
        #expect(try database.scalar("SELECT twice('21' || char(0) || 'x')") == .null)
    }

    @Test("a value reads as an exact integer key only when it is one")
    func exactInteger() throws {
        let database = try Database(path: ":memory:", mode: .create)
        let statement = try database.prepare(
            "SELECT 7, '7', '+7', 7.0, 7.5, 'abc', NULL, x'07', 9223372036854775808.0, -9223372036854775808.0, "
                + "' 7 ', '7.0', '7e2', '0x7', 'inf', '7.5', '', ' ', '7' || char(0) || 'x'")
        #expect(try statement.step())
        let read = (0..<statement.columnCount).map { statement.exactInteger(at: $0) }
        #expect(
            read == [7, 7, 7, 7, nil, nil, nil, nil, nil, Int64.min, 7, 7, 700, nil, nil, nil, nil, nil, nil])
        // Every text read as a key is one SQLite's comparison finds equal to that key.
        for (column, key) in zip(Int32(10)..., read[10...]) {
            guard let key else { continue }
            let text = try #require(statement.text(at: column))
            #expect(try database.scalar("SELECT CAST(? AS NUMERIC) = ?", [.text(text), .integer(key)]) == .integer(1))
        }
    }
}
