import Foundation
import Testing

@testable import TaskInterchange

@Suite("Table kinds")
struct StoreTableKindTests {
    /// A store with every kind of table a real one has: an entity table, a join table (one reflexive), Core Data's
    /// system and history tables, an R-tree fetch index and a full-text index with their shadow tables, and a table
    /// the app made.
    func schema(_ directory: TemporaryDirectory) throws -> StoreSchema {
        let path = directory.path("kinds.sqlite")
        let database = try Database(path: path, mode: .create)
        try database.execute(
            """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Asset', 0, 0), (2, 'Person', 0, 0), (16001, 'CHANGE', 0, 0);
            CREATE TABLE ZASSET (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLATITUDE FLOAT);
            CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER);
            CREATE TABLE Z_1PEOPLE (Z_1ASSETS INTEGER, Z_2PEOPLE INTEGER, Z_FOK_2PEOPLE INTEGER);
            CREATE TABLE Z_2FRIENDS (Z_2FRIENDS INTEGER, REFLEXIVE INTEGER);
            CREATE VIRTUAL TABLE Z_RT_Asset_boundedByRect USING RTREE (Z_PK INTEGER PRIMARY KEY, ZLATITUDE_MIN FLOAT,
                ZLATITUDE_MAX FLOAT);
            CREATE VIRTUAL TABLE ZSEARCH USING fts4(text);
            CREATE TABLE Z_APPNOTES (ZNOTE VARCHAR);
            CREATE TABLE ZSEARCH_extra (a INTEGER);
            """)
        return try StoreSchema(reading: database, path: path)
    }

    @Test("every table of the file has exactly the kind its role gives it")
    func kinds() throws {
        let schema = try schema(TemporaryDirectory())
        #expect(Set(schema.tableKinds.keys) == Set(schema.tables.keys))
        #expect(schema.tables(of: .system) == ["Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
        #expect(schema.tables(of: .entity) == ["ZASSET", "ZPERSON"])
        #expect(schema.tables(of: .internalEntity) == ["ACHANGE"])
        #expect(schema.tables(of: .join) == ["Z_1PEOPLE", "Z_2FRIENDS"])
        #expect(schema.tables(of: .rtreeIndex) == ["Z_RT_Asset_boundedByRect"])
        #expect(schema.kind(of: "ZSEARCH") == .virtual(module: "fts4"))
        for suffix in ["node", "parent", "rowid"] {
            #expect(schema.kind(of: "Z_RT_Asset_boundedByRect_\(suffix)") == .shadow(of: "Z_RT_Asset_boundedByRect"))
        }
        for suffix in ["content", "segments", "segdir"] {
            #expect(schema.kind(of: "ZSEARCH_\(suffix)") == .shadow(of: "ZSEARCH"))
        }
        // A `Z_` table with a column no join table has, and a name that only looks like a shadow's, are the app's.
        #expect(schema.tables(of: .app) == ["ZSEARCH_extra", "Z_APPNOTES"])
        // Without a model only join tables whose columns name both sides are read; never an index or a shadow.
        #expect(Set(schema.locator.joinDirections.map(\.table)) == ["Z_1PEOPLE"])
    }

    @Test("what holds data and what is derived or Core Data's own")
    func data() {
        #expect(StoreSchema.TableKind.app.holdsData && StoreSchema.TableKind.join.holdsData)
        #expect(!StoreSchema.TableKind.rtreeIndex.holdsData && !StoreSchema.TableKind.shadow(of: "x").holdsData)
        #expect(!StoreSchema.TableKind.system.holdsData && !StoreSchema.TableKind.internalEntity.holdsData)
    }

    @Test("the module a virtual table's statement names")
    func module() {
        #expect(StoreSchema.module(ofVirtualTable: "CREATE VIRTUAL TABLE x USING RTREE (a, b)") == "rtree")
        #expect(StoreSchema.module(ofVirtualTable: "CREATE VIRTUAL TABLE x USING fts5(body)") == "fts5")
        #expect(StoreSchema.module(ofVirtualTable: "CREATE VIRTUAL TABLE x") == "")
    }
}
