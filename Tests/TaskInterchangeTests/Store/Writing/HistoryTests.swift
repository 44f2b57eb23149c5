import Foundation
import Testing
@testable import TaskInterchange

/// Persistent history rows (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`) written for what an import changed.
@Suite("Persistent history")
struct HistoryTests {
    /// The history tables and indexes exactly as in the Apple-written `CartKitSwiftData_v1` fixture.
    static let historyDDL = """
        CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
        CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
        CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
        CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
        CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS);
        CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS);
        CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS);
        CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS);
        CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC);
        CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC);
        CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);
        INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), (16003, 'TRANSACTIONSTRING', 0, 0);
        """

    /// Built-in model entity numbers.
    enum Entity {
        static let category: Int64 = 1, project: Int64 = 2, subtask: Int64 = 3, tag: Int64 = 4, task: Int64 = 5
    }

    /// One `ACHANGE` row.
    struct Change: Hashable, CustomStringConvertible {
        var type: Int64
        var entity: Int64
        var key: Int64
        var description: String { "(\(type), \(entity), \(key))" }
    }

    static func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    static let date = Date(timeIntervalSinceReferenceDate: 700_000_000)

    /// Projects 1, 2; category 11; tags 21, 22; task 31 (project 1, category 11, tag 21, subtasks 41, 42), task 32
    /// (project 2), task 33 (subtask 43).
    static let base = Archive(
        projects: [ProjectRecord(id: id(1), name: "Home"), ProjectRecord(id: id(2), name: "Work")],
        categories: [CategoryRecord(id: id(11), name: "Errands")],
        tags: [TagRecord(id: id(21), name: "phone"), TagRecord(id: id(22), name: "mail")],
        tasks: [
            TaskRecord(
                id: id(31), title: "Call Ana", createdAt: date, projectId: id(1), categoryId: id(11), tagIds: [id(21)],
                subtasks: [SubtaskRecord(id: id(41), title: "find number"), SubtaskRecord(id: id(42), title: "dial")]),
            TaskRecord(id: id(32), title: "Report", createdAt: date, projectId: id(2)),
            TaskRecord(
                id: id(33), title: "Walk", createdAt: date, subtasks: [SubtaskRecord(id: id(43), title: "shoes")]),
        ])

    /// A task-model store holding `base`, with Core Data's history tables added.
    static func storeWithHistory(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("history.sqlite")
        _ = try StoreImport.run(base, into: path, options: StoreImportOptions())
        // As an app's store of a model like the built-in one, without the cache tasks writes for that model.
        try Database(path: path, mode: .readWrite).execute(historyDDL + "; DELETE FROM Z_MODELCACHE")
        return path
    }

    static func database(_ path: String) throws -> Database {
        try Database(path: path, mode: .readOnly(immutable: false))
    }

    static func scalar(_ path: String, _ sql: String) throws -> SQLValue? {
        try database(path).scalar(sql)
    }

    /// `ACHANGE` rows in key order.
    static func changes(_ path: String) throws -> [Change] {
        try database(path).rows("SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK FROM ACHANGE ORDER BY Z_PK").map {
            Change(type: $0[0].int64 ?? -1, entity: $0[1].int64 ?? -1, key: $0[2].int64 ?? -1)
        }
    }

    /// The key of the row whose `ZID` is `id`.
    static func key(_ path: String, _ table: String, _ id: UUID) throws -> Int64 {
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        return try #require(try database(path).scalar("SELECT Z_PK FROM \(table) WHERE ZID = ?", [.blob(bytes)])?.int64)
    }

