import Foundation
import Testing

@testable import TaskInterchange

/// A store imported with its own export, in every mode that finds existing records, holds what it held: replace
/// removes every object — typed and generic, join rows included — and writes each one again under its own key (only
/// `Z_OPT` moves, by one, and persistent history gains the import's transaction); upsert and merge leave every row,
/// `Z_OPT` included, as it was. External files stay one per value, none orphaned.
@Suite("Import of a store's own export: replace, upsert and merge change nothing else")
struct OwnExportImportTests {
    static let journalModel = SampleStores.repository.appendingPathComponent("samples/Journal.xcdatamodeld").path

    /// How a store is read and written: with the app's model (typed relationships, ordered positions) or without.
    struct Setup: CustomTestStringConvertible, Sendable {
        var sample: String
        var modelVersion: String?
        var testDescription: String { sample + (modelVersion.map { " with \($0)" } ?? "") }

        func model() throws -> ObjectModel? {
            guard let modelVersion else { return nil }
            return try ModelSource(path: OwnExportImportTests.journalModel).version(named: modelVersion).model
        }
    }

    static let sampleSetups = [
        Setup(sample: "Journal-v1.sqlite", modelVersion: nil),
        Setup(sample: "Journal-v1.sqlite", modelVersion: "Journal 1"),
        Setup(sample: "Journal-v2.sqlite", modelVersion: nil),
        Setup(sample: "Journal-v2.sqlite", modelVersion: "Journal 2"),
        Setup(sample: "TaskManager.sqlite", modelVersion: nil),
        Setup(sample: "EasyLife.sqlite", modelVersion: nil),
    ]
    static let modes: [ImportMode] = [.replace, .upsert, .merge]
    static let realStoreNames = [
        "NoteStore-macOS-12__RhetTbull_apple-notes-parser.sqlite", "Photos-13.0.1__RhetTbull_PhotoScript.sqlite",
    ]

