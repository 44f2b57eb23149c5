import Foundation
import Testing
@testable import TaskInterchange

/// `schemaStatements()` on hand-built models: the shapes the real stores lack (sub-entity column claims, hidden keys
/// next to sub-entity columns, reflexive and same-entity many-to-many, fetch indexes with descending elements) and
/// models that must not break it. The real stores themselves are compared in `SchemaFixtureTests`.
@Suite("Schema of a new store")
struct SchemaTests {
    /// Animals with sub-entities, keepers and tags.
    static let zoo: ObjectModel = {
        var cat = ObjectModel.Entity(
            "Cat", superentity: "Animal",
            attributes: [.init("color", .integer16), .init("id", .uuid), .init("price", .decimal)])
        cat.uniquenessConstraints = [["id"]]
        var bird = ObjectModel.Entity(
            "Bird", superentity: "Animal", attributes: [.init("wingspan", .double), .init("color", .string)])
        bird.fetchIndexes = [.init("byColor", elements: [.init("color", ascending: false), .init("name")])]
        var keeper = ObjectModel.Entity(
            "Keeper", attributes: [.init("name", .string)],
            relationships: [
                .init("animals", to: "Animal", inverse: "keeper", toMany: true, ordered: true),
                .init("favourite", to: "Animal", inverse: nil, toMany: false),
                .init("tags", to: "Tag", inverse: nil, toMany: true),
            ])
        keeper.fetchIndexes = [.init("favourite", elements: [.init("favourite")])]
        var animal = ObjectModel.Entity(
            "Animal", attributes: [.init("name", .string), .init("born", .date)],
            relationships: [.init("keeper", to: "Keeper", inverse: "animals", toMany: false)])
        animal.isAbstract = true
        return ObjectModel(entities: [
            .init("Tag", attributes: [.init("label", .string)]), keeper, cat,
            .init("Sparrow", superentity: "Bird", attributes: [.init("song", .binaryData)]), bird, animal,
        ])
    }()

    @Test("entities are numbered by root name, depth-first, children by name")
    func numbering() {
        #expect(Self.zoo.entityNumbers == ["Animal": 1, "Bird": 2, "Sparrow": 3, "Cat": 4, "Keeper": 5, "Tag": 6])
    }

