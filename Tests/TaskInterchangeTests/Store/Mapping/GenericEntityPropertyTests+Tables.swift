import Foundation
import TestTiers
import Testing

@testable import TaskInterchange

/// Random stores that also hold tables outside their model: an R-tree fetch index on an entity's numeric column, a
/// table of the app's own with cells of every storage class, a full-text index (FTS4 or FTS5). Exported whole and
/// restored into a store made from the first, every table and `sqlite_master` must come back as it was.
extension GenericEntityPropertyTests {
    @Test(
        "random stores with an R-tree index, an app table and an FTS table restore table for table (20 seeds)",
        arguments: 0..<UInt64(Tiers.count(20, slow: 80)))
    func rawTables(seed: UInt64) throws {
        var random = SeededGenerator(state: seed &* 0x9E37_79B9_7F4A_7C15 &+ 7)
        let model = Self.model(&random)
        var template = StoreTemplate(model: model)
        let directory = try TemporaryDirectory()
        try template.makeEmptyStore(at: directory.path("empty.sqlite"))
        let schema = try StoreSchema(
            reading: try Database(path: directory.path("empty.sqlite"), mode: .readOnly(immutable: false)),
            path: "empty.sqlite")
        let original = Self.archive(
            layout: GenericLayout(schema: schema, model: model, excluded: []), schema: schema, &random)
        var options = StoreImportOptions()
        options.template = template
        options.keepIdentity = true
        let source = directory.path("a.sqlite")
        _ = try StoreImport.run(original, into: source, options: options)
        let added = try Self.addTables(to: source, &random)

        var export = ExportOptions()
        export.model = model
        let summary = try Exporter.export(store: source, toFile: directory.path("a.json"), options: export)
        // The random one-to-ones may dangle (carried with a warning; the one-to-one property test checks them).
        let warnings = summary.findings.filter { $0.isWarning && $0.code != .danglingReference }
        #expect(warnings.isEmpty, "seed \(seed): \(summary.findings)")
        let archive = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        #expect(archive.tables.map(\.name) == added.carried, "seed \(seed)")

        // The source is the template (its fetch index and tables made by their own statements); its model is the
        // one it was made from, as it keeps no model cache.
        template = try StoreTemplate(path: source)
        template.model = model
        options.template = template
        _ = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: directory.path("b.sqlite"), options: options)
        let restored = try StoreTables.contents(of: directory.path("b.sqlite"))
        #expect(try StoreTables.contents(of: source) == restored, "seed \(seed): \(added)")
        // One row per row of its entity's table, rebuilt from their values.
        if let index = added.index { #expect(restored[index]?.count == added.indexRows, "seed \(seed): \(index)") }
    }

    /// What `addTables` made: the tables an export carries raw (sorted) and the fetch index, if any.
    struct AddedTables: CustomStringConvertible {
        var carried: [String] = []
        var index: String?
        var indexRows = 0
        var description: String { "raw \(carried), index \(index ?? "none")" }
    }

    /// Adds, each with even odds, an R-tree fetch index filled as Core Data's triggers fill it, an app table and a
    /// full-text index with random rows.
    static func addTables(to path: String, _ random: inout SeededGenerator) throws -> AddedTables {
        let database = try Database(path: path, mode: .readWrite)
        let schema = try StoreSchema(reading: database, path: path)
        var added = AddedTables()
        let numeric = schema.entities.compactMap { entity -> (String, String, String)? in
            guard let table = entity.table, !entity.isInternal else { return nil }
            let columns = (schema.columns(of: table) ?? []).filter {
                ["INTEGER", "FLOAT"].contains($0.declaredType) && !$0.name.hasPrefix("Z_")
            }
            return columns.randomElement(using: &random).map { (entity.name, table, $0.name) }
        }
        if Bool.random(using: &random), let (entity, table, column) = numeric.randomElement(using: &random) {
            let index = "Z_RT_\(entity)_spot"
            try database.execute(
                "CREATE VIRTUAL TABLE \(index) USING RTREE (Z_PK INTEGER PRIMARY KEY, \(column)_MIN FLOAT, "
                    + "\(column)_MAX FLOAT); INSERT INTO \(index) SELECT Z_PK, \(column), \(column) FROM \(table)")
            added.index = index
            added.indexRows = Int(try database.scalar("SELECT count(*) FROM \(table)")?.int64 ?? -1)
        }
        if Bool.random(using: &random) {
            let aliased = Bool.random(using: &random)
            try database.execute(
                aliased
                    ? "CREATE TABLE APP_DATA (k INTEGER PRIMARY KEY, v, w REAL, x TEXT)"
                    : "CREATE TABLE APP_DATA (v, w REAL, x TEXT); CREATE INDEX APP_DATA_X ON APP_DATA (x)")
            let insert = try database.prepare(
                aliased
                    ? "INSERT INTO APP_DATA VALUES (?, ?, ?, ?)"
                    : "INSERT INTO APP_DATA (rowid, v, w, x) VALUES (?, ?, ?, ?)")
            var keys = Set<Int64>()
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                let key = Int64.random(in: -1_000...1_000_000, using: &random)
                guard keys.insert(key).inserted else { continue }
                try insert.execute([.integer(key)] + (0..<3).map { _ in cell(&random) })
            }
            added.carried.append("APP_DATA")
        }
        if Bool.random(using: &random) {
            let module = Bool.random(using: &random) ? "fts4" : "fts5"
            try database.execute("CREATE VIRTUAL TABLE ZSEARCH USING \(module)(title, body)")
            let insert = try database.prepare("INSERT INTO ZSEARCH (rowid, title, body) VALUES (?, ?, ?)")
            let words = ["alpha", "beta", "gamma", "delta", "ünï", "☃", "x y z"]
            for rowid in Set(
                (0..<Int.random(in: 0...6, using: &random)).map { _ in Int64.random(in: 1...99, using: &random) })
            {
                try insert.execute([
                    .integer(rowid), Bool.random(using: &random) ? .null : .text(words.randomElement(using: &random)!),
                    .text((0..<3).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")),
                ])
            }
            added.carried.append("ZSEARCH")
        }
        return added
    }

    /// A random cell of any storage class, with the values easy to get wrong.
    static func cell(_ random: inout SeededGenerator) -> SQLValue {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .null
        case 1:
            return .integer(
                [Int64.min, Int64.max, 0, Int64.random(in: .min ... .max, using: &random)].randomElement(
                    using: &random)!)
        case 2:
            return .real(
                [-0.0, .infinity, -.infinity, 0.1, Double.random(in: -1e300...1e300, using: &random)].randomElement(
                    using: &random)!)
        case 3:
            return .text(
                ["", "a\u{0}b", "ünïcödé ☃", String(Int.random(in: 0...999, using: &random))].randomElement(
                    using: &random)!)
        default:
            return .blob(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
    }
}