    /// `Z_MAX` of each history entity is at least the largest key of its table.
    static func expectMaxKeysCover(_ path: String) throws {
        for (name, table) in [
            ("CHANGE", "ACHANGE"), ("TRANSACTION", "ATRANSACTION"), ("TRANSACTIONSTRING", "ATRANSACTIONSTRING"),
        ] {
            let recorded = try scalar(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = '\(name)'")?.int64 ?? -1
            let present = try scalar(path, "SELECT coalesce(max(Z_PK), 0) FROM \(table)")?.int64 ?? -1
            #expect(recorded >= present && present > 0, "\(name): Z_MAX \(recorded), largest key \(present)")
        }
    }

    static func expectIntegrity(_ path: String) throws {
        #expect(try scalar(path, "PRAGMA integrity_check")?.string == "ok")
    }

    static func upsert() -> StoreImportOptions {
        var options = StoreImportOptions()
        options.mode = .upsert
        return options
    }

    @Test(
        "upsert: one transaction by \"tasks\"; an insert entry per new object, an update entry per changed existing one, a delete entry per removed subtask"
    )
    func upsertWritesOneTransaction() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.storeWithHistory(directory)
        let keys = try (
            p1: Self.key(path, "ZPROJECT", Self.id(1)), p2: Self.key(path, "ZPROJECT", Self.id(2)),
            c11: Self.key(path, "ZCATEGORY", Self.id(11)), t21: Self.key(path, "ZTAG", Self.id(21)),
            t22: Self.key(path, "ZTAG", Self.id(22)),
            k31: Self.key(path, "ZTASK", Self.id(31)), k32: Self.key(path, "ZTASK", Self.id(32)),
            s41: Self.key(path, "ZSUBTASK", Self.id(41)), s42: Self.key(path, "ZSUBTASK", Self.id(42))
        )
        // Project 1 renamed and project 3 new; tag 22 renamed; task 31 loses tag 21 and subtask 42; task 32 moves from
        // project 2 (not in the archive) to project 3; task 34 is new, in project 1 with tag 22 and subtask 44.
        let archive = Archive(
            projects: [
                ProjectRecord(id: Self.id(1), name: "Home (renamed)"), ProjectRecord(id: Self.id(3), name: "New"),
            ],
            categories: [CategoryRecord(id: Self.id(11), name: "Errands")],
            tags: [TagRecord(id: Self.id(22), name: "post")],
            tasks: [
                TaskRecord(
                    id: Self.id(31), title: "Call Ana today", createdAt: Self.date, projectId: Self.id(1),
                    categoryId: Self.id(11),
                    subtasks: [SubtaskRecord(id: Self.id(41), title: "find number")]),
                TaskRecord(id: Self.id(32), title: "Report", createdAt: Self.date, projectId: Self.id(3)),
                TaskRecord(
                    id: Self.id(34), title: "Write", createdAt: Self.date, projectId: Self.id(1), tagIds: [Self.id(22)],
                    subtasks: [SubtaskRecord(id: Self.id(44), title: "pen")]),
            ])
        let before = Date().timeIntervalSinceReferenceDate
        let result = try StoreImport.run(archive.sortedByID(), into: path, options: Self.upsert())
        #expect(!result.warnings.contains { $0.contains("history") }, "\(result.warnings)")

        let transactions = try Self.database(path).rows(
            "SELECT Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZPROCESSIDTS, ZCONTEXTNAMETS, ZTIMESTAMP, ZAUTHOR, ZQUERYGEN FROM ATRANSACTION"
        )
        try #require(transactions.count == 1)
        let transaction = transactions[0]
        #expect(transaction[1] == .integer(16002))
        #expect(
            transaction[2] == .null && transaction[6] == .null && transaction[8] == .null && transaction[9] == .null)
        let author = try #require(transaction[3].int64)
        #expect(try Self.scalar(path, "SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = \(author)") == .text("tasks"))
        #expect(transaction[4] == .integer(author) && transaction[5] == .integer(author))
        let timestamp = try #require(transaction[7].double)
        #expect(timestamp >= before.rounded(.down) && timestamp <= Date().timeIntervalSinceReferenceDate + 1)

