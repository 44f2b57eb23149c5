import CSQLite
import Foundation
import Testing
@testable import TaskInterchange

/// The fetch-index and derivation shapes Photos' store confirms, on hand-built models: partial indexes, elements that
/// index `SELF` and `entity`, R-tree indexes (a fetch index of R-tree elements, or a compiled model's location
/// attribute) with their triggers, and a to-one key-path derivation. `SchemaFixtureTests` compares them with the
/// real store; here the statements are pinned and a store made through the library is shown to keep its R-tree.
@Suite("Fetch indexes and derivations in a new store")
struct FetchIndexSchemaTests {
    /// Places with coordinates, an R-tree over them, and partial and expression indexes.
    static let places: ObjectModel = {
        var place = ObjectModel.Entity(
            "Place",
            attributes: [
                .init("kind", .integer16), .init("latitude", .double), .init("longitude", .double),
                .init("name", .string),
            ])
        place.fetchIndexes = [
            .init("byKind", elements: [.init("kind")], partialIndexPredicate: "kind != 0"),
            .init(
                "forAll",
                elements: [
                    .init("kind"), .init("expression1", expression: "SELF"),
                    .init("expression2", ascending: false, expression: "entity"),
                ], partialIndexPredicate: "kind == 2 OR kind == 4"),
            .init("byName", elements: [.init("name")], partialIndexPredicate: "name != nil AND kind > -1"),
            .init(
                "boundedByRect", elements: [.init("latitude", kind: .rTree), .init("longitude", kind: .rTree)]),
        ]
        return ObjectModel(entities: [place])
    }()

