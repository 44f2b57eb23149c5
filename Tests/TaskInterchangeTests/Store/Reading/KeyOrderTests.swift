import Foundation
import Testing

@testable import TaskInterchange

/// Records are exported in id order either way: straight in key order when keys rise with ids (a store `tasks import`
/// wrote), else sorted by rank. Both reads of one graph must give the same records.
@Suite("Store reader: key order")
struct KeyOrderTests {
    private static func entries(_ pairs: [(UInt8, Int64)]) -> [StoreIdentity.Entry] {
        pairs.map { byte, key in
            StoreIdentity.Entry(id: UUID(uuid: (byte, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)), key: key)
        }
    }

    /// Rebuilds the store's ZTASK with the same rows but a `Z_PK` of no type (not the rowid, so it may hold text,
    /// NULL or a repeated key), runs `edit` on it, and returns the open connection.
    private static func untypingTaskKeys(of path: String, then edit: String) throws -> Database {
        try untypingKeys(of: "ZTASK", in: path, then: edit)
    }

    /// Rebuilds `table` with the same rows but a `Z_PK` of no type, as `untypingTaskKeys` does ZTASK.
    private static func untypingKeys(of table: String, in path: String, then edit: String) throws -> Database {
        try rebuilding(table, in: path, replacing: "Z_PK INTEGER PRIMARY KEY", with: "Z_PK", then: edit)
    }

    /// Rebuilds `table` with the same rows from its `CREATE TABLE` statement with `old` replaced by `new`, runs
    /// `edit`, and returns the open connection.
    private static func rebuilding(
        _ table: String, in path: String, replacing old: String, with new: String, then edit: String
    ) throws -> Database {
        let database = try Database(path: path, mode: .readWrite)
        let create = try #require(
            try database.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '\(table)'")?.string)
        #expect(create.contains(old))
        let untyped = create.replacingOccurrences(of: old, with: new)
            .replacingOccurrences(of: "CREATE TABLE \(table)", with: "CREATE TABLE \(table)_UNTYPED")
        try database.execute(
            untyped + "; INSERT INTO \(table)_UNTYPED SELECT * FROM \(table); DROP TABLE \(table); "
                + "ALTER TABLE \(table)_UNTYPED RENAME TO \(table); " + edit)
        return database
    }

    @Test("keys rise with ids only when every next id has a larger key")
    func keysAscend() {
        #expect(KeyIndex(Self.entries([])).keysAscend)
        #expect(KeyIndex(Self.entries([(1, 7)])).keysAscend)
        #expect(KeyIndex(Self.entries([(1, 1), (2, 5), (3, 9)])).keysAscend)
        #expect(!KeyIndex(Self.entries([(1, 1), (2, 9), (3, 5)])).keysAscend)
        #expect(!KeyIndex(Self.entries([(1, 2), (2, 1)])).keysAscend)
    }

    @Test("a store whose task keys fall as ids rise exports the same tasks as one whose keys rise", arguments: [4, 5])
    func bothOrders(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        let archive = ArchiveGenerator.archive(seed: seed, maxTasks: 60)
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        let rising = try readStore(path).archive

        // Reverse every task key (and every key that points at a task) in place: k → max + 1 - k.
        let database = try Database(path: path, mode: .readWrite)
        let top = (try database.scalar("SELECT max(Z_PK) FROM ZTASK")?.int64 ?? 0) + 1
        try database.execute(
            """
            UPDATE ZTASK SET Z_PK = -Z_PK; UPDATE ZTASK SET Z_PK = \(top) + Z_PK;
            UPDATE ZSUBTASK SET ZTASK = \(top) - ZTASK;
            UPDATE Z_4TASKS SET Z_5TASKS = -Z_5TASKS; UPDATE Z_4TASKS SET Z_5TASKS = \(top) + Z_5TASKS;
            """)
        let keys = try database.rows("SELECT Z_PK FROM ZTASK ORDER BY ZID").compactMap { $0[0].int64 }
        #expect(keys.count < 2 || keys != keys.sorted(), "the edited store's keys no longer rise with ids")
        let falling = try readStore(path).archive

        #expect(rising.tasks.count == archive.tasks.count)
        #expect(rising.tasks.map(\.id) == rising.tasks.map(\.id).sorted { $0.uuidString < $1.uuidString })
        #expect(falling.tasks == rising.tasks)
        #expect(falling.projects == rising.projects && falling.tags == rising.tags)
    }