        let inserted = try [
            Change(type: 0, entity: Entity.project, key: Self.key(path, "ZPROJECT", Self.id(3))),
            Change(type: 0, entity: Entity.task, key: Self.key(path, "ZTASK", Self.id(34))),
            Change(type: 0, entity: Entity.subtask, key: Self.key(path, "ZSUBTASK", Self.id(44))),
        ]
        // Category 11 is as the archive says: upsert leaves it unwritten, so it has no update entry.
        let updated = [
            Change(type: 1, entity: Entity.project, key: keys.p1),
            Change(type: 1, entity: Entity.project, key: keys.p2),
            Change(type: 1, entity: Entity.tag, key: keys.t21),
            Change(type: 1, entity: Entity.tag, key: keys.t22), Change(type: 1, entity: Entity.task, key: keys.k31),
            Change(type: 1, entity: Entity.task, key: keys.k32), Change(type: 1, entity: Entity.subtask, key: keys.s41),
        ]
        let deleted = [Change(type: 2, entity: Entity.subtask, key: keys.s42)]
        let changes = try Self.changes(path)
        #expect(Set(changes) == Set(inserted + updated + deleted))
        #expect(!changes.contains(Change(type: 1, entity: Entity.category, key: keys.c11)))
        #expect(changes.count == inserted.count + updated.count + deleted.count)
        #expect(changes.map(\.type) == changes.map(\.type).sorted(), "inserts, then updates, then deletes")