    @Test("partial, SELF and entity elements, and an R-tree with its three triggers, as Photos' store has them")
    func statements() {
        #expect(
            Self.places.schemaStatements() == [
                "CREATE TABLE ZPLACE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZNAME VARCHAR )",
                "CREATE INDEX Z_Place_byKind ON ZPLACE (ZKIND COLLATE BINARY ASC) WHERE ZKIND <> 0",
                "CREATE INDEX Z_Place_forAll ON ZPLACE (ZKIND COLLATE BINARY ASC, Z_PK COLLATE BINARY ASC, Z_ENT COLLATE BINARY DESC) WHERE (ZKIND = 2 OR ZKIND = 4)",
                "CREATE INDEX Z_Place_byName ON ZPLACE (ZNAME COLLATE BINARY ASC) WHERE (ZNAME IS NOT NULL AND ZKIND > -1)",
                "CREATE VIRTUAL TABLE Z_RT_Place_boundedByRect USING RTREE (Z_PK INTEGER PRIMARY KEY, ZLATITUDE_MIN FLOAT, ZLATITUDE_MAX FLOAT, ZLONGITUDE_MIN FLOAT, ZLONGITUDE_MAX FLOAT)",
                "CREATE TRIGGER Z_RT_Place_boundedByRect_INSERT AFTER INSERT ON ZPLACE FOR EACH ROW BEGIN INSERT OR REPLACE INTO Z_RT_Place_boundedByRect (Z_PK, ZLATITUDE_MIN, ZLATITUDE_MAX, ZLONGITUDE_MIN, ZLONGITUDE_MAX) VALUES (NEW.Z_PK, NEW.ZLATITUDE ,NEW.ZLATITUDE, NEW.ZLONGITUDE, NEW.ZLONGITUDE) ; END",
                "CREATE TRIGGER Z_RT_Place_boundedByRect_UPDATE AFTER UPDATE ON ZPLACE FOR EACH ROW BEGIN DELETE FROM Z_RT_Place_boundedByRect WHERE Z_PK = NEW.Z_PK ; INSERT INTO Z_RT_Place_boundedByRect (Z_PK, ZLATITUDE_MIN, ZLATITUDE_MAX, ZLONGITUDE_MIN, ZLONGITUDE_MAX) VALUES (NEW.Z_PK, NEW.ZLATITUDE ,NEW.ZLATITUDE, NEW.ZLONGITUDE, NEW.ZLONGITUDE) ; END",
                "CREATE TRIGGER Z_RT_Place_boundedByRect_DELETE AFTER DELETE ON ZPLACE FOR EACH ROW BEGIN DELETE FROM Z_RT_Place_boundedByRect WHERE Z_PK = OLD.Z_PK ; END",
            ] + SchemaLayout.systemTables)
        #expect(Self.places.schemaCaveats == [])
    }

    @Test("a compiled model's R-tree attribute (transient, undefined, its components in user info) is the same index")
    func compiledRTree() {
        var area = ObjectModel.Attribute("boundedByRect", .undefined)
        area.isTransient = true
        area.userInfo = [ObjectModel.Entity.locationComponentsKey: "latitude, longitude"]
        let model = ObjectModel(entities: [
            .init("Place", attributes: [.init("latitude", .double), .init("longitude", .double), area])
        ])
        let layout = SchemaLayout(model: model)
        #expect(
            layout.rTrees == [
                SchemaLayout.RTree(
                    name: "Z_RT_Place_boundedByRect", table: "ZPLACE", columns: ["ZLATITUDE", "ZLONGITUDE"])
            ])
        #expect(layout.caveats == [])
    }

    @Test("a to-one key path derivation gets the four Z_DA_ triggers of Photos' derivedCameraCaptureDevice")
    func keyPathDerivation() {
        var derived = ObjectModel.Attribute("derivedCamera", .integer16)
        derived.derivation = "details.camera"
        let model = ObjectModel(entities: [
            .init(
                "Photo", attributes: [derived],
                relationships: [.init("details", to: "Details", inverse: "photo", toMany: false)]),
            .init(
                "Details", attributes: [.init("camera", .integer16)],
                relationships: [.init("photo", to: "Photo", inverse: "details", toMany: false)]),
        ])
        let triggers = model.schemaStatements().filter { $0.hasPrefix("CREATE TRIGGER") }
        #expect(
            triggers == [
                "CREATE TRIGGER Z_DA_ZPHOTO_Photo_derivedCamera_SOURCE_INSERT AFTER INSERT ON ZPHOTO FOR EACH ROW BEGIN UPDATE ZPHOTO SET ZDERIVEDCAMERA = (SELECT ZCAMERA FROM ZDETAILS WHERE Z_PK = NEW.ZDETAILS) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZPHOTO', Z_ENT, Z_PK, 'derivedCamera', ZDERIVEDCAMERA) FROM ZPHOTO WHERE Z_PK = NEW.Z_PK; END",
                "CREATE TRIGGER Z_DA_ZPHOTO_Photo_derivedCamera_SOURCE_UPDATE AFTER UPDATE OF ZDETAILS ON ZPHOTO FOR EACH ROW BEGIN UPDATE ZPHOTO SET ZDERIVEDCAMERA = (SELECT ZCAMERA FROM ZDETAILS WHERE Z_PK = NEW.ZDETAILS) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZPHOTO', Z_ENT, Z_PK, 'derivedCamera', ZDERIVEDCAMERA) FROM ZPHOTO WHERE Z_PK = NEW.Z_PK; END",
                "CREATE TRIGGER Z_DA_ZDETAILS_Photo_derivedCamera_PARAMETER_INSERT AFTER INSERT ON ZDETAILS FOR EACH ROW BEGIN UPDATE ZPHOTO SET ZDERIVEDCAMERA = NEW.ZCAMERA WHERE ZDETAILS = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZPHOTO', Z_ENT, Z_PK, 'derivedCamera', ZDERIVEDCAMERA) FROM ZPHOTO WHERE ZDETAILS = NEW.Z_PK; END",
                "CREATE TRIGGER Z_DA_ZDETAILS_Photo_derivedCamera_PARAMETER_UPDATE AFTER UPDATE OF ZCAMERA ON ZDETAILS FOR EACH ROW BEGIN UPDATE ZPHOTO SET ZDERIVEDCAMERA = NEW.ZCAMERA WHERE ZDETAILS = NEW.Z_PK; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZPHOTO', Z_ENT, Z_PK, 'derivedCamera', ZDERIVEDCAMERA) FROM ZPHOTO WHERE ZDETAILS = NEW.Z_PK; END",
            ])
        #expect(model.schemaCaveats == [])
    }

    @Test("NSTriggerKey counts across a to-one and a to-many get Photos' seven ZT_ triggers each; other forms a caveat")
    func triggerKeyCounts() throws {
        var visible = ObjectModel.Attribute("visible", .boolean)
        visible.userInfo = [SchemaLayout.triggerKey: "(photo.hidden == NO) && (photo.state != 0)"]
        var count = ObjectModel.Attribute("faceCount", .integer32)
        count.userInfo = [SchemaLayout.triggerKey: "(faces.visible == YES)"]
        var odd = ObjectModel.Attribute("named", .integer32)
        odd.userInfo = [SchemaLayout.triggerKey: "(faces.name == \"x\")"]
        let model = ObjectModel(entities: [
            .init(
                "Face", attributes: [visible, .init("name", .string)],
                relationships: [
                    .init("person", to: "Person", inverse: "faces", toMany: false),
                    .init("photo", to: "Photo", inverse: nil, toMany: false),
                ]),
            .init(
                "Person", attributes: [count, odd],
                relationships: [.init("faces", to: "Face", inverse: "person", toMany: true)]),
            .init("Photo", attributes: [.init("hidden", .boolean), .init("state", .integer16)]),
        ])
        let triggers = model.schemaStatements().filter { $0.hasPrefix("CREATE TRIGGER") }
        #expect(
            triggers.map { $0.split(separator: " ")[2] } == [
                "ZT_ZFACE_ZVISIBLE_ZPHOTO_INSERT_INCREMENT", "ZT_ZFACE_ZVISIBLE_ZPHOTO_UPDATE_INCREMENT",
                "ZT_ZFACE_ZVISIBLE_ZPHOTO_UPDATE_DECREMENT", "ZT_ZFACE_ZVISIBLE_ZPHOTO_DELETE_DECREMENT",
                "ZT_ZFACE_ZVISIBLE_ZPHOTO_ZFACE_INSERT_INCREMENT", "ZT_ZFACE_ZVISIBLE_ZPHOTO_ZPHOTO_UPDATE_TO_NULL",
                "ZT_ZFACE_ZVISIBLE_ZPHOTO_ZPHOTO_UPDATE_INCREMENT",
                "ZT_ZPERSON_ZFACECOUNT_ZFACE_INSERT_INCREMENT", "ZT_ZPERSON_ZFACECOUNT_ZFACE_UPDATE_INCREMENT",
                "ZT_ZPERSON_ZFACECOUNT_ZFACE_UPDATE_DECREMENT", "ZT_ZPERSON_ZFACECOUNT_ZFACE_DELETE_DECREMENT",
                "ZT_ZPERSON_ZFACECOUNT_ZFACE_ZPERSON_INSERT_INCREMENT",
                "ZT_ZPERSON_ZFACECOUNT_ZFACE_ZPERSON_UPDATE_INCREMENT",
                "ZT_ZPERSON_ZFACECOUNT_ZFACE_ZPERSON_UPDATE_DECREMENT",
            ])
        #expect(
            triggers.first
                == "CREATE TRIGGER ZT_ZFACE_ZVISIBLE_ZPHOTO_INSERT_INCREMENT AFTER INSERT ON ZPHOTO FOR EACH ROW WHEN NEW.ZHIDDEN == 0 AND NEW.ZSTATE != 0 BEGIN UPDATE ZFACE SET ZVISIBLE = IFNULL(ZVISIBLE,0) + 1 WHERE NEW.Z_PK = ZPHOTO; SELECT NSCoreDataTriggerUpdateAffectedObjectValue('ZFACE', Z_ENT, Z_PK, 'ZVISIBLE', ZVISIBLE) FROM ZFACE WHERE ZPHOTO = NEW.Z_PK; END"
        )
        #expect(
            model.schemaCaveats == [
                "Person.named counts (faces.name == \"x\") (NSTriggerKey): only comparisons across one relationship with a to-one side get their ZT_ triggers here"
            ])
        // Every statement is valid SQL.
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("counts.sqlite"), mode: .create)
        for statement in model.schemaStatements() { try database.execute(statement) }
    }

    @Test(
        "an empty store made from the model (model new-store's library call) has the R-tree, and its triggers keep it",
        arguments: [false, true])
    func newStoreKeepsRTree(batched: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("places.sqlite")
        let template = StoreTemplate(model: Self.places)
        if batched {
            try template.makeEmptyStore(at: path, batchedAbove: 0)
        } else {
            try template.makeEmptyStore(at: path)
        }
        let database = try Database(path: path, mode: .readWrite)
        let master = try database.rows("SELECT type, name FROM sqlite_master WHERE name LIKE 'Z_RT_%' ORDER BY name")
            .map { "\($0[0].string ?? "") \($0[1].string ?? "")" }
        let expectedMaster: [String] = [
            "table Z_RT_Place_boundedByRect", "table Z_RT_Place_boundedByRect_node",
            "table Z_RT_Place_boundedByRect_parent", "table Z_RT_Place_boundedByRect_rowid",
            "trigger Z_RT_Place_boundedByRect_DELETE", "trigger Z_RT_Place_boundedByRect_INSERT",
            "trigger Z_RT_Place_boundedByRect_UPDATE",
        ]
        #expect(master.sorted() == expectedMaster)
        // Everything else in the store is the model's statements: SQLite made the shadow tables itself.
        let shadows = ["_node\"", "_parent\"", "_rowid\""].map { "Z_RT_Place_boundedByRect" + $0 }
        let made = try ObjectModel.normalizedSchema(of: database).filter { sql in !shadows.contains { sql.contains($0) }
        }
        let statements = Self.places.schemaStatements().map(ObjectModel.normalized)
        #expect(Set(made) == Set(statements))
        // The triggers keep the index on an app's connection (`tasks`' own never fires triggers): a row in, moved,
        // and out.
        let app = try AppConnection(path: path)
        let box = "SELECT ZLATITUDE_MIN, ZLATITUDE_MAX, ZLONGITUDE_MIN FROM Z_RT_Place_boundedByRect WHERE Z_PK = 7"
        try app.execute("INSERT INTO ZPLACE (Z_PK, Z_ENT, Z_OPT, ZLATITUDE, ZLONGITUDE) VALUES (7, 1, 1, 48.5, 2.25)")
        #expect(app.doubles(box) == [48.5, 48.5, 2.25])
        try app.execute("UPDATE ZPLACE SET ZLATITUDE = -33.75 WHERE Z_PK = 7")
        #expect(app.doubles(box) == [-33.75, -33.75, 2.25])
        try app.execute("DELETE FROM ZPLACE WHERE Z_PK = 7")
        #expect(app.doubles(box) == [])
    }

    /// A plain SQLite connection with triggers on, as the app's own.
    final class AppConnection {
        private var db: OpaquePointer?

        init(path: String) throws {
            guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
                throw CocoaError(.fileReadUnknown)
            }
        }

        deinit { sqlite3_close(db) }

        func execute(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
                Issue.record("\(sql): \(String(cString: sqlite3_errmsg(db)))")
                throw CocoaError(.fileWriteUnknown)
            }
        }

        /// The first row's columns as doubles; empty when there is no row.
        func doubles(_ sql: String) -> [Double] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { return [] }
            return (0..<sqlite3_column_count(statement)).map { sqlite3_column_double(statement, $0) }
        }
    }
}
