import Foundation
import Testing

@testable import TaskInterchange

/// Every shared real store, whole: exported with every entity in the generic section (and, again, with the entities
/// that look like task kinds in typed sections), restored with
/// `--keep-identity` into a store made from a copy of it, every entity and join table equal at the SQL level
/// (`quote()` of every column but `Z_OPT`), and the restore's export byte-identical to the first.
@Suite(
    "Whole-store restore",
    .enabled(
        if: RealStores.available && ModelFixtures.available,
        "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"))
struct WholeStoreRestoreTests {
    static var stores: [String] {
        RealStores.names.map { "real-stores/" + $0 } + ModelFixtures.stores.map { "models/" + $0 }
    }

    static func copy(_ store: String, to directory: TemporaryDirectory) throws -> String {
        if store.hasPrefix("real-stores/") {
            return try RealStores.copy(String(store.dropFirst("real-stores/".count)), to: directory)
        }
        return try ModelFixtures.copy(String(store.dropFirst("models/".count)), to: directory)
    }

    /// No typed kind: every entity travels in the generic section, so nothing is normalized.
    static let everyEntity = StoreMapping(kinds: [:])

    @Test(
        "export → import --keep-identity → every table equal; export again → byte-identical",
        arguments: stores, [true, false])
    func restore(store: String, everyEntityGeneric: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.copy(store, to: directory)
        // The default mapping puts the entities that look like the task kinds in typed sections.
        let mapping = everyEntityGeneric ? Self.everyEntity : nil
        var export = ExportOptions()
        export.mapping = mapping
        export.sourceName = "source.sqlite"
        export.exportDate = Date(timeIntervalSinceReferenceDate: 0)
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: export)
        let typed =
            summary.counts.projects + summary.counts.categories + summary.counts.tags + summary.counts.tasks
            + summary.counts.subtasks
        #expect(typed + summary.counts.entities == (try Self.rowCount(path)), "\(store)")
        if everyEntityGeneric { #expect(typed == 0, "\(store)") }
        #expect(
            !summary.findings.contains { $0.code == .unmappedEntity || $0.code == .unmappedColumn },
            "\(store): \(summary.findings)")

        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: path)
        options.mapping = mapping
        options.keepIdentity = true
        let result = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: directory.path("new.sqlite"), options: options)
        #expect(result.plan.lacking.isEmpty, "\(store)")
        #expect(summary.cells?.isComplete == true, "\(store): \(String(describing: summary.cells))")
        try Self.clearValuesOutsideEntities(summary.findings, in: path, restored: directory.path("new.sqlite"))
        let source = try StoreTables.contents(of: path)
        let restored = try StoreTables.contents(of: directory.path("new.sqlite"))
        #expect(source.keys.sorted() == restored.keys.sorted(), "\(store)")
        for table in source.keys.sorted() {
            #expect(source[table] == restored[table], "\(store): \(table)")
        }
        // The same entities, numbers and superentities.
        let entities = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        #expect(
            try Database(path: path, mode: .readOnly(immutable: false)).rows(entities)
                == Database(path: directory.path("new.sqlite"), mode: .readOnly(immutable: false)).rows(entities),
            "\(store): Z_PRIMARYKEY")
        // Keys handed out (deleted objects' too) stay handed out.
        #expect(
            try StoreFormTests.maxKeys(path) == StoreFormTests.maxKeys(directory.path("new.sqlite")), "\(store)")
        _ = try Exporter.export(store: directory.path("new.sqlite"), toFile: directory.path("b.json"), options: export)
        #expect(
            try Data(contentsOf: directory.url.appendingPathComponent("a.json"))
                == Data(contentsOf: directory.url.appendingPathComponent("b.json")),
            "\(store)")
    }

    @Test(
        "the default export carries every entity too: typed kinds where detected, the rest generic", arguments: stores)
    func defaultExport(store: String) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.copy(store, to: directory)
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: ExportOptions())
        #expect(!summary.findings.contains { $0.code == .unmappedEntity }, "\(store)")
        let typed =
            summary.counts.projects + summary.counts.categories + summary.counts.tags + summary.counts.tasks
            + summary.counts.subtasks
        #expect(typed + summary.counts.entities == (try Self.rowCount(path)), "\(store)")
        #expect(summary.generic.values.reduce(0, +) == summary.counts.entities)
    }

    /// Values a migration left in columns their rows' entities do not own are not data and are not restored: each
    /// such column must be named by findings (one per entity whose rows hold such values) whose counts add up to
    /// exactly the number of cells the restore left NULL; those cells are then cleared in the (private) source copy
    /// so the tables compare equal.
    static func clearValuesOutsideEntities(_ findings: [StoreFinding], in path: String, restored: String) throws {
        let database = try Database(path: path, mode: .readWrite)
        try database.prepare("ATTACH DATABASE ? AS restored").execute([.text(restored)])
        var counts: [String: [String: Int]] = [:]
        for finding in findings where finding.code == .valuesOutsideEntity {
            counts[finding.entity ?? "", default: [:]][finding.property ?? "", default: 0] += finding.count
        }
        for (table, columns) in counts.sorted(by: { $0.key < $1.key }) {
            for (column, count) in columns.sorted(by: { $0.key < $1.key }) {
                try clear(column, of: table, count: count, in: database)
            }
        }
        try database.execute("DETACH DATABASE restored")
    }

    private static func clear(_ column: String, of table: String, count: Int, in database: Database) throws {
        let lost =
            "SELECT s.Z_PK FROM main.\(Database.quote(table)) s JOIN restored.\(Database.quote(table)) r "
            + "ON s.Z_PK = r.Z_PK WHERE s.\(Database.quote(column)) IS NOT NULL AND r.\(Database.quote(column)) IS NULL"
        let cells = try database.scalar("SELECT count(*) FROM (\(lost))")?.int64 ?? -1
        #expect(cells == Int64(count), "\(table).\(column)")
        try database.execute(
            "UPDATE main.\(Database.quote(table)) SET \(Database.quote(column)) = NULL WHERE Z_PK IN (\(lost))")
    }

    /// Rows of every entity table, counted by SQLite.
    static func rowCount(_ path: String) throws -> Int {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let schema = try StoreSchema(reading: database, path: path)
        var total: Int64 = 0
        for table in Set(schema.entities.filter { !$0.isInternal }.compactMap(\.table)) {
            total += try database.scalar("SELECT count(*) FROM \(Database.quote(table))")?.int64 ?? 0
        }
        return Int(total)
    }
}
