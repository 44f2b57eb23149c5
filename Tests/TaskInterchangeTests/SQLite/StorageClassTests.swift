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
        // An integer function registered on the connection reads its argument as a row's key is read: NULL stays
        // NULL, anything else is converted to an integer by SQLite.
        try database.createFunction("twice") { $0 * 2 }
        #expect(try database.scalar("SELECT twice(21)") == .integer(42))
        #expect(try database.scalar("SELECT twice('21')") == .integer(42))
        #expect(try database.scalar("SELECT twice(NULL)") == .null)
    }
}
