import Testing
@testable import TaskInterchange

@Suite("Row writing")
struct RowWritingTests {
    @Test("a statement is prepared once per SQL text and handed out again; a failed one is not kept")
    func prepared() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("rows.sqlite"), mode: .create)
        try database.execute("CREATE TABLE T (A INTEGER)")
        var rows = RowWriting()
        let insert = try rows.prepared("INSERT INTO T VALUES (?)", in: database)
        #expect(try rows.prepared("INSERT INTO T VALUES (?)", in: database) === insert)
        let select = try rows.prepared("SELECT A FROM T", in: database)
        #expect(select !== insert)
        #expect(throws: SQLiteError.self) { try rows.prepared("SELECT B FROM T", in: database) }
        try database.execute("ALTER TABLE T ADD COLUMN B INTEGER")
        let late = try rows.prepared("SELECT B FROM T", in: database)
        #expect(try rows.prepared("SELECT B FROM T", in: database) === late)
    }

    @Test("the keys it hands out start after the table's recorded maximum")
    func keys() throws {
        var rows = RowWriting()
        #expect(!rows.keys.hasStarted("ZTASK"))
        #expect(try rows.keys.start("ZTASK", after: 7) == 8)
        #expect(rows.keys.hasStarted("ZTASK"))
        #expect(try rows.keys.take(in: "ZTASK") == 9)
    }
}
