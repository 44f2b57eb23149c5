import Foundation
import TaskInterchange
import Testing

/// Every store the shared app models come with, migrated with `tasks migrate --model` into every version of its
/// model: into its own and later versions it arrives and verifies; into an older version that requires an attribute
/// it never had, with no default, it is refused and nothing is left; a store no version of the model wrote is carried
/// from its own model cache. Each record's values are then checked in the new store by SQL: every value the mapping
/// keeps is in its column, equal.
@Suite(
    "migrate shared app stores across their model versions",
    .enabled(
        if: SharedFixtures.exists("models/BrowserServicesKit-Bookmarks"),
        "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"))
struct SharedModelMigrationTests {
    /// Model folder, store, model.
    static let stores: [(String, String, String)] = [
        ("CoreDataPlus-SampleModel", "SampleModel_V1.sqlite", "SampleModel.xcdatamodeld"),
        ("CoreDataPlus-SampleModel", "SampleModel_V2.sqlite", "SampleModel.xcdatamodeld"),
        ("CoreDataPlus-SampleModel3", "SampleModel3_V1.sqlite", "SampleModel3.xcdatamodeld"),
        ("EasyLife", "EasyLife 1.3.0.sqlite", "EasyLife.xcdatamodeld"),
        ("EasyLife", "EasyLife 1.5.0.sqlite", "EasyLife.xcdatamodeld"),
        ("BrowserServicesKit-Bookmarks", "Bookmarks_V2.sqlite", "BookmarksModel.xcdatamodeld"),
        ("BrowserServicesKit-Bookmarks", "Bookmarks_V3.sqlite", "BookmarksModel.xcdatamodeld"),
        ("BrowserServicesKit-Bookmarks", "Bookmarks_V4.sqlite", "BookmarksModel.xcdatamodeld"),
        ("BrowserServicesKit-Bookmarks", "Bookmarks_V5.sqlite", "BookmarksModel.xcdatamodeld"),
    ]

    /// The archive's parts the check reads.
    struct File: Decodable {
        struct Source: Decodable { var model: [String: EntityDeclaration]? }
        struct Record: Decodable {
            var id: UUID
            var key: Int64?
            var values: [String: ExtraValue]?
        }
        var source: Source
        var entities: [String: [Record]]?
    }