    @Test(
        "one table per root: sub-entity columns claimed in entity order (ZCOLOR, ZCOLOR1), grouped by storage; keys, entity and order columns; indexes"
    )
    func inheritance() throws {
        #expect(
            Self.zoo.schemaStatements() == [
                "CREATE TABLE ZANIMAL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKEEPER INTEGER, Z_FOK_KEEPER INTEGER, ZCOLOR1 INTEGER, ZBORN TIMESTAMP, ZWINGSPAN FLOAT, ZPRICE DECIMAL, ZNAME VARCHAR, ZCOLOR VARCHAR, ZID BLOB, ZSONG BLOB )",
                "CREATE TABLE ZKEEPER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVOURITE INTEGER, Z1_FAVOURITE INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z5TAGS INTEGER, ZLABEL VARCHAR )",
                "CREATE INDEX ZANIMAL_ZKEEPER_INDEX ON ZANIMAL (ZKEEPER)",
                "CREATE INDEX ZANIMAL_Z_ENT_INDEX ON ZANIMAL (Z_ENT)",
                "CREATE INDEX Z_Bird_byColor ON ZANIMAL (ZCOLOR COLLATE BINARY DESC, ZNAME COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_Cat_UNIQUE_id ON ZANIMAL (ZID COLLATE BINARY ASC)",
                "CREATE INDEX ZKEEPER_ZFAVOURITE_INDEX ON ZKEEPER (ZFAVOURITE)",
                "CREATE INDEX ZTAG_Z5TAGS_INDEX ON ZTAG (Z5TAGS)",
            ] + SchemaLayout.systemTables)
        // A fetch index on one relationship is not created (Accounts3), and is no caveat.
        #expect(Self.zoo.schemaCaveats == [])
    }

    @Test("many-to-many: two entities, a reflexive relationship, a pair on one entity")
    func manyToMany() {
        let model = ObjectModel(entities: [
            .init(
                "Student", attributes: [],
                relationships: [
                    .init("courses", to: "Course", inverse: "students", toMany: true),
                    .init("friends", to: "Student", inverse: "friends", toMany: true),
                    .init("mentees", to: "Student", inverse: "mentors", toMany: true),
                    .init("mentors", to: "Student", inverse: "mentees", toMany: true),
                ]),
            .init(
                "Course", attributes: [],
                relationships: [.init("students", to: "Student", inverse: "courses", toMany: true, ordered: true)]),
        ])
        #expect(
            model.schemaStatements() == [
                "CREATE TABLE ZCOURSE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
                "CREATE TABLE Z_1STUDENTS ( Z_1COURSES INTEGER, Z_2STUDENTS INTEGER, Z_FOK_2STUDENTS INTEGER, PRIMARY KEY (Z_1COURSES, Z_2STUDENTS) )",
                "CREATE TABLE ZSTUDENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
                "CREATE TABLE Z_2FRIENDS ( Z_2FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_2FRIENDS, REFLEXIVE) )",
                "CREATE TABLE Z_2MENTORS ( Z_2MENTEES INTEGER, Z_2MENTORS INTEGER, PRIMARY KEY (Z_2MENTEES, Z_2MENTORS) )",
                "CREATE INDEX Z_1STUDENTS_Z_2STUDENTS_INDEX ON Z_1STUDENTS (Z_2STUDENTS, Z_1COURSES)",
                "CREATE INDEX Z_2FRIENDS_REFLEXIVE_INDEX ON Z_2FRIENDS (REFLEXIVE, Z_2FRIENDS)",
                "CREATE INDEX Z_2MENTORS_Z_2MENTORS_INDEX ON Z_2MENTORS (Z_2MENTORS, Z_2MENTEES)",
            ] + SchemaLayout.systemTables)
        #expect(
            model.schemaCaveats == [
                "Student.mentees and Student.mentors are a many-to-many pair on one entity: which of them names the join table is not reproducible; take the name from a template store when there is one"
            ])
    }

    /// The DDL the samples (and every store `tasks` created before the built-in model's DDL came from
    /// `SchemaLayout`) were made with, in `sqlite_master` order.
    static let taskManagerSchema = [
        "CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLOR VARCHAR, ZNAME VARCHAR, ZID BLOB )",
        "CREATE TABLE ZPROJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDAT TIMESTAMP, ZNAME VARCHAR, ZID BLOB )",
        "CREATE TABLE ZSUBTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZTASK INTEGER, Z_FOK_TASK INTEGER, ZTITLE VARCHAR, ZID BLOB )",
        "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZID BLOB )",
        "CREATE TABLE Z_4TASKS ( Z_4TAGS INTEGER, Z_5TASKS INTEGER, PRIMARY KEY (Z_4TAGS, Z_5TASKS) )",
        "CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZPRIORITY INTEGER, ZCATEGORY INTEGER, ZPROJECT INTEGER, ZCREATEDAT TIMESTAMP, ZDUEDATE TIMESTAMP, ZNOTES VARCHAR, ZTITLE VARCHAR, ZID BLOB )",
        "CREATE INDEX ZSUBTASK_ZTASK_INDEX ON ZSUBTASK (ZTASK)",
        "CREATE INDEX Z_4TASKS_Z_5TASKS_INDEX ON Z_4TASKS (Z_5TASKS, Z_4TAGS)",
        "CREATE INDEX ZTASK_ZCATEGORY_INDEX ON ZTASK (ZCATEGORY)",
        "CREATE INDEX ZTASK_ZPROJECT_INDEX ON ZTASK (ZPROJECT)",
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    @Test("the built-in task-manager model gives exactly the schema the samples were made with")
    func taskManager() {
        #expect(TaskManagerModel.model.schemaStatements() == Self.taskManagerSchema)
    }

    @Test("a new store of the built-in model: its tables, then its indexes after the load, as the samples have them")
    func taskManagerNewStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        let writer = try StoreWriter(path: path, create: true)
        try writer.transaction { _ = try writer.insert(ProjectRecord(id: UUID(), name: "P")) }
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let master = try database.rows("SELECT type, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        let tables = Self.taskManagerSchema.filter { $0.hasPrefix("CREATE TABLE") }
        let indexes = Self.taskManagerSchema.filter { $0.hasPrefix("CREATE INDEX") }
        #expect(master.map { $0[1].string ?? "" } == tables + indexes)
        let entities = try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        #expect(
            entities.map { "\($0[0].int64 ?? -1) \($0[1].string ?? "") \($0[2].int64 ?? -1) \($0[3].int64 ?? -1)" }
                == ["1 Category 0 0", "2 Project 0 1", "3 Subtask 0 0", "4 Tag 0 0", "5 Task 0 0"])
        let metadata = try database.rows("SELECT Z_VERSION, Z_PLIST FROM Z_METADATA")
        #expect(metadata.count == 1 && metadata.first?[0].int64 == 1)
        if case .blob(let plist)? = metadata.first?[1] {
            #expect(try StoreMetadata(plist: Data(plist)).versionHashes == TaskManagerModel.model.versionHashes)
        } else {
            Issue.record("no metadata plist")
        }
        // The model cache Core Data would write: it decodes to the built-in model's hashes.
        #expect(try database.scalar("SELECT count(*) FROM Z_MODELCACHE")?.int64 == 1)
        let cached = try ObjectModel(modelCacheIn: database, path: "the new store")
        #expect(cached?.versionHashes == TaskManagerModel.model.versionHashes)
    }

    @Test("shapes no real store shows are laid out, listed as caveats, and every statement runs in SQLite")
    func unconfirmedShapes() throws {
        var address = ObjectModel.Attribute("address", .composite)
        var geo = ObjectModel.Attribute("geo", .composite)
        geo.elements = [.init("lat", .double)]
        address.elements = [.init("street", .string), geo]
        var total = ObjectModel.Attribute("total", .integer64)
        total.derivation = "sum:(items.price)"
        var entity = ObjectModel.Entity("Order", attributes: [address, total, .init("nothing", .undefined)])
        // A nested compound predicate: no real store shows how Core Data writes one in SQL.
        entity.fetchIndexes = [
            .init(
                "recent", elements: [.init("total")], partialIndexPredicate: "total > 0 AND (total < 9 OR total > 99)")
        ]
        let model = ObjectModel(entities: [entity])
        #expect(
            model.schemaStatements().first
                == "CREATE TABLE ZORDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOTAL INTEGER, ZADDRESS_GEO_LAT FLOAT, ZADDRESS_STREET VARCHAR )"
        )
        #expect(model.schemaCaveats.count == 4)
        #expect(
            model.schemaCaveats.allSatisfy { $0.hasPrefix("Order.") || $0.hasPrefix("fetch index recent of Order") })
        try Self.run(model, in: TemporaryDirectory())
    }

    @Test("names that are not plain identifiers are quoted, so a hostile model cannot change the statements")
    func hostileNames() throws {
        let evil = "x INTEGER); DROP TABLE Z_PRIMARYKEY; --"
        let model = ObjectModel(entities: [
            .init(
                "Evil\"", attributes: [.init(evil, .string)],
                relationships: [.init("o'k", to: "Evil\"", inverse: nil, toMany: false)])
        ])
        let statements = model.schemaStatements()
        #expect(
            statements.first
                == #"CREATE TABLE "ZEVIL""" ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, "ZO'K" INTEGER, "ZX INTEGER); DROP TABLE Z_PRIMARYKEY; --" VARCHAR )"#
        )
        #expect(model.schemaCaveats.count == 1)
        let directory = try TemporaryDirectory()
        let database = try Self.run(model, in: directory)
        #expect(try database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_PRIMARYKEY'")?.int64 == 1)
        #expect(try database.rows("SELECT name FROM pragma_table_info('ZEVIL\"')").count == 5)
    }

    @Test("non-ASCII names stay bare, as SQLite allows, and are reported: their uppercasing is unconfirmed")
    func nonASCII() throws {
        let model = ObjectModel(entities: [.init("Personne", attributes: [.init("prénom", .string)])])
        #expect(
            model.schemaStatements().first
                == "CREATE TABLE ZPERSONNE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPRÉNOM VARCHAR )")
        #expect(
            model.schemaCaveats == [
                "the name prénom is not ASCII: how Core Data uppercases it for its columns is unconfirmed (Swift's uppercasing is used)"
            ])
        try Self.run(model, in: TemporaryDirectory())
    }

    @Test("a superentity cycle in a hand-built model is numbered as roots and reported")
    func cycle() {
        let model = ObjectModel(entities: [
            .init("A", superentity: "B", attributes: []), .init("B", superentity: "A", attributes: []),
        ])
        #expect(model.entityNumbers == ["A": 1, "B": 2])
        #expect(model.schemaCaveats == ["A is part of a superentity cycle; it is numbered and stored as a root"])
    }

    @Test(
        "normalizedSchema: one space between tokens, none inside parentheses, quoted text kept, sorted, history tables optional"
    )
    func normalizedSchema() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("n.sqlite"), mode: .create)
        try database.execute(
            """
            CREATE TABLE ZB (Z_PK INTEGER PRIMARY KEY,
                ZNAME   VARCHAR DEFAULT 'a  b' , ZX "odd  name");
            CREATE INDEX ZB_ZNAME_INDEX ON ZB ( ZNAME );
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY );
            CREATE TABLE Z_2X ( Z_2A INTEGER, Z_2B INTEGER, PRIMARY KEY (Z_2A, Z_2B) );
            """)
        #expect(
            try ObjectModel.normalizedSchema(of: database) == [
                "CREATE INDEX ZB_ZNAME_INDEX ON ZB (ZNAME)",
                "CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY)",
                #"CREATE TABLE ZB (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR DEFAULT 'a  b', ZX "odd  name")"#,
                "CREATE TABLE Z_2X (Z_2A INTEGER, Z_2B INTEGER, PRIMARY KEY (Z_2A, Z_2B))",
            ])
        #expect(try ObjectModel.normalizedSchema(of: database, includingInternalTables: false).count == 3)
    }

    @Test(
        "the metadata plist carries the model's hashes, and the optional keys as the framework version that wrote real stores did"
    )
    func metadata() throws {
        let model = TaskManagerModel.model
        for (version, digest, checksum, maximum) in [
            (865, false, false, false), (977, true, false, false), (1344, true, true, false), (1523, true, true, true),
        ] {
            let plist = model.metadataPlist(frameworkVersion: version)
            #expect(plist.starts(with: Array("bplist00".utf8)))
            let metadata = try StoreMetadata(plist: Data(plist))
            #expect(metadata.storeType == "SQLite")
            #expect(metadata.versionHashes == model.versionHashes)
            #expect(metadata.versionHashesVersion == 3)
            #expect(metadata.versionIdentifiers == [""])
            #expect(metadata.frameworkVersion == version)
            #expect(metadata.autoVacuumLevel == "2")
            #expect(metadata.digest == (digest ? model.versionHashesDigest : nil), "\(version)")
            #expect(metadata.checksum == (checksum ? model.versionChecksum : nil), "\(version)")
            #expect(metadata.maximumFrameworkVersion == (maximum ? version : nil), "\(version)")
        }
        #expect(
            try StoreMetadata(plist: Data(model.metadataPlist(storeType: "Other", frameworkVersion: 1))).storeType
                == "Other")
    }

    @Test("the binary plist writer: keys sorted at every level, every value read back by Foundation")
    func binaryPropertyList() throws {
        let long = (0..<20).map { BinaryPropertyList.Value.string("item \($0)") }
        let value = BinaryPropertyList.Value.dictionary([
            "zeta": .integer(-3), "Alpha": .integer(70_000), "beta": .data(Array(0..<40)), "émoji 🌱": .string("芽"),
            "list": .array(long + [.integer(1 << 40), .string("item 3")]),
            "nested": .dictionary(["b": .string("x"), "a": .integer(255), "c": .data([])]),
        ])
        let bytes = BinaryPropertyList.encode(value)
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        let read = try #require(
            try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        #expect(read["zeta"] as? Int == -3)
        #expect(read["Alpha"] as? Int == 70_000)
        #expect(read["beta"] as? Data == Data(Array(0..<40)))
        #expect(read["émoji 🌱"] as? String == "芽")
        let list = try #require(read["list"] as? [Any])
        #expect(list.count == 22)
        #expect(list[3] as? String == "item 3" && list[21] as? String == "item 3")
        #expect(list[20] as? Int == 1 << 40)
        let nested = try #require(read["nested"] as? [String: Any])
        #expect(nested["a"] as? Int == 255 && nested["b"] as? String == "x" && nested["c"] as? Data == Data())
        // Keys in UTF-16 order, the top dictionary's written in that order.
        #expect(
            BinaryPropertyList.sortedKeys(["b": .integer(0), "B": .integer(0), "a": .integer(0)]) == ["B", "a", "b"])
        let text = String(decoding: bytes.dropFirst(8).filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
        let positions = ["Alpha", "beta", "list", "nested", "zeta"].map { text.range(of: $0)!.lowerBound }
        #expect(positions == positions.sorted())
        // The same value, the same bytes.
        #expect(BinaryPropertyList.encode(value) == bytes)
    }

    /// Runs a model's statements in a new database in `directory`.
    @discardableResult
    static func run(_ model: ObjectModel, in directory: TemporaryDirectory) throws -> Database {
        let database = try Database(path: directory.path("s.sqlite"), mode: .create)
        for statement in model.schemaStatements() { try database.execute(statement) }
        return database
    }
}
