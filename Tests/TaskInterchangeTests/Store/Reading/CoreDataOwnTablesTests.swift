import Foundation
import Testing

@testable import TaskInterchange

/// Core Data's own tables (persistent history, CloudKit mirroring) are not exported, so every one of their values is
/// named: counted here by SQL over the store's copy — every table whose name SQLite lists as Core Data's
/// (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`, `ANSCK…`), every column — and set against the export's findings.
@Suite(
    "Core Data's own tables, named by the export",
    .enabled(
        if: RealStores.available && ModelFixtures.available,
        "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"))
struct CoreDataOwnTablesTests {
    /// Rows and non-NULL values of each of Core Data's own tables with rows, by table.
    static func ownTables(_ path: String) throws -> [String: (rows: Int, values: Int)] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let tables = try database.rows(
            """
            SELECT name FROM sqlite_master WHERE type = 'table' \
            AND (name IN ('ATRANSACTION', 'ACHANGE', 'ATRANSACTIONSTRING') OR name LIKE 'ANSCK%')
            """
        ).compactMap { $0[0].string }
        var result: [String: (rows: Int, values: Int)] = [:]
        for table in tables {
            let columns = try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap {
                $0[0].string
            }
            var values = 0
            for column in columns {
                values += Int(
                    try database.scalar("SELECT count(\(Database.quote(column))) FROM \(Database.quote(table))")?.int64
                        ?? 0)
            }
            let rows = Int(try database.scalar("SELECT count(*) FROM \(Database.quote(table))")?.int64 ?? 0)
            if rows > 0 { result[table] = (rows, values) }
        }
        return result
    }

    @Test(
        "every history and mirroring table with rows is named with its values; the summary says so",
        arguments: WholeStoreRestoreTests.stores)
    func named(store: String) throws {
        let directory = try TemporaryDirectory()
        let path = try WholeStoreRestoreTests.copy(store, to: directory)
        let expected = try Self.ownTables(path)
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: ExportOptions())
        let named = summary.findings.filter { $0.code == .historyTracking || $0.code == .cloudKitMirroring }
        #expect(
            Dictionary(named.map { ($0.entity ?? "", $0.count) }, uniquingKeysWith: +)
                == expected.mapValues(\.values), "\(store)")
        for finding in named {
            let rows = expected[finding.entity ?? ""]?.rows ?? -1
            #expect(finding.message.hasPrefix("\(rows) row\(rows == 1 ? "" : "s") of Core Data's"), "\(finding)")
            #expect(!finding.isWarning)
        }
        let total = expected.values.map(\.values).reduce(0, +)
        #expect(summary.cells?.coreDataOwn == total, "\(store)")
        let line =
            total == 0
            ? "  every stored value exported\n"
            : "  every stored value of the model's entities exported; \(total) values of Core Data's own history or "
                + "mirroring tables not exported (see the notes)\n"
        #expect(summary.description.contains(line), "\(store): \(summary.description)")
    }

    @Test("the shared stores include history with rows (so the test above checks something)")
    func historyPresent() throws {
        let directory = try TemporaryDirectory()
        let path = try RealStores.copy("NoteStore-macOS-12__RhetTbull_apple-notes-parser.sqlite", to: directory)
        let tables = try Self.ownTables(path)
        #expect(tables["ACHANGE"]?.rows == 303)
        #expect(tables["ATRANSACTION"]?.rows == 95)
    }

    @Test("CloudKit mirroring tables are named as such, and a selection's export counts nothing")
    func cloudKitMirroring() throws {
        let directory = try TemporaryDirectory()
        let path = try SampleStores.copy("TaskManager.sqlite", to: directory)
        try Database(path: path, mode: .readWrite).execute(
            """
            INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (17001, 'NSCKRECORDMETADATA', 0, 2);
            CREATE TABLE ANSCKRECORDMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
                ZENTITYID INTEGER, ZENTITYPK INTEGER, ZCKRECORDNAME VARCHAR);
            INSERT INTO ANSCKRECORDMETADATA VALUES (1, 17001, 1, 5, 1, 'record-1'), (2, 17001, 1, 5, 2, NULL);
            """)
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: ExportOptions())
        let named = summary.findings.filter { $0.code == .cloudKitMirroring }
        #expect(named.map(\.entity) == ["ANSCKRECORDMETADATA"])
        #expect(named.map(\.count) == [11])
        #expect(named.first?.message.contains("2 rows of Core Data's CloudKit mirroring state") == true)
        #expect(summary.cells?.coreDataOwn == 11)
        #expect(summary.cells?.isComplete == true)

        var selection = ExportOptions()
        selection.selection.completion = .completed
        let part = try Exporter.export(store: path, toFile: directory.path("b.json"), options: selection)
        #expect(part.cells == nil)
    }
}
