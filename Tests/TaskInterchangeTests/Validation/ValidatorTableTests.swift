import Foundation
import Testing
@testable import TaskInterchange

/// A raw table's statement, indexes and rows checked as an import runs them, so validation refuses what an import
/// would.
@Suite("Validator: raw tables")
struct ValidatorTableTests {
    static func table(
        _ statement: String, indexes: [String] = [], rows: [[RawTable.Cell]] = [[.integer(1), .text("one")]]
    )
        -> RawTable
    {
        RawTable(name: "APP_NOTES", statement: statement, indexes: indexes, columns: ["a", "b"], rows: rows)
    }

    @Test(
        "statements an import refuses are refused-statement issues at their path",
        arguments: [
            ("CREATE TABLE APP_NOTES AS SELECT 1 AS a, 2 AS b", "$.tables.APP_NOTES.statement", "a SELECT"),
            ("CREATE TABLE APP_NOTES (a, b); CREATE TABLE x (y)", "$.tables.APP_NOTES.statement", "a second statement"),
            ("CREATE TABLE other (a, b)", "$.tables.APP_NOTES.statement", "it creates other, not APP_NOTES"),
            (
                "CREATE TABLE APP_NOTES (a CHECK (load_extension('x')), b)", "$.tables.APP_NOTES.rows[0]",
                "not authorized"
            ),
        ])
    func refused(statement: String, path: String, reason: String) {
        let issues = Validator.issues(of: Self.table(statement))
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.code == .refusedStatement && issues.first?.path == path, "\(issues)")
        #expect(issues.first?.message.contains(reason) == true, "\(issues)")
        var validator = Validator()
        validator.visitTable(Self.table(statement), index: 0)
        #expect(!validator.report.isValid)
    }

    @Test("a plain table with its index and rows, a full-text table, and rows clashing (a mode's matter) pass")
    func accepted() {
        #expect(
            Validator.issues(
                of: Self.table("CREATE TABLE APP_NOTES (a, b)", indexes: ["CREATE INDEX i ON APP_NOTES (a)"])
            ).isEmpty)
        #expect(
            Validator.issues(
                of: RawTable(
                    name: "S", statement: "CREATE VIRTUAL TABLE S USING fts5(body)", columns: ["rowid", "body"],
                    rows: [[.integer(1), .text("x")]])
            ).isEmpty)
        let clash = Self.table(
            "CREATE TABLE APP_NOTES (a PRIMARY KEY, b)", rows: [[.integer(1), .null], [.integer(1), .null]])
        #expect(Validator.issues(of: clash).isEmpty)
        // Without rows the CHECK never runs, in an import as here.
        #expect(
            Validator.issues(of: Self.table("CREATE TABLE APP_NOTES (a CHECK (load_extension('x')), b)", rows: []))
                .isEmpty)
    }

    @Test("an index on another table or of another kind is refused at its own path")
    func refusedIndex() {
        let issues = Validator.issues(
            of: Self.table(
                "CREATE TABLE APP_NOTES (a, b)", indexes: ["CREATE TABLE z (a)", "CREATE INDEX j ON APP_NOTES (b)"]))
        #expect(issues.map(\.path) == ["$.tables.APP_NOTES.indexes[0]"], "\(issues)")
    }

    @Test("a database in memory is one: no file named :memory: appears, and each is empty")
    func memoryDatabase() throws {
        let first = try Database(path: ":memory:", mode: .memory)
        try first.execute("CREATE TABLE t (a)")
        let second = try Database(path: ":memory:", mode: .memory)
        #expect(try second.scalar("SELECT count(*) FROM sqlite_master")?.int64 == 0)
        #expect(try first.scalar("SELECT count(*) FROM sqlite_master")?.int64 == 1)
        #expect(!FileManager.default.fileExists(atPath: ":memory:"))
    }
}