    /// Every table's rows as quoted text, sorted, by table. With `derived` false, what a replace documents as
    /// changing is left out: `Z_OPT`, Core Data's own entities (persistent history gains the import's transaction, and
    /// their `Z_PRIMARYKEY` rows move on), the shadow tables SQLite keeps for a virtual table (a rebuilt fetch index
    /// lays out its nodes afresh; its rows are compared through it), and values in a shared table's columns that
    /// their row's entity does not own (Core Data never reads them; the export names them, `values-outside-entity`).
    static func contents(of path: String, derived: Bool) throws -> [String: [String]] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        var schema = try StoreSchema(reading: database, path: path)
        schema.locate(with: try? ObjectModel(modelCacheIn: database, path: path))
        let owners = schema.layout?.ownedColumns ?? [:]
        let ownEntities = schema.entities.filter(\.isInternal).map { String($0.number) }
        var result: [String: [String]] = [:]
        let tables = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
        ).compactMap { $0[0].string }
        for table in tables {
            var condition = "1"
            if !derived {
                switch schema.kind(of: table) {
                case .internalEntity?, .shadow?: continue
                default: break
                }
                if table == "Z_PRIMARYKEY" { condition = "Z_ENT NOT IN (\(ownEntities.joined(separator: ", ")))" }
            }
            let columns = try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap {
                $0[0].string
            }.filter { derived || $0 != "Z_OPT" }
            let cells = columns.map { column -> String in
                let quoted = "quote(\(Database.quote(column)))"
                let owning = (owners[table] ?? [:]).filter {
                    $0.value.contains { $0.uppercased() == column.uppercased() }
                }
                .keys.map(String.init)
                guard !derived, !owning.isEmpty, owning.count < (owners[table]?.count ?? 0) else { return quoted }
                return "CASE WHEN Z_ENT IN (\(owning.joined(separator: ", "))) THEN \(quoted) ELSE 'outside' END"
            }
            result[table] = try database.rows(
                "SELECT \(cells.joined(separator: " || '|' || ")) FROM \(Database.quote(table)) WHERE \(condition)"
            ).compactMap { $0[0].string }.sorted()
        }
        return result
    }

    /// `Z_OPT` of every row of every entity table, by table then key.
    static func versions(of path: String) throws -> [String: [Int64: Int64]] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let schema = try StoreSchema(reading: database, path: path)
        var result: [String: [Int64: Int64]] = [:]
        for table in schema.tables(of: .entity) {
            for row in try database.rows("SELECT Z_PK, Z_OPT FROM \(Database.quote(table))") {
                result[table, default: [:]][row[0].int64 ?? -1] = row[1].int64 ?? -1
            }
        }
        return result
    }

    /// Exports `store` and imports the archive back into it in `mode`; checks the store holds what it held.
    static func checkOwnExport(
        of store: String, mode: ImportMode, model: ObjectModel?, in directory: TemporaryDirectory
    ) throws -> StoreImportResult {
        let archive = directory.path("own-\(mode.rawValue).json")
        var exportOptions = ExportOptions()
        exportOptions.model = model
        _ = try Exporter.export(store: store, toFile: archive, options: exportOptions)
        let everything = try contents(of: store, derived: true)
        let withoutVersions = try contents(of: store, derived: false)
        let versionsBefore = try versions(of: store)
        var options = StoreImportOptions()
        options.mode = mode
        options.targetModel = model
        let result = try StoreImport.run(try ArchiveInput(path: archive), into: store, options: options)
        if mode == .replace {
            let after = try contents(of: store, derived: false)
            #expect(after.mapValues(\.count) == withoutVersions.mapValues(\.count), "\(store) row counts")
            for (table, rows) in withoutVersions {
                #expect(after[table] == rows, "\(store): \(table) differs after replace")
            }
            // Each object written again under its key, one version on.
            let versionsAfter = try versions(of: store)
            #expect(versionsAfter.mapValues { $0.keys.sorted() } == versionsBefore.mapValues { $0.keys.sorted() })
            for (table, rows) in versionsBefore {
                #expect(
                    rows.allSatisfy { key, version in versionsAfter[table]?[key] == version + 1 },
                    "\(store): \(table) Z_OPT not one up")
            }
            let deleted = result.plan.entities.values.map(\.deleted).reduce(0, +)
            let inserted = result.plan.entities.values.map(\.inserted).reduce(0, +)
            #expect(deleted == inserted, "\(store): \(deleted) generic objects removed, \(inserted) written")
        } else {
            let after = try contents(of: store, derived: true)
            for (table, rows) in everything {
                #expect(after[table] == rows, "\(store): \(table) differs after \(mode.rawValue)")
            }
            #expect(after.keys.sorted() == everything.keys.sorted())
            #expect(result.plan.entities.values.allSatisfy { $0.inserted == 0 && $0.updated == 0 })
        }
        return result
    }

    @Test("the samples: each mode leaves every table's rows as they were", arguments: sampleSetups, modes)
    func samples(setup: Setup, mode: ImportMode) throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy(setup.sample, to: directory)
        _ = try Self.checkOwnExport(of: store, mode: mode, model: try setup.model(), in: directory)
    }

    @Test(
        "real stores (Notes, Photos): each mode leaves every table's rows as they were",
        .enabled(
            if: RealStores.available,
            "../shared/fixtures/real-stores is absent (the shared fixtures, beside this repository); skipped"),
        arguments: realStoreNames, modes)
    func realStore(name: String, mode: ImportMode) throws {
        let directory = try TemporaryDirectory()
        let store = try RealStores.copy(name, to: directory)
        _ = try Self.checkOwnExport(of: store, mode: mode, model: nil, in: directory)
    }

    @Test("externally stored values: one file per value after each mode, none orphaned or shared", arguments: modes)
    func externalFiles(mode: ImportMode) throws {
        let directory = try TemporaryDirectory()
        let store = try ExternalStorageTests.makeStore(in: directory)
        let before = try ExternalStorageTests.files(of: store)
        _ = try Self.checkOwnExport(of: store, mode: mode, model: ExternalStorageTests.model, in: directory)
        let after = try ExternalStorageTests.files(of: store)
        #expect(after.files == before.files)
        #expect(after.referenced == after.files, "every file referenced, once")
        let file = ExternalData(store: store).directory + "/" + ExternalStorageTests.fileName
        #expect(FileManager.default.contents(atPath: file) == Data(ExternalStorageTests.large))
    }

    @Test("tables the app added (full-text indexes, its own tables): each mode leaves every cell", arguments: modes)
    func rawTables(mode: ImportMode) throws {
        let directory = try TemporaryDirectory()
        let store = try RawTablesTests.sourceStore(directory)
        let tables = ["ZSEARCH", "ZSEARCH5", "APP_NOTES", "APP_LOG"]
        let before = try tables.map { try RawTablesTests.cells($0, in: store) }
        try #require(before.allSatisfy { !$0.isEmpty })
        let result = try Self.checkOwnExport(of: store, mode: mode, model: nil, in: directory)
        #expect(try tables.map { try RawTablesTests.cells($0, in: store) } == before)
        let rows = result.plan.tables.values.map { mode == .replace ? $0.inserted : $0.unchanged }.reduce(0, +)
        #expect(rows == before.map(\.count).reduce(0, +))
    }

    @Test("replace by an archive with fewer records removes the others, generic ones too, and their join rows")
    func fewerRecords() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("Journal-v2.sqlite", to: directory)
        let model = try Setup(sample: "", modelVersion: "Journal 2").model()
        var exportOptions = ExportOptions()
        exportOptions.model = model
        _ = try Exporter.export(store: store, toFile: directory.path("a.json"), options: exportOptions)
        var archive = try Archive(json: Data(contentsOf: URL(fileURLWithPath: directory.path("a.json"))))
        let entries = archive.entities.filter { $0.entity == "Entry" }
        let labels = archive.entities.filter { $0.entity == "Label" }
        try #require(entries.count == 7 && labels.count == 3)
        // One label and two entries go; every reference to them with them.
        let gone = Set([labels[0].id, entries[0].id, entries[1].id].map(\.uuidString))
        archive.entities.removeAll { gone.contains($0.id.uuidString) }
        for index in archive.entities.indices {
            for (property, value) in archive.entities[index].values {
                guard case .array(let ids) = value else { continue }
                let kept = ids.filter { !gone.contains($0) }
                archive.entities[index].values[property] = .array(kept)
                if let positions = archive.entities[index].positions[property], positions.count == ids.count {
                    archive.entities[index].positions[property] = zip(ids, positions).filter {
                        !gone.contains($0.0)
                    }.map(\.1)
                }
            }
        }
        let maxKeysBefore = try Database(path: store, mode: .readOnly(immutable: false)).rows(
            "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        var options = StoreImportOptions()
        options.mode = .replace
        options.targetModel = model
        let result = try StoreImport.run(archive, into: store, options: options)
        #expect(result.plan.entities["Entry"]?.deleted == 7)
        #expect(result.plan.entities["Entry"]?.inserted == 5)
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        #expect(try database.scalar("SELECT count(*) FROM ZENTRY")?.int64 == 5)
        #expect(try database.scalar("SELECT count(*) FROM ZLABEL")?.int64 == 2)
        #expect(try database.scalar("SELECT count(*) FROM ZNOTEBOOK")?.int64 == 2)
        let schema = try StoreSchema(reading: database, path: store)
        let joins = schema.locator.joinDirections.filter(\.namesTable)
        try #require(!joins.isEmpty)
        for join in joins {
            let owner = try #require(schema.entity(number: join.ownerNumber)?.table)
            let member = try #require(schema.entity(number: join.memberNumber)?.table)
            let dangling = try database.scalar(
                """
                SELECT count(*) FROM \(Database.quote(join.table)) WHERE \(Database.quote(join.ownerColumn)) NOT IN \
                (SELECT Z_PK FROM \(Database.quote(owner))) OR \(Database.quote(join.memberColumn)) NOT IN \
                (SELECT Z_PK FROM \(Database.quote(member)))
                """)
            #expect(dangling?.int64 == 0, "\(join.table) has join rows to removed objects")
            #expect(try database.scalar("SELECT count(*) FROM \(Database.quote(join.table))")?.int64 ?? 0 > 0)
        }
        // No key is handed back lower: Z_MAX as it was (every remaining object kept its key).
        #expect(try database.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == maxKeysBefore)
        // A to-one to a removed object does not survive either: every entry's notebook exists.
        #expect(
            try database.scalar(
                "SELECT count(*) FROM ZENTRY WHERE ZNOTEBOOK IS NOT NULL AND ZNOTEBOOK NOT IN (SELECT Z_PK FROM ZNOTEBOOK)"
            )?.int64 == 0)
    }

    @Test("replace by another store's archive: new objects take keys above every key the store had")
    func newKeysAboveOld() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("Journal-v1.sqlite", to: directory)
        let other = try SampleStores.copy("Journal-v2.sqlite", to: directory)
        _ = try Exporter.export(store: other, toFile: directory.path("other.json"), options: ExportOptions())
        let before =
            try Database(path: store, mode: .readOnly(immutable: false)).scalar(
                "SELECT max(Z_PK) FROM ZENTRY")?.int64 ?? 0
        var options = StoreImportOptions()
        options.mode = .replace
        _ = try StoreImport.run(try ArchiveInput(path: directory.path("other.json")), into: store, options: options)
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        #expect(try database.scalar("SELECT min(Z_PK) FROM ZENTRY")?.int64 ?? 0 > before)
        #expect(try database.scalar("SELECT count(*) FROM ZENTRY")?.int64 == 7)
        let maxKey = try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Entry'")?.int64
        #expect(maxKey == before + 7)
    }
}
