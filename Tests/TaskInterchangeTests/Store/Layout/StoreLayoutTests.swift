import Foundation
import Testing

@testable import TaskInterchange

/// The layout computed from a store's model against the store's own DDL, for every shared store that carries a model
/// cache: tables, columns with their declared types, join tables, the indexed column tuples and `Z_PRIMARYKEY`.
@Suite(
    "Store layout, against real stores",
    .enabled(
        if: RealStores.available && ModelFixtures.available,
        "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"))
struct StoreLayoutTests {
    /// Join tables whose name the store's DDL settled (a many-to-many pair on one entity: no public rule names it).
    static let settledByTheStore: Set<String> = [
        "Z_2FAVORITES", "Z_25IGNOREDCLIENTS", "Z_25TRUSTEDCLIENTS", "Z_18IGNOREDCLIENTS", "Z_18TRUSTEDCLIENTS",
        "Z_23IGNOREDCLIENTS", "Z_23TRUSTEDCLIENTS",
    ]

    @Test("the computed layout is the store's DDL", arguments: WholeStoreRestoreTests.stores)
    func layoutEqualsDDL(store: String) throws {
        let directory = try TemporaryDirectory()
        let snapshot = try StoreSnapshot(path: try WholeStoreRestoreTests.copy(store, to: directory))
        guard let model = try ObjectModel(modelCacheOf: snapshot) else { return }
        var schema = try StoreSchema(reading: snapshot.database, path: snapshot.path)
        schema.locate(with: model)
        let layout = try #require(schema.layout)

        // Every difference is a join table found under the store's name.
        let unexplained = layout.differences.filter { !$0.contains("the join table is") }
        #expect(unexplained == [], "\(store)")

        // Entity numbering: a new store numbers the model's entities as this store does.
        let numbers = SchemaLayout(model: model).entityNumbers
        for entity in schema.entities where !entity.isInternal {
            // An entity renamed by a migration keeps its old name in Z_PRIMARYKEY.
            let name =
                model.entity(named: entity.name)?.name
                ?? model.entities.first { $0.renamingIdentifier == entity.name }?.name
            #expect(name.flatMap { numbers[$0] } == entity.number, "\(store): \(entity.name)")
        }

        // Tables and columns with declared types, from the layout made with the store's numbers.
        let computed = SchemaLayout(
            model: model,
            numbers: Dictionary(
                uniqueKeysWithValues: schema.entities.filter { !$0.isInternal }.map { ($0.name, $0.number) }))
        var expected: [String: Set<String>] = [:]
        for table in computed.tables {
            expected[table.name] = Set(
                ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                    + table.columns.map { "\($0.name) \($0.storage.declaredType)" })
            for join in table.joinTables {
                expected[join.name] = Set(([join.first, join.second] + join.orderColumns).map { "\($0) INTEGER" })
            }
        }
        // Entity and join tables as the store classifies them: an R-tree index and SQLite's shadow tables are neither.
        var actual: [String: Set<String>] = [:]
        for (table, columns) in schema.tables where [.entity, .join].contains(schema.kind(of: table)) {
            actual[table] = Set(columns.map { "\($0.name) \($0.declaredType)" })
        }
        #expect(
            schema.tables(of: .rtreeIndex) == computed.rTrees.map(\.name).sorted(), "\(store): R-tree indexes")
        // Join tables are compared by their columns (the store settles the name of a pair on one entity).
        let expectedJoins = Set(expected.filter { $0.key.hasPrefix("Z_") }.values)
        let actualJoins = Set(actual.filter { $0.key.hasPrefix("Z_") }.values)
        #expect(expectedJoins == actualJoins, "\(store): join tables")
        #expect(
            Set(expected.keys.filter { !$0.hasPrefix("Z_") }) == Set(actual.keys.filter { !$0.hasPrefix("Z_") }),
            "\(store): entity tables")
        for (table, columns) in expected where !table.hasPrefix("Z_") {
            let found = actual[table] ?? []
            #expect(columns.subtracting(found).sorted() == [], "\(store): \(table) lacks")
            #expect(found.subtracting(columns).sorted() == [], "\(store): \(table) has more")
        }

        // Indexed column tuples (names vary with framework age; migrations keep old ones), partial ones included.
        var storeTuples: [String: [[String]: [String]]] = [:]
        for row in try snapshot.database.rows(
            "SELECT m.tbl_name, m.name FROM sqlite_master m WHERE m.type = 'index' AND m.sql IS NOT NULL")
        {
            guard let table = row[0].string, let name = row[1].string, !table.hasPrefix("A") else { continue }
            let columns = try snapshot.database.rows(
                "SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)]
            ).compactMap { $0[0].string }
            storeTuples[table, default: [:]][columns, default: []].append(name)
        }
        var notFromModel: [String] = []
        for (table, tuples) in layout.indexedColumns {
            let found = Set((storeTuples[table] ?? [:]).keys)
            #expect(
                tuples.subtracting(found).map { $0.joined(separator: ",") }.sorted() == [],
                "\(store): \(table) indexes the store lacks")
            // A migration that renamed a join table keeps its old index too, on the columns in the other order.
            let extra = found.subtracting(tuples).filter { !(table.hasPrefix("Z_") && tuples.contains($0.reversed())) }
            notFromModel += extra.flatMap { storeTuples[table]?[$0] ?? [] }
        }
        // Indexes no model describes are named, not failed: only the two Photos created itself on its album-asset
        // join table are, and neither has Core Data's form of name.
        let appIndexes = store.contains("Photos-13.0.1") ? ["RADAR_10322662_INDEX", "RADAR_22158684_INDEX"] : []
        #expect(notFromModel.sorted() == appIndexes, "\(store): indexes not from the model")
    }
}
