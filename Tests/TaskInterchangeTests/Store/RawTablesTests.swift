import Foundation
import Testing

@testable import TaskInterchange

/// Tables the app added to its store outside its model: carried raw (statement, indexes, every row bit for bit), and
/// restored by their own statements (a virtual table's shadow tables made by SQLite), triggers and all.
@Suite("Raw tables")
struct RawTablesTests {
    /// The app's own tables beside Core Data's: an FTS4 and an FTS5 index, a table with a rowid alias, a unique key
    /// and an index, a table whose rowid no column names, and a trigger on it.
    static let appSchema = """
        CREATE VIRTUAL TABLE ZSEARCH USING fts4(title, body);
        CREATE VIRTUAL TABLE ZSEARCH5 USING fts5(body);
        CREATE TABLE APP_NOTES (id INTEGER PRIMARY KEY, label TEXT UNIQUE, weight REAL, data BLOB, misc);
        CREATE INDEX APP_NOTES_WEIGHT ON APP_NOTES (weight);
        CREATE TABLE APP_LOG (a, b);
        CREATE TRIGGER APP_LOG_TOUCH AFTER INSERT ON APP_LOG BEGIN UPDATE APP_NOTES SET misc = NEW.a; END;
        """

    /// Every storage class, with the values that are easy to get wrong: the integer extremes, -0.0, an infinity and
    /// a real with all 17 digits, text with a NUL and text that is not UTF-8, an empty blob, NULLs.
    static let appRows = """
        INSERT INTO ZSEARCH (docid, title, body) VALUES (7, 'hello', 'hello world'), (3, NULL, 'second');
        INSERT INTO ZSEARCH5 (rowid, body) VALUES (11, 'full text'), (2, 'hello again');
        INSERT INTO APP_NOTES VALUES (1, 'min', -0.0, X'', -9223372036854775808);
        INSERT INTO APP_NOTES VALUES (2, 'max', 0.1, X'00FF10', 9223372036854775807);
        INSERT INTO APP_NOTES VALUES (3, 'inf', 9e999, NULL, 'a' || char(0) || 'b');
        INSERT INTO APP_NOTES VALUES (4, CAST(X'FF00FE' AS TEXT), -9e999, zeroblob(3), 1.7976931348623157e308);
        INSERT INTO APP_LOG (rowid, a, b) VALUES (5, 1, 2.5), (9, 'x', NULL), (6, X'01', 'ünïcödé ☃'), (7, -0.0, 0.0);
        """

    /// A full-text index that keeps no content, with three rows: its rows cannot be read back.
    static let contentless = """
        CREATE VIRTUAL TABLE ZINDEX USING fts5(body, content='');
        INSERT INTO ZINDEX (rowid, body) VALUES (1, 'one'), (2, 'two'), (3, 'three');
        """

    /// A store made from the built-in model, then given the app's tables and rows.
    static func sourceStore(_ directory: TemporaryDirectory, extra: String = "") throws -> String {
        let path = directory.path("source.sqlite")
        try TaskManagerModel.template.makeEmptyStore(at: path)
        let database = try Database(path: path, mode: .readWrite)
        try database.execute(appSchema + appRows + extra)
        return path
    }