        let rows = try Self.database(path).rows(
            "SELECT Z_ENT, Z_OPT, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, hex(ZCOLUMNS) FROM ACHANGE")
        #expect(rows.allSatisfy { $0[0] == .integer(16001) && $0[1] == .null && $0[2] == transaction[0] })
        #expect(
            rows.filter { $0[3] != .integer(1) }.allSatisfy { $0[5] == .text("") },
            "ZCOLUMNS is NULL for inserts and deletes")
        // Updates name every stored property of the built-in model's entity.
        let bitmaps = [
            Entity.category: "F0", Entity.project: "F0", Entity.subtask: "F0", Entity.tag: "E0", Entity.task: "FFE0",
        ]
        for row in rows where row[3] == .integer(1) {
            #expect(row[5].string == bitmaps[row[4].int64 ?? 0], "\(row)")
        }
        try Self.expectMaxKeysCover(path)
        #expect(
            try Self.scalar(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'CHANGE'")
                == .integer(Int64(changes.count)))
        try Self.expectIntegrity(path)
    }

    @Test(
        "a second import is the next transaction and reuses the author string; an import that changes nothing writes none"
    )
    func secondImportAndNoChanges() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.storeWithHistory(directory)
        var renamed = Self.base
        renamed.tags[0].name = "telephone"
        _ = try StoreImport.run(Archive(tags: [renamed.tags[0]]), into: path, options: Self.upsert())
        _ = try StoreImport.run(
            Archive(tags: [TagRecord(id: Self.id(23), name: "new")]), into: path, options: Self.upsert())
        #expect(
            try Self.database(path).rows("SELECT Z_PK, ZAUTHORTS FROM ATRANSACTION ORDER BY Z_PK") == [
                [.integer(1), .integer(1)], [.integer(2), .integer(1)],
            ])
        #expect(try Self.scalar(path, "SELECT count(*) FROM ATRANSACTIONSTRING") == .integer(1))
        #expect(
            try Self.database(path).rows("SELECT ZTRANSACTIONID, ZCHANGETYPE FROM ACHANGE ORDER BY Z_PK") == [
                [.integer(1), .integer(1)], [.integer(2), .integer(0)],
            ])
        let stamps = try Self.database(path).rows("SELECT ZTIMESTAMP FROM ATRANSACTION ORDER BY Z_PK").compactMap {
            $0[0].double
        }
        #expect(stamps.count == 2 && stamps[0] <= stamps[1])

        // Skip mode with every id present, and an empty archive: nothing changes, so no transaction.
        var skip = StoreImportOptions()
        skip.mode = .skip
        let skipped = try StoreImport.run(Self.base, into: path, options: skip)
        #expect(skipped.plan[.task].skipped == Self.base.tasks.count)
        _ = try StoreImport.run(Archive(), into: path, options: Self.upsert())
        #expect(try Self.scalar(path, "SELECT count(*) FROM ATRANSACTION") == .integer(2))
        #expect(try Self.scalar(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'TRANSACTION'") == .integer(2))
        #expect(try Self.scalar(path, "SELECT count(*) FROM ACHANGE") == .integer(2))
    }

    @Test("skip mode: an existing project that gains a new task gets an update entry though its row is not rewritten")
    func relationshipOnlyUpdate() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.storeWithHistory(directory)
        var skip = StoreImportOptions()
        skip.mode = .skip
        let archive = Archive(
            projects: [Self.base.projects[1]], tags: [Self.base.tags[1]],
            tasks: [
                TaskRecord(
                    id: Self.id(35), title: "Plan", createdAt: Self.date, projectId: Self.id(2), tagIds: [Self.id(22)])
            ])
        _ = try StoreImport.run(archive, into: path, options: skip)
        let expected = try [
            Change(type: 0, entity: Entity.task, key: Self.key(path, "ZTASK", Self.id(35))),
            Change(type: 1, entity: Entity.project, key: Self.key(path, "ZPROJECT", Self.id(2))),
            Change(type: 1, entity: Entity.tag, key: Self.key(path, "ZTAG", Self.id(22))),
        ]
        #expect(try Self.changes(path) == expected)
    }

    @Test("replace: a delete entry per removed object, an update per object written again; no key reused")
    func replaceListsDeletes() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.storeWithHistory(directory)
        let tables = [
            ("ZPROJECT", Entity.project), ("ZCATEGORY", Entity.category), ("ZTAG", Entity.tag), ("ZTASK", Entity.task),
            ("ZSUBTASK", Entity.subtask),
        ]
        func objects() throws -> Set<Change> {
            var result: Set<Change> = []
            for (table, entity) in tables {
                for row in try Self.database(path).rows("SELECT Z_ENT, Z_PK FROM \(table)") {
                    #expect(row[0] == .integer(entity))
                    result.insert(Change(type: 0, entity: entity, key: row[1].int64 ?? -1))
                }
            }
            return result
        }
        let before = try objects()
        try #require(before.count == 11)
        // Another tool left Task's Z_MAX too low: the new tasks' keys must still go above the deleted ones.
        try Database(path: path, mode: .readWrite).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_NAME = 'Task'")
        var options = StoreImportOptions()
        options.mode = .replace
        var archive = ArchiveGenerator.archive(seed: 7, maxTasks: 6)
        archive.tasks.append(Self.base.tasks[1])
        archive.projects.append(Self.base.projects[1])
        let result = try StoreImport.run(archive.sortedByID(), into: path, options: options)
        #expect(result.plan[.task].deleted == 3)
        let after = try objects()
        let changes = try Self.changes(path)
        // The project and task the archive holds again are the same objects: their keys, an update each.
        let kept = before.intersection(after)
        #expect(kept.count == 2)
        func typed(_ type: Int64) -> Set<Change> {
            Set(changes.filter { $0.type == type }.map { Change(type: 0, entity: $0.entity, key: $0.key) })
        }
        #expect(typed(2) == before.subtracting(kept))
        #expect(typed(0) == after.subtracting(kept))
        #expect(typed(1) == kept)
        for (_, entity) in tables {
            let old = before.filter { $0.entity == entity }.map(\.key).max() ?? 0
            #expect(
                after.subtracting(kept).filter { $0.entity == entity }.allSatisfy { $0.key > old },
                "a new object took a key a removed one had")
        }
        #expect(changes.count == before.count + after.count - kept.count)
        #expect(changes.map(\.type) == changes.map(\.type).sorted())
        try Self.expectMaxKeysCover(path)
        try Self.expectIntegrity(path)
    }

    @Test("history tables not shaped as Core Data writes them: the warning stays and no history row is written")
    func malformedHistoryTables() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("partial.sqlite")
        _ = try StoreImport.run(Self.base, into: path, options: StoreImportOptions())
        try Database(path: path, mode: .readWrite).execute(
            """
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZTIMESTAMP FLOAT );
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
            INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0);
            """)
        let result = try StoreImport.run(
            Archive(tags: [TagRecord(id: Self.id(23), name: "new")]), into: path, options: Self.upsert())
        let warning = try #require(result.warnings.first { $0.contains("persistent history") })
        #expect(
            warning.contains("ATRANSACTION has no ZBUNDLEIDTS, ZPROCESSIDTS")
                && warning.contains("no table ATRANSACTIONSTRING"), "\(warning)")
        #expect(result.plan[.tag].inserted == 1)
        #expect(try Self.scalar(path, "SELECT count(*) FROM ATRANSACTION") == .integer(0))
        #expect(try Self.scalar(path, "SELECT count(*) FROM ACHANGE") == .integer(0))
    }

    @Test(
        "without a model to number the properties, updates have no ZCOLUMNS; tombstone columns stay empty; both are warned about"
    )
    func unknownPropertiesAndTombstones() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.storeWithHistory(directory)
        try Database(path: path, mode: .readWrite).execute(
            "UPDATE Z_METADATA SET Z_PLIST = NULL; ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE0 BLOB")
        var task = Self.base.tasks[0]
        task.subtasks.removeLast()
        let archive = Archive(
            projects: [Self.base.projects[0]], categories: Self.base.categories, tags: [Self.base.tags[0]],
            tasks: [task])
        let result = try StoreImport.run(archive, into: path, options: Self.upsert())
        #expect(
            result.warnings.contains(
                "persistent history: the target has no model cache, so 2 update entries do not say which properties changed (ZCOLUMNS NULL)"
            ), "\(result.warnings)")
        #expect(
            result.warnings.contains(
                "persistent history: the target keeps tombstones of deleted objects; tasks does not fill them, so 1 delete entry has no preserved values"
            ))
        #expect(
            try Self.database(path).rows(
                "SELECT ZCHANGETYPE, count(*), count(ZCOLUMNS), count(ZTOMBSTONE0) FROM ACHANGE GROUP BY 1 ORDER BY 1")
                == [
                    // The task that lost a subtask and its remaining subtask; the unchanged project, categories and tag are left.
                    [.integer(1), .integer(2), .integer(0), .integer(0)],
                    [.integer(2), .integer(1), .integer(0), .integer(0)],
                ])
    }

    @Test("a dry run writes nothing, and does not warn about history it would write")
    func dryRun() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.storeWithHistory(directory)
        let files = { ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: path + $0)) } }
        let before = files()
        var options = Self.upsert()
        options.dryRun = true
        let result = try StoreImport.run(
            Archive(tags: [TagRecord(id: Self.id(21), name: "x"), TagRecord(id: Self.id(23), name: "new")]),
            into: path, options: options)
        #expect(result.plan[.tag].inserted == 1 && result.plan[.tag].updated == 1)
        #expect(!result.warnings.contains { $0.contains("history") })
        #expect(files() == before)
        #expect(try Self.scalar(path, "SELECT count(*) FROM ATRANSACTION") == .integer(0))
        #expect(try Self.scalar(path, "SELECT count(*) FROM ACHANGE") == .integer(0))
    }

    @Test(
        "ZCOLUMNS naming all n properties: most significant bit first, ceil(n/8) bytes, no bit at or past n",
        arguments: [
            (0, nil), (1, [0x80]), (2, [0xC0]), (3, [0xE0]), (4, [0xF0]), (8, [0xFF]), (9, [0xFF, 0x80]),
            (11, [0xFF, 0xE0]), (16, [0xFF, 0xFF]), (17, [0xFF, 0xFF, 0x80]),
        ] as [(Int, [UInt8]?)])
    func changedColumnsBitmap(count: Int, expected: [UInt8]?) {
        #expect(StoreWriter.changedColumns(propertyCount: count) == expected)
    }

    @Test("the built-in model's entities are counted with their relationships, to-many included")
    func builtInPropertyCounts() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.storeWithHistory(directory)
        do {
            // A writer holds the store's write lock while it lives.
            let writer = try StoreWriter(path: path, create: false)
            #expect(writer.targetModel == nil)
            #expect(
                ["Category", "Project", "Subtask", "Tag", "Task"].map(writer.storedPropertyCount(of:)) == [
                    4, 4, 4, 3, 11,
                ])
            #expect(writer.storedPropertyCount(of: "Nothing") == nil)
        }
        // Another model under the same entity names (a different version hash) is not taken for the built-in one.
        try Database(path: path, mode: .readWrite).execute("UPDATE Z_METADATA SET Z_PLIST = NULL")
        #expect(try StoreWriter(path: path, create: false).storedPropertyCount(of: "Task") == nil)
    }
}

