import Foundation
import Testing
import TaskInterchange

/// Tables the app added outside its model, end to end: carried and restored, a hostile statement in an archive
/// refused with 65 and its path, a table that cannot be carried failing `--strict`.
@Suite("Raw tables (command line)")
struct RawTableCommandTests {
    /// The sample store with an app table and a full-text index, each with rows.
    static func store(_ extra: String = "") throws -> (Scratch, String) {
        let scratch = try Scratch()
        let path = try scratch.sampleStore()
        try Database(path: path, mode: .readWrite).execute(
            """
            CREATE TABLE APP_NOTES (a, b);
            INSERT INTO APP_NOTES VALUES (1, 'one'), (2.5, X'00FF');
            CREATE VIRTUAL TABLE ZSEARCH USING fts5(body);
            INSERT INTO ZSEARCH (rowid, body) VALUES (4, 'hello world');
            """ + extra)
        return (scratch, path)
    }

    @Test("export carries them, a restore recreates them, inspect lists them")
    func restore() throws {
        let (scratch, path) = try Self.store()
        let export = try GuardedRun.run(["export", "--store", path, "--strict", "-o", scratch.path("a.json")])
        #expect(export.status == 0, "\(export.stderr)")
        let restore = try GuardedRun.run([
            "import", "--store", scratch.path("new.sqlite"), "--model-from", path, "--keep-identity",
            scratch.path("a.json"),
        ])
        #expect(restore.status == 0, "\(restore.stderr)")
        let inspect = try GuardedRun.run(["inspect", "--store", scratch.path("new.sqlite")])
        #expect(inspect.stdout.contains("    APP_NOTES (2 rows): raw"), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("    ZSEARCH (fts5, 1 row): raw"), "\(inspect.stdout)")
    }

    @Test("an archive whose table statement creates its table AS SELECT is refused: 65, its path, no store made")
    func hostileStatement() throws {
        let (scratch, path) = try Self.store()
        let export = try GuardedRun.run(["export", "--store", path, "-o", scratch.path("a.json")])
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOfFile: scratch.path("a.json"), encoding: .utf8)
        let hostile = text.replacingOccurrences(
            of: "\"CREATE TABLE APP_NOTES (a, b)\"", with: "\"CREATE TABLE APP_NOTES AS SELECT * FROM Z_METADATA\"")
        #expect(hostile != text)
        try Data(hostile.utf8).write(to: URL(fileURLWithPath: scratch.path("hostile.json")))
        // A new store of the built-in model lacks the table: it would be made from the archive's statement.
        let restore = try GuardedRun.run([
            "import", "--store", scratch.path("new.sqlite"), scratch.path("hostile.json"),
        ])
        #expect(restore.status == 65, "\(restore.stderr)")
        #expect(restore.stderr.contains("$.tables.APP_NOTES.statement: refused-statement: "), "\(restore.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
    }

    @Test(
        "validate refuses what import refuses: AS SELECT, two statements, a CHECK calling load_extension (65, its path)",
        arguments: [
            ("CREATE TABLE APP_NOTES AS SELECT * FROM Z_METADATA", "$.tables.APP_NOTES.statement", "CREATE TABLE"),
            (
                "CREATE TABLE APP_NOTES (a, b); CREATE TABLE EXTRA (c)", "$.tables.APP_NOTES.statement",
                "a second statement"
            ),
            (
                "CREATE TABLE APP_NOTES (a CHECK (load_extension('x')), b)", "$.tables.APP_NOTES.rows[0]",
                "not authorized"
            ),
        ])
    func validateAgreesWithImport(statement: String, path: String, reason: String) throws {
        let (scratch, store) = try Self.store()
        let export = try GuardedRun.run(["export", "--store", store, "-o", scratch.path("a.json")])
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOfFile: scratch.path("a.json"), encoding: .utf8)
        let hostile = text.replacingOccurrences(
            of: "\"CREATE TABLE APP_NOTES (a, b)\"", with: "\"\(statement.replacingOccurrences(of: "'", with: "'"))\"")
        #expect(hostile != text)
        try Data(hostile.utf8).write(to: URL(fileURLWithPath: scratch.path("hostile.json")))
        let validate = try GuardedRun.run(["validate", scratch.path("hostile.json")])
        let importRun = try GuardedRun.run([
            "import", "--store", scratch.path("new.sqlite"), scratch.path("hostile.json"),
        ])
        let dryRun = try GuardedRun.run([
            "import", "--dry-run", "--store", scratch.path("new.sqlite"), scratch.path("hostile.json"),
        ])
        for (name, run) in [("validate", validate), ("import", importRun), ("import --dry-run", dryRun)] {
            #expect(run.status == 65, "\(name): \(run.stderr)")
            #expect(run.stderr.contains("\(path): refused-statement: "), "\(name): \(run.stderr)")
            #expect(run.stderr.contains(reason), "\(name): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
    }

    @Test("a table that cannot be carried is named with its rows, and --strict fails with nothing written")
    func strict() throws {
        let (scratch, path) = try Self.store(
            """
            CREATE VIRTUAL TABLE ZINDEX USING fts5(body, content='');
            INSERT INTO ZINDEX (rowid, body) VALUES (1, 'one'), (2, 'two');
            """)
        let export = try GuardedRun.run(["export", "--store", path, "-o", scratch.path("a.json")])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("ZINDEX: uncarried-table: "), "\(export.stderr)")
        let strict = try GuardedRun.run(["export", "--store", path, "--strict", "-o", scratch.path("b.json")])
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("b.json")))
    }
}