    /// Every cell of `table` as text that tells storage classes and bits apart (a real by its bit pattern).
    static func cells(_ table: String, in path: String) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let statement = try database.prepare("SELECT rowid, * FROM \(Database.quote(table)) ORDER BY rowid")
        var rows: [String] = []
        while try statement.step() {
            rows.append(
                (0..<statement.columnCount).map { index -> String in
                    switch StoreReader.cell(statement, at: index) {
                    case .null: return "null"
                    case .integer(let value): return "i\(value)"
                    case .real(let value): return "r\(String(value.bitPattern, radix: 16))"
                    case .text(let text): return "t\(Array(text.utf8))"
                    case .textBytes(let bytes): return "tb\(bytes)"
                    case .blob(let bytes): return "b\(bytes)"
                    }
                }.joined(separator: "|"))
        }
        return rows
    }

    static func export(_ path: String, to archive: String, strict: Bool = false) throws -> ExportSummary {
        var options = ExportOptions()
        options.strict = strict
        return try Exporter.export(store: path, toFile: archive, options: options)
    }

    static func restore(_ archive: String, into path: String, template: StoreTemplate) throws -> StoreImportResult {
        var options = StoreImportOptions()
        options.template = template
        options.keepIdentity = true
        return try StoreImport.run(try ArchiveInput(path: archive), into: path, options: options)
    }

    @Test("an FTS4, an FTS5 and app tables are carried, and a restore is SQL-identical, triggers included")
    func restore() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.sourceStore(directory)
        let summary = try Self.export(source, to: directory.path("a.json"), strict: true)
        #expect(!summary.hasWarnings, "\(summary.findings)")
        let archive = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        // The shadow tables never travel; the virtual tables do, through themselves.
        #expect(archive.tables.map(\.name) == ["APP_LOG", "APP_NOTES", "ZSEARCH", "ZSEARCH5"])
        #expect(archive.tables.first { $0.name == "APP_LOG" }?.columns == ["rowid", "a", "b"])
        #expect(archive.tables.first { $0.name == "APP_NOTES" }?.columns == ["id", "label", "weight", "data", "misc"])
        #expect(archive.tables.first { $0.name == "APP_NOTES" }?.indexes.count == 1)

        let result = try Self.restore(
            directory.path("a.json"), into: directory.path("new.sqlite"), template: try StoreTemplate(path: source))
        #expect(result.plan.tables["APP_NOTES"]?.inserted == 4)
        #expect(result.plan.lacking.isEmpty)
        let restored = directory.path("new.sqlite")
        #expect(try StoreTables.contents(of: source) == StoreTables.contents(of: restored))
        for table in ["APP_LOG", "APP_NOTES", "ZSEARCH", "ZSEARCH5"] {
            #expect(try Self.cells(table, in: source) == Self.cells(table, in: restored), "\(table)")
        }
        let database = try Database(path: restored, mode: .readOnly(immutable: false))
        #expect(try database.scalar("SELECT count(*) FROM ZSEARCH WHERE ZSEARCH MATCH 'hello'")?.int64 == 1)
        #expect(try database.scalar("SELECT rowid FROM ZSEARCH5 WHERE ZSEARCH5 MATCH 'again'")?.int64 == 2)
        // Exported again, the restore gives the same archive.
        _ = try Self.export(restored, to: directory.path("b.json"))
        let again = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("b.json")))
        #expect(again.tables == archive.tables)
    }

    @Test("into a store made from the model alone, the tables are created from the archive's statements")
    func createdFromArchive() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.sourceStore(directory)
        _ = try Self.export(source, to: directory.path("a.json"))
        _ = try Self.restore(
            directory.path("a.json"), into: directory.path("new.sqlite"), template: TaskManagerModel.template)
        let restored = directory.path("new.sqlite")
        for table in ["APP_LOG", "APP_NOTES", "ZSEARCH", "ZSEARCH5"] {
            #expect(try Self.cells(table, in: source) == Self.cells(table, in: restored), "\(table)")
        }
        let database = try Database(path: restored, mode: .readOnly(immutable: false))
        let made = try database.rows(
            "SELECT name FROM sqlite_master WHERE name LIKE 'ZSEARCH%' OR name LIKE 'APP%' ORDER BY name"
        ).compactMap { $0[0].string }
        let original = try Database(path: source, mode: .readOnly(immutable: false)).rows(
            "SELECT name FROM sqlite_master WHERE name LIKE 'ZSEARCH%' OR name LIKE 'APP%' AND type != 'trigger' "
                + "ORDER BY name"
        ).compactMap { $0[0].string }
        // The virtual tables' shadow tables exist, made by SQLite; the app's trigger is the template's to give.
        #expect(made == original.filter { $0 != "APP_LOG_TOUCH" })
    }

    @Test("the NDJSON form carries the same tables")
    func ndjson() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.sourceStore(directory)
        _ = try Self.export(source, to: directory.path("a.json"))
        let archive = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        var options = ArchiveWritingOptions()
        options.layout = .ndjson
        let lines = try archive.jsonData(options: options)
        #expect(String(decoding: lines, as: UTF8.self).contains("{\"type\":\"table\",\"name\":\"APP_LOG\""))
        #expect(try Archive(json: lines).tables == archive.tables)
    }

    @Test(
        "a statement that is not one plain CREATE TABLE of its table is refused (65, its path), no store made",
        arguments: [
            "CREATE TABLE APP_LOG AS SELECT * FROM Z_PRIMARYKEY",
            "CREATE TABLE APP_LOG (a, b); ATTACH DATABASE 'x.sqlite' AS other",
            "CREATE TEMP TABLE APP_LOG (a, b)",
            "CREATE TABLE OTHER (a, b)",
            "CREATE VIEW APP_LOG AS SELECT 1 AS a, 2 AS b",
            "DROP TABLE ZTASK",
        ])
    func hostileStatement(statement: String) throws {
        let directory = try TemporaryDirectory()
        let source = try Self.sourceStore(directory)
        _ = try Self.export(source, to: directory.path("a.json"))
        var archive = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        let log = try #require(archive.tables.firstIndex { $0.name == "APP_LOG" })
        archive.tables[log].statement = statement
        try archive.jsonData().write(to: directory.url.appendingPathComponent("hostile.json"))
        // Refused by validation (not a CREATE TABLE at all) or by SQLite's parser when it is created: both exit 65.
        let error = try #require(throws: (any Error).self) {
            try Self.restore(
                directory.path("hostile.json"), into: directory.path("new.sqlite"),
                template: TaskManagerModel.template)
        }
        if let refused = error as? ArchiveValidationError {
            #expect(refused.report.issues.map(\.path) == ["$.tables.APP_LOG.statement"])
        } else {
            let refused = try #require(error as? TaskInterchangeError)
            #expect(refused.kind == .invalidData)
            #expect(refused.message.hasPrefix("$.tables.APP_LOG: statement: "), "\(refused.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: directory.path("x.sqlite")))
    }

    @Test("an archive's table never writes into a table Core Data keeps")
    func coreDataTable() throws {
        let directory = try TemporaryDirectory()
        var archive = Archive()
        archive.tables = [RawTable(name: "Z_PRIMARYKEY", statement: "CREATE TABLE Z_PRIMARYKEY (a)", columns: ["a"])]
        try archive.jsonData().write(to: directory.url.appendingPathComponent("a.json"))
        var options = StoreImportOptions()
        options.template = TaskManagerModel.template
        let error = try #require(throws: TaskInterchangeError.self) {
            try StoreImport.run(
                try ArchiveInput(path: directory.path("a.json")), into: directory.path("new.sqlite"), options: options)
        }
        #expect(error.kind == .invalidData)
        #expect(error.message.contains("$.tables.Z_PRIMARYKEY"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
    }

    @Test("into an existing store: identical rows stay, new rows are added, a clashing key fails the import")
    func existingStore() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.sourceStore(directory)
        _ = try Self.export(source, to: directory.path("a.json"))
        let target = directory.path("target.sqlite")
        try TaskManagerModel.template.makeEmptyStore(at: target)
        var options = StoreImportOptions()
        options.mode = .upsert
        let first = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: target, options: options)
        #expect(first.plan.tables["APP_NOTES"]?.inserted == 4)
        let second = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: target, options: options)
        #expect(second.plan.tables["APP_NOTES"]?.unchanged == 4)
        #expect(second.plan.tables["ZSEARCH"]?.unchanged == 2)
        #expect(try Self.cells("APP_NOTES", in: target) == Self.cells("APP_NOTES", in: source))

        var archive = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        let notes = try #require(archive.tables.firstIndex { $0.name == "APP_NOTES" })
        archive.tables[notes].rows[1][2] = .real(2.5)
        try archive.jsonData().write(to: directory.url.appendingPathComponent("changed.json"))
        let before = try Self.cells("APP_NOTES", in: target)
        let error = try #require(throws: TaskInterchangeError.self) {
            try StoreImport.run(try ArchiveInput(path: directory.path("changed.json")), into: target, options: options)
        }
        #expect(error.kind == .invalidData)
        #expect(error.message.contains("$.tables.APP_NOTES.rows[1]"), "\(error.message)")
        #expect(try Self.cells("APP_NOTES", in: target) == before)
    }

    @Test("a table that cannot be carried is named with its row count, and strict fails")
    func uncarried() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.sourceStore(directory, extra: Self.contentless)
        let summary = try Self.export(source, to: directory.path("a.json"))
        let finding = try #require(summary.findings.first { $0.code == .uncarriedTable })
        #expect(finding.entity == "ZINDEX" && finding.count == 3 && finding.isWarning)
        #expect(throws: ExportStrictError.self) {
            try Self.export(source, to: directory.path("b.json"), strict: true)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("b.json")))
    }

    @Test("inspect lists every table by kind with its rows and what an export does with it")
    func inspect() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.sourceStore(directory, extra: Self.contentless)
        let inspection = try StoreInspection(store: source)
        let byName = Dictionary(uniqueKeysWithValues: inspection.tables.map { ($0.name, $0) })
        #expect(
            Set(byName.keys)
                == Set(
                    try StoreSchema(
                        reading: Database(path: source, mode: .readOnly(immutable: false)), path: source
                    ).tableKinds.keys))
        #expect(byName["APP_NOTES"].map { [$0.kind, $0.export] } == ["app", "raw"])
        #expect(byName["APP_NOTES"]?.count == 4)
        #expect(byName["ZSEARCH"].map { [$0.kind, $0.module, $0.export] } == ["virtual", "fts4", "raw"])
        #expect(byName["ZSEARCH_segdir"].map { [$0.kind, $0.owner, $0.export] } == ["shadow", "ZSEARCH", "derived"])
        #expect(byName["ZINDEX"].map { [$0.kind, $0.export] } == ["virtual", "not carried"])
        #expect(byName["ZTASK"].map { [$0.kind, $0.export] } == ["entity", "records"])
        #expect(byName["Z_PRIMARYKEY"]?.kind == "system")
    }

    @Test("an R-tree fetch index is derived from its entity's columns, not carried")
    func fetchIndex() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.sourceStore(
            directory,
            extra: """
                ALTER TABLE ZTASK ADD COLUMN ZLATITUDE FLOAT;
                CREATE VIRTUAL TABLE Z_RT_Task_place USING RTREE (Z_PK INTEGER PRIMARY KEY, ZLATITUDE_MIN FLOAT,
                    ZLATITUDE_MAX FLOAT);
                """)
        let database = try Database(path: source, mode: .readWrite)
        let schema = try StoreSchema(reading: database, path: source)
        let index = try #require(schema.fetchIndexSource(of: "Z_RT_Task_place"))
        #expect(index.table == "ZTASK" && index.sources == ["Z_PK", "ZLATITUDE", "ZLATITUDE"])
        #expect(!schema.rawTables.contains("Z_RT_Task_place"))
    }
}