    @Test("keys that rise but are not all stored as integers (a Z_PK that is not the rowid) are sorted by rank")
    func textKeys() throws {
        let directory = try TemporaryDirectory()
        let archive = ArchiveGenerator.archive(seed: 6, maxTasks: 60)
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        let rising = try readStore(path).archive
        var completed = ExportOptions()
        completed.selection.completion = .completed
        let selected = try Exporter.export(store: path, toFile: directory.path("a.json"), options: completed).counts

        // The same rows in a ZTASK whose Z_PK has no type: every third key stored as text, which SQLite orders after
        // every integer key.
        let database = try Self.untypingTaskKeys(
            of: path, then: "UPDATE ZTASK SET Z_PK = CAST(Z_PK AS TEXT) WHERE Z_PK % 3 = 0")
        #expect(
            try database.scalar("SELECT count(*) FROM ZTASK WHERE typeof(Z_PK) = 'text'")?.int64 ?? 0
                == Int64(archive.tasks.count / 3))
        let read = try readStore(path).archive
        #expect(read.tasks == rising.tasks)
        // A selection finds the rows whose keys are stored as text too.
        let selectedAgain = try Exporter.export(store: path, toFile: directory.path("b.json"), options: completed)
        #expect(selectedAgain.counts == selected)
        #expect(selected.tasks > 0)
    }

    @Test("a Z_PK that is not the rowid holding a repeated key stops the export as bad data, naming the table")
    func repeatedKey() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 7, maxTasks: 30), into: path, options: StoreImportOptions())
        _ = try Self.untypingTaskKeys(
            of: path,
            then: "UPDATE ZTASK SET Z_PK = (SELECT min(Z_PK) FROM ZTASK) WHERE Z_PK = (SELECT max(Z_PK) FROM ZTASK)")
        let error = #expect(throws: TaskInterchangeError.self) { _ = try readStore(path) }
        #expect(error?.kind == .invalidData)
        #expect(
            error?.message.description.contains("ZTASK: its Z_PK values are not distinct (two rows read as key") == true
        )
    }

    @Test(
        "a key that is not an integer (not the rowid: text, a fraction, NULL) stops the export as bad data, naming it",
        arguments: [
            ("'abc'", "the text 'abc', not an integer key"), ("10.5", "the real number 10.5, not an integer key"),
            ("NULL", "NULL, not an integer key"), ("x'01'", "a blob, not an integer key"),
        ])
    func notIntegerKey(stored: String, named: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 8, maxTasks: 30), into: path, options: StoreImportOptions())
        _ = try Self.untypingTaskKeys(
            of: path, then: "UPDATE ZTASK SET Z_PK = \(stored) WHERE Z_PK = (SELECT max(Z_PK) FROM ZTASK)")
        let error = #expect(throws: TaskInterchangeError.self) { _ = try readStore(path) }
        #expect(error?.kind == .invalidData)
        #expect(
            error?.message.description.contains("ZTASK: a row's Z_PK is \(named)") == true,
            "\(String(describing: error))")
    }

    @Test("a key stored as a whole real number or its decimal text reads as that integer")
    func exactKeys() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 9, maxTasks: 30), into: path, options: StoreImportOptions())
        let before = try readStore(path).archive
        _ = try Self.untypingTaskKeys(
            of: path,
            then: "UPDATE ZTASK SET Z_PK = CAST(Z_PK AS REAL) WHERE Z_PK % 2 = 0; "
                + "UPDATE ZTASK SET Z_PK = CAST(Z_PK AS TEXT) WHERE typeof(Z_PK) = 'integer' AND Z_PK % 3 = 0")
        #expect(try readStore(path).archive.tasks == before.tasks)
    }

    @Test("a generic entity's key that is not an integer stops the export too; exact ones read as before")
    func genericKeys() throws {
        let directory = try TemporaryDirectory()
        let path = try SampleStores.copy("Journal-v1.sqlite", to: directory)
        let before = try readStore(path).archive
        let entries = before.entities.filter { $0.entity == "Entry" }
        #expect(entries.count > 3)
        let database = try Self.untypingKeys(
            of: "ZENTRY", in: path, then: "UPDATE ZENTRY SET Z_PK = CAST(Z_PK AS TEXT) WHERE Z_PK % 2 = 0")
        #expect(try readStore(path).archive.entities == before.entities)
        try database.execute("UPDATE ZENTRY SET Z_PK = 'p1' WHERE Z_PK = (SELECT max(Z_PK) FROM ZENTRY)")
        let error = #expect(throws: TaskInterchangeError.self) { _ = try readStore(path) }
        #expect(error?.kind == .invalidData)
        #expect(error?.message.description.contains("ZENTRY: a row's Z_PK is the text 'p1'") == true)
    }

    @Test("join rows whose keys are stored as text beside integers (untyped columns): every task keeps its own tags")
    func textKeysInJoinTable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 10, maxTasks: 80), into: path, options: StoreImportOptions())
        let before = try readStore(path).archive
        #expect(before.tasks.contains { $0.tagIds.count > 1 })
        let join = try #require(
            try Database(path: path, mode: .readOnly(immutable: true)).scalar(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'")?.string)
        let columns = try Database(path: path, mode: .readOnly(immutable: true))
            .rows("SELECT name FROM pragma_table_info('\(join)')").compactMap { $0.first?.string }
        #expect(columns.count == 2)
        let database = try Self.rebuilding(join, in: path, replacing: "INTEGER", with: "", then: "")
        try database.execute(
            "UPDATE \(join) SET \(columns[0]) = CAST(\(columns[0]) AS TEXT), \(columns[1]) = CAST(\(columns[1]) AS TEXT) "
                + "WHERE rowid % 2 = 0")
        #expect(
            try database.scalar("SELECT count(*) FROM \(join) WHERE typeof(\(columns[0])) = 'text'")?.int64 ?? 0 > 0)
        #expect(try readStore(path).archive.tasks == before.tasks)
    }

    @Test("a generic entity's join rows with keys stored as text keep their links; a key two rows share stops it")
    func genericJoinAndRepeatedKeys() throws {
        let directory = try TemporaryDirectory()
        let path = try SampleStores.copy("Journal-v1.sqlite", to: directory)
        let before = try readStore(path).archive
        #expect(
            before.entities.contains {
                if case .array(let labels)? = $0.values["labels"] { return !labels.isEmpty }
                return false
            })
        let database = try Self.rebuilding("Z_1LABELS", in: path, replacing: "INTEGER", with: "", then: "")
        try database.execute("UPDATE Z_1LABELS SET Z_1ENTRIES = CAST(Z_1ENTRIES AS TEXT) WHERE rowid % 2 = 1")
        #expect(try readStore(path).archive.entities == before.entities)

        _ = try Self.untypingKeys(
            of: "ZLABEL", in: path,
            then: "INSERT INTO ZLABEL SELECT * FROM ZLABEL WHERE Z_PK = (SELECT min(Z_PK) FROM ZLABEL)")
        let error = #expect(throws: TaskInterchangeError.self) { _ = try readStore(path) }
        #expect(error?.kind == .invalidData)
        #expect(error?.message.description.contains("ZLABEL: its Z_PK values are not distinct") == true)
    }

    @Test("a foreign key that is not exactly a key (a fraction) is reported as dangling, not read as another row's")
    func fractionalForeignKey() throws {
        let directory = try TemporaryDirectory()
        let path = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let database = try Database(path: path, mode: .readWrite)
        let task = try #require(
            try database.scalar("SELECT Z_PK FROM ZTASK WHERE ZPROJECT IS NOT NULL ORDER BY Z_PK LIMIT 1")?.int64)
        try database.execute("UPDATE ZTASK SET ZPROJECT = ZPROJECT + 0.5 WHERE Z_PK = \(task)")
        let (archive, findings) = try readStore(path, keepingStoreForm: true)
        let record = try #require(archive.tasks.first { $0.key == task })
        #expect(record.projectId == nil)
        #expect(
            findings.contains { finding in
                finding.code == .danglingReference && finding.examples.contains { $0.hasPrefix("p\(task)→") }
            })
    }

    @Test("a row key below 1 stops an export (an archive holds none), while a comparison reads it", arguments: [-7, 0])
    func keyBelowOne(key: Int64) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 13, maxTasks: 30), into: path, options: StoreImportOptions())
        let database = try Database(path: path, mode: .readWrite)
        try database.execute(
            "UPDATE ZSUBTASK SET ZTASK = \(key) WHERE ZTASK = (SELECT max(Z_PK) FROM ZTASK); "
                + "UPDATE ZTASK SET Z_PK = \(key) WHERE Z_PK = (SELECT max(Z_PK) FROM ZTASK)")
        let error = #expect(throws: TaskInterchangeError.self) {
            _ = try Exporter.export(store: path, toFile: directory.path("a.json"), options: ExportOptions())
        }
        #expect(error?.kind == .invalidData)
        #expect(
            error?.message.description.contains("ZTASK: a row's Z_PK is \(key), not a key Core Data gives") == true,
            "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: directory.path("a.json")))
        #expect(try readStore(path, keepingStoreForm: true).archive.tasks.contains { $0.key == key })
    }

    @Test(
        "a generic join row whose owner is no row, or not an integer key, is named and counted as not exported",
        arguments: [
            "INSERT INTO Z_1LABELS VALUES (999, 1)",
            "UPDATE Z_1LABELS SET Z_1ENTRIES = Z_1ENTRIES + 0.5 WHERE rowid = 1",
        ])
    func joinRowOfNoOwner(edit: String) throws {
        let directory = try TemporaryDirectory()
        let path = try SampleStores.copy("Journal-v1.sqlite", to: directory)
        let clean = try Exporter.export(store: path, toFile: directory.path("a.json"), options: ExportOptions())
        #expect(clean.cells?.isComplete == true)
        let database = try Self.rebuilding("Z_1LABELS", in: path, replacing: "INTEGER", with: "", then: "")
        try database.execute(edit)
        let summary = try Exporter.export(store: path, toFile: directory.path("b.json"), options: ExportOptions())
        #expect(summary.cells?.notExported == 1)
        #expect(
            summary.findings.contains {
                $0.code == .danglingReference && $0.entity == "Entry" && $0.property == "labels" && $0.count == 1
            }, "\(summary.findings)")
        #expect(summary.description.contains("1 stored value not exported (see the warnings)"))
    }
}