/// History through real, Apple-written stores.
@Suite(
    "Persistent history in real stores",
    .enabled(
        if: RealStores.available,
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); real-store history tests skipped"
    ))
struct RealStoreHistoryTests {
    static let cartKit = "CartKitSwiftData_v1__Karim-ezzedine_CartKit.sqlite"
    static let resources = "default__sergd2005_ResourcesManager.sqlite"

    static func mapping(_ json: String, in directory: TemporaryDirectory) throws -> StoreMapping {
        let path = directory.path("mapping.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return try StoreMapping(contentsOf: path)
    }

    @Test("a new store from a SwiftData template (--model-from) records the import as one transaction of inserts")
    func swiftDataTemplate() throws {
        let directory = try TemporaryDirectory()
        let template = try RealStores.copy(Self.cartKit, to: directory)
        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: template)
        options.mapping = try Self.mapping(
            """
            {"mappingVersion": 1, "kinds": {
              "task": {"entity": "CartItemModel",
                       "fields": {"id": "id", "title": "productId", "notes": "imageURLString", "isCompleted": null,
                                  "createdAt": null, "dueDate": null, "priority": "quantity"},
                       "relationships": {"project": null, "category": null, "tags": null}},
              "project": {"entity": "CartModel", "fields": {"id": "id", "name": "displayName", "createdAt": "createdAt"}},
              "category": null, "tag": null, "subtask": null}}
            """, in: directory)
        let archive = Archive(
            projects: [ProjectRecord(id: HistoryTests.id(1), name: "Cart", createdAt: HistoryTests.date)],
            tasks: (1...3).map {
                TaskRecord(
                    id: HistoryTests.id(30 + $0), title: "product \($0)", createdAt: HistoryTests.date, priority: $0)
            })
        let path = directory.path("new.sqlite")
        let result = try StoreImport.run(archive, into: path, options: options)
        #expect(result.createdStore)
        #expect(!result.warnings.contains { $0.contains("history") }, "\(result.warnings)")
        let database = try HistoryTests.database(path)
        #expect(
            try database.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM ATRANSACTION") == [[.integer(1), .integer(16002), .null]])
        #expect(try database.rows("SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING") == [[.integer(1), .text("tasks")]])
        let changes = try HistoryTests.changes(path)
        let items = try database.rows("SELECT Z_PK FROM ZCARTITEMMODEL ORDER BY Z_PK").compactMap { $0[0].int64 }
        #expect(items.count == 3)
        #expect(
            Set(changes)
                == Set(
                    items.map { HistoryTests.Change(type: 0, entity: 1, key: $0) } + [
                        HistoryTests.Change(type: 0, entity: 3, key: 1)
                    ]))
        #expect(changes.count == 4)
        #expect(
            try database.scalar(
                "SELECT count(*) FROM ACHANGE WHERE ZCOLUMNS IS NOT NULL OR Z_OPT IS NOT NULL OR ZTRANSACTIONID != 1")
                == .integer(0))
        // The template's indexes (the strings' unique index among them) came after the rows.
        #expect(
            try database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_TRANSACTIONSTRING_UNIQUE_NAME'")
                == .integer(1))
        try HistoryTests.expectMaxKeysCover(path)
        try HistoryTests.expectIntegrity(path)
    }

    @Test(
        "a SwiftData store with 38 transactions: the import is number 39, its author string is keyed above Z_MAX, and an existing recipe that loses a component gets an update with all its properties' bits"
    )
    func existingHistory() throws {
        let directory = try TemporaryDirectory()
        let path = try RealStores.copy(Self.resources, to: directory)
        let database = try Database(path: path, mode: .readWrite)
        // Component ids as the store holds them, and the recipe component 3 belongs to.
        let component = try #require(
            try database.rows(
                "SELECT Z_PK, ZID, ZCRAFTINGRECIPE FROM ZCOMPONENT WHERE ZCRAFTINGRECIPE IS NOT NULL ORDER BY Z_PK LIMIT 1"
            ).first)
        guard case .blob(let bytes) = component[1], bytes.count == 16 else {
            Issue.record("component id is not a UUID blob: \(component[1])"); return
        }
        let componentID = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        let oldRecipe = try #require(component[2].int64)
        let latest = try #require(try database.scalar("SELECT max(ZTIMESTAMP) FROM ATRANSACTION")?.double)
        // The component moves to a new recipe, declared as a relationship carried under `extra`.
        var header = ArchiveHeader()
        header.source = ArchiveHeader.Source(
            store: "elsewhere",
            relationships: [
                "task": [
                    "craftingRecipe": ExtraRelationship(
                        destination: .project, toMany: false, inverse: "requiredComponents")
                ]
            ])
        var task = TaskRecord(id: componentID, title: "component", createdAt: HistoryTests.date)
        task.extra = ["craftingRecipe": .string(HistoryTests.id(9).uuidString)]
        let archive = Archive(
            header: header, projects: [ProjectRecord(id: HistoryTests.id(9), name: "7")], tasks: [task])
        var options = HistoryTests.upsert()
        options.mapping = try Self.mapping(
            """
            {"mappingVersion": 1, "kinds": {
              "task": {"entity": "Component", "fields": {"id": "id", "title": null, "notes": null, "isCompleted": null, "createdAt": null, "dueDate": null, "priority": null},
                       "relationships": {"project": null, "category": null, "tags": null}},
              "project": {"entity": "CraftingRecipe", "fields": {"id": null, "name": "producedItemCount", "createdAt": null}},
              "category": null, "tag": null, "subtask": null}}
            """, in: directory)
        let result = try StoreImport.run(archive, into: path, options: options)
        #expect(!result.warnings.contains { $0.contains("history") }, "\(result.warnings)")
        let reader = try HistoryTests.database(path)
        #expect(
            try reader.rows("SELECT Z_PK, ZAUTHORTS, ZBUNDLEIDTS FROM ATRANSACTION WHERE Z_PK > 38") == [
                [.integer(39), .integer(13), .integer(13)]
            ])
        #expect(try reader.scalar("SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = 13") == .text("tasks"))
        #expect(try reader.scalar("SELECT ZTIMESTAMP FROM ATRANSACTION WHERE Z_PK = 39")?.double ?? 0 >= latest)
        let newRecipe = try #require(
            try reader.scalar("SELECT ZCRAFTINGRECIPE FROM ZCOMPONENT WHERE Z_PK = ?", [component[0]])?.int64)
        #expect(newRecipe != oldRecipe)
        let rows = try reader.rows(
            "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, hex(ZCOLUMNS) FROM ACHANGE WHERE ZTRANSACTIONID = 39 ORDER BY Z_PK"
        )
        // Component: count, craftingRecipe, id, item (4 bits); CraftingRecipe: producedItem, producedItemCount,
        // requiredComponents (3 bits). The new recipe gets its insert entry only.
        #expect(
            rows.map { Array($0.dropFirst()) } == [
                [.integer(0), .integer(2), .integer(newRecipe), .text("")],
                [.integer(1), .integer(1), component[0], .text("F0")],
                [.integer(1), .integer(2), .integer(oldRecipe), .text("E0")],
            ])
        #expect(rows.first?[0] == .integer(56))
        try HistoryTests.expectMaxKeysCover(path)
        try HistoryTests.expectIntegrity(path)
    }
}