    @Test("each store into each version: carried and verified, or refused for a required attribute", arguments: stores)
    func migrate(folder: String, store: String, modelName: String) throws {
        let scratch = try Scratch()
        let legacy = try SharedFixtures.copy("models/\(folder)/\(store)", into: scratch)
        let model = SharedFixtures.path("models/\(folder)/\(modelName)")
        let versions = try FileManager.default.contentsOfDirectory(atPath: model)
            .filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }.sorted()
        let identified = try TasksBinary.run(["model", "identify", "--store", legacy, "--model", model, "--json"])
        let own =
            (try JSONSerialization.jsonObject(with: Data(identified.stdout.utf8)) as? [String: Any])?["version"]
            as? String
        let archive = scratch.path("legacy.json")
        // A store no version of the shared model matches (EasyLife 1.3.0's) is read by its own model cache.
        let export = try TasksBinary.run(
            ["export", "--store", legacy, "-o", archive] + (own == nil ? [] : ["--model", model]))
        try #require(export.status == 0, "\(export.stderr)")
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: archive)))
        var carried = 0
        for version in versions {
            let target = scratch.path("migrated \(version).sqlite")
            let migrate = try TasksBinary.run([
                "migrate", "--from", legacy, "--to", target, "--backup", scratch.path("backups"), "--model", model,
                "--model-version", version,
            ])
            if version == own {
                #expect(migrate.status == 0, "\(store) → \(version): \(migrate.stderr)")
            }
            guard own != nil else {
                // No version of the model wrote it, but it keeps its own model (its model cache): read and mapped
                // from that.
                #expect(migrate.status == 0, "\(store) → \(version): \(migrate.stderr)")
                #expect(
                    migrate.stderr.contains("from the store's own model (its model cache: no version of"),
                    "\(store) → \(version): \(migrate.stderr)")
                continue
            }
            guard migrate.status == 0 else {
                #expect(migrate.status == 65, "\(store) → \(version): \(migrate.stderr)")
                #expect(
                    migrate.stderr.contains("is required in the target model, which gives it no default value"),
                    "\(store) → \(version): \(migrate.stderr)")
                #expect(!FileManager.default.fileExists(atPath: target), "\(store) → \(version): left a store")
                continue
            }
            carried += 1
            #expect(migrate.stderr.contains("; verified;"), "\(store) → \(version): \(migrate.stderr)")
            let targetModel = try ModelSource(path: model).version(named: version).model
            try checkValues(file, in: target, model: targetModel, label: "\(store) → \(version)")
        }
        // Every store a version of its model wrote reaches at least that version.
        if own != nil { #expect(carried >= 1, "\(store): carried into no version") }
    }

    /// Each generic record's values, as the mapping into `model` gives them, compared with the new store's columns.
    private func checkValues(_ file: File, in store: String, model: ObjectModel, label: String) throws {
        let mapping = try VersionMapping(from: file.source.model ?? [:], to: model)
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        var entityTables: [String: (number: Int64, table: String)] = [:]
        var parents: [Int64: Int64] = [:]
        var names: [Int64: String] = [:]
        for row in try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY") {
            names[row[0].int64 ?? 0] = row[1].string ?? ""
            parents[row[0].int64 ?? 0] = row[2].int64 ?? 0
        }
        for (number, name) in names {
            var root = number
            while let parent = parents[root], parent != 0 { root = parent }
            entityTables[name] = (number, "Z" + (names[root] ?? name).uppercased())
        }
        var checked = 0
        var tally = VersionMapping.Tally()
        for (entity, records) in file.entities ?? [:] {
            for (index, record) in records.enumerated() {
                let source = EntityRecord(id: record.id, entity: entity, key: record.key, values: record.values ?? [:])
                guard
                    let mapped = try mapping.apply(
                        source, path: "$.entities.\(entity)[\(index)]", tally: &tally),
                    let key = record.key, let place = entityTables[mapped.entity]
                else { continue }
                let declaration = mapping.targetDeclarations[mapped.entity]
                let columns = Set(try database.rows("PRAGMA table_info(\(place.table))").compactMap { $0[1].string })
                for (property, value) in mapped.values {
                    guard let type = declaration?.attributes[property],
                        ["string", "integer16", "integer32", "integer64", "boolean", "double", "date"].contains(type),
                        let column = columns.first(where: { $0.uppercased() == "Z" + property.uppercased() })
                    else { continue }
                    let stored = try database.rows(
                        "SELECT \(column) FROM \(place.table) WHERE Z_PK = \(key) AND Z_ENT = \(place.number)")
                    #expect(stored.count == 1, "\(label): \(mapped.entity) row \(key) is missing")
                    guard let cell = stored.first?[0] else { continue }
                    #expect(Self.same(cell, value, type: type), "\(label): \(mapped.entity).\(property) of \(key)")
                    checked += 1
                }
            }
        }
        if !(file.entities ?? [:]).isEmpty { #expect(checked > 0, "\(label): no value checked") }
    }

    /// A store cell against an archive value of model type `type`.
    private static func same(_ cell: SQLValue, _ value: ExtraValue, type: String) -> Bool {
        switch (type, value) {
        case (_, .null): return cell == .null
        case ("string", .string(let text)): return cell.string == text
        case ("boolean", .bool(let flag)): return cell.int64 == (flag ? 1 : 0)
        case (_, .integer(let number)): return cell.int64 == number
        case ("double", .double(let number)): return cell.double?.bitPattern == number.bitPattern
        case ("date", .string(let text)):
            guard let date = try? LosslessDate.date(from: text) else { return false }
            return cell.double?.bitPattern == date.timeIntervalSinceReferenceDate.bitPattern
        default: return false
        }
    }
}
