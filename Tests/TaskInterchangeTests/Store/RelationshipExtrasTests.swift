import Foundation
import Testing
@testable import TaskInterchange

/// Relationships the interchange has no field for travel under `extra` as ids, declared in `source.relationships`,
/// and are linked again on import.
@Suite("Extras: relationships")
struct RelationshipExtrasTests {
    /// A task-model store (no model cache) with two many-to-many join tables Core Data would name this way: a
    /// self-relationship pair on Task (`blocking`/`blockedBy`) and Project ↔ Tag (`tags`/`projects`).
    func storeWithJoinTables(_ directory: TemporaryDirectory, seed: UInt64 = 5) throws -> (
        path: String, archive: Archive
    ) {
        let archive = ArchiveGenerator.archive(seed: seed, maxTasks: 12)
        let path = directory.path("links.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        try Database(path: path, mode: .readWrite).execute(
            """
            CREATE TABLE Z_5BLOCKING ( Z_5BLOCKEDBY INTEGER, Z_5BLOCKING INTEGER, PRIMARY KEY (Z_5BLOCKEDBY, Z_5BLOCKING) );
            CREATE INDEX Z_5BLOCKING_Z_5BLOCKING_INDEX ON Z_5BLOCKING (Z_5BLOCKING, Z_5BLOCKEDBY);
            CREATE TABLE Z_2TAGS ( Z_2PROJECTS INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_2PROJECTS, Z_4TAGS) );
            INSERT INTO Z_5BLOCKING SELECT a.Z_PK, b.Z_PK FROM ZTASK a, ZTASK b WHERE a.Z_PK < b.Z_PK AND (a.Z_PK + b.Z_PK) % 3 = 0;
            INSERT INTO Z_2TAGS SELECT p.Z_PK, t.Z_PK FROM ZPROJECT p, ZTAG t WHERE (p.Z_PK + t.Z_PK) % 2 = 0;
            DELETE FROM Z_MODELCACHE; -- an app's model with more relationships: the built-in model's cache is stale
            """)
        return (path, archive)
    }

    func export(_ store: String, mapping: StoreMapping? = nil) throws -> String {
        let buffer = ByteBuffer()
        var options = ExportOptions()
        options.exportDate = Date(timeIntervalSinceReferenceDate: 0)
        options.sourceName = "store"
        options.mapping = mapping
        _ = try Exporter.export(store: store, to: buffer, options: options)
        return buffer.string
    }

    /// Drops what depends on the store file from a compact export: the `"storeUUID"` and `"maxKeys"` of `source`,
    /// and the records' keys (an import into an existing store hands out its own).
    func withoutStoreName(_ text: String) -> String {
        text.split(separator: "\n").map { line in
            guard line.hasPrefix("\"source\":") else {
                return line.replacingOccurrences(of: #","key":[0-9]+"#, with: "", options: .regularExpression)
            }
            return line.replacingOccurrences(of: #""storeUUID":"[0-9A-F-]+","#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #","maxKeys":\{[^}]*\}"#, with: "", options: .regularExpression)
        }.joined(separator: "\n")
    }

    @Test("join tables export as id arrays under extra, declared in source.relationships, and are not reported as lost")
    func joinTablesExport() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        let (read, findings) = try readStore(path)
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let blockingRows = try database.scalar("SELECT count(*) FROM Z_5BLOCKING")?.int64 ?? 0
        let tagRows = try database.scalar("SELECT count(*) FROM Z_2TAGS")?.int64 ?? 0
        #expect(blockingRows > 0 && tagRows > 0)
        let blocking = read.tasks.compactMap { task -> [String]? in
            if case .array(let ids)? = task.extra?["blocking"] { ids } else { nil }
        }
        #expect(blocking.reduce(0) { $0 + $1.count } == Int(blockingRows))
        #expect(blocking.allSatisfy { $0 == $0.sorted() })
        let projectTags = read.projects.compactMap { project -> [String]? in
            if case .array(let ids)? = project.extra?["tags"] { ids } else { nil }
        }
        #expect(projectTags.reduce(0) { $0 + $1.count } == Int(tagRows))
        // Only the side the table is named after travels.
        #expect(!read.tasks.contains { $0.extra?["blockedby"] != nil })
        #expect(
            read.header.source?.relationships == [
                "task": ["blocking": ExtraRelationship(destination: .task, toMany: true, inverse: "blockedby")],
                "project": ["tags": ExtraRelationship(destination: .tag, toMany: true, inverse: "projects")],
            ])
        #expect(!findings.contains { $0.code == .unmappedRelationship })
        #expect(
            try StoreInspection(snapshot: StoreSnapshot(path: path)).extraRelationships
                == read.header.source?.relationships)
    }

    @Test("relationship extras round-trip: export → import into a store with those join tables → export is identical")
    func joinTablesRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        let first = try export(path)
        #expect(first.contains("\"relationships\":{"))
        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: path)
        let target = directory.path("target.sqlite")
        _ = try StoreImport.run(ArchiveInput(bytes: Array(first.utf8)), into: target, options: options)
        #expect(withoutStoreName(try export(target)) == withoutStoreName(first))
        let links = try Database(path: target, mode: .readOnly(immutable: false)).scalar(
            "SELECT count(*) FROM Z_5BLOCKING")?.int64
        let original = try Database(path: path, mode: .readOnly(immutable: false)).scalar(
            "SELECT count(*) FROM Z_5BLOCKING")?.int64
        #expect(links == original)
    }

    @Test("upsert replaces an existing object's links; a target without the relationship imports the rest and warns")
    func upsertAndMissingTarget() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        let exported = try export(path)
        // Into the same store, after scrambling its links: upsert puts the exported ones back.
        try Database(path: path, mode: .readWrite).execute(
            "DELETE FROM Z_5BLOCKING; INSERT INTO Z_5BLOCKING SELECT Z_PK, Z_PK FROM ZTASK")
        var upsert = StoreImportOptions()
        upsert.mode = .upsert
        _ = try StoreImport.run(ArchiveInput(bytes: Array(exported.utf8)), into: path, options: upsert)
        #expect(withoutStoreName(try export(path)) == withoutStoreName(exported))
        // A plain task store has no such relationships.
        let plain = try StoreImport.run(
            ArchiveInput(bytes: Array(exported.utf8)), into: directory.path("plain.sqlite"),
            options: StoreImportOptions())
        #expect(plain.warnings.contains { $0.hasPrefix("Task.blocking: the target has no such property") })
        #expect(plain.warnings.contains { $0.hasPrefix("Project.tags: the target has no such property") })
    }

    @Test("replace mode leaves no join row behind that points at a deleted row")
    func replaceMode() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        let exported = try export(path)
        let before = try Database(path: path, mode: .readOnly(immutable: false)).scalar(
            "SELECT count(*) FROM Z_5BLOCKING")?.int64
        var replace = StoreImportOptions()
        replace.mode = .replace
        _ = try StoreImport.run(ArchiveInput(bytes: Array(exported.utf8)), into: path, options: replace)
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        #expect(try database.scalar("SELECT count(*) FROM Z_5BLOCKING")?.int64 == before)
        #expect(
            try database.scalar(
                "SELECT count(*) FROM Z_5BLOCKING WHERE Z_5BLOCKING NOT IN (SELECT Z_PK FROM ZTASK) OR Z_5BLOCKEDBY NOT IN (SELECT Z_PK FROM ZTASK)"
            )?.int64 == 0)
        #expect(
            try database.scalar(
                "SELECT count(*) FROM Z_2TAGS WHERE Z_2PROJECTS NOT IN (SELECT Z_PK FROM ZPROJECT) OR Z_4TAGS NOT IN (SELECT Z_PK FROM ZTAG)"
            )?.int64 == 0)
        #expect(withoutStoreName(try export(path)) == withoutStoreName(exported))
    }

    @Test("skip mode adds links from objects left as they were to the records it inserts, and replaces nothing")
    func skipMode() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        let exported = try export(path)
        // Remove one blocked task: skip mode re-inserts it, and the blocking links of the tasks it leaves alone that
        // point at it come back; their other links are not touched.
        let database = try Database(path: path, mode: .readWrite)
        let victim = try #require(try database.scalar("SELECT Z_5BLOCKING FROM Z_5BLOCKING ORDER BY 1 LIMIT 1")?.int64)
        let before = try database.scalar("SELECT count(*) FROM Z_5BLOCKING")?.int64 ?? 0
        let victimLinks =
            try database.scalar(
                "SELECT count(*) FROM Z_5BLOCKING WHERE Z_5BLOCKING = ? OR Z_5BLOCKEDBY = ?",
                [.integer(victim), .integer(victim)])?.int64 ?? 0
        try database.execute(
            "DELETE FROM Z_5BLOCKING WHERE Z_5BLOCKING = \(victim) OR Z_5BLOCKEDBY = \(victim); DELETE FROM ZSUBTASK WHERE ZTASK = \(victim); DELETE FROM ZTASK WHERE Z_PK = \(victim)"
        )
        var skip = StoreImportOptions()
        skip.mode = .skip
        let result = try StoreImport.run(ArchiveInput(bytes: Array(exported.utf8)), into: path, options: skip)
        #expect(result.plan[.task].inserted == 1)
        #expect(try database.scalar("SELECT count(*) FROM Z_5BLOCKING")?.int64 == before)
        #expect(victimLinks > 0)
        #expect(withoutStoreName(try export(path)).count == withoutStoreName(exported).count)
    }

    @Test("a target without a model cache: a to-one lands only in a key column, never in an attribute of that name")
    func noAttributeOverwrite() throws {
        let directory = try TemporaryDirectory()
        let archive = ArchiveGenerator.archive(seed: 9, maxTasks: 6)
        let path = directory.path("target.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        try Database(path: path, mode: .readWrite).execute(
            "ALTER TABLE ZTASK ADD COLUMN ZOWNER VARCHAR; UPDATE ZTASK SET ZOWNER = 'alice'; DELETE FROM Z_MODELCACHE")
        var declared = archive
        declared.header.source = ArchiveHeader.Source(
            store: "s", relationships: ["task": ["owner": ExtraRelationship(destination: .project, toMany: false)]])
        let project = try #require(archive.projects.first)
        declared.tasks = declared.tasks.map { task in
            var task = task
            task.extra = ["owner": .string(project.id.uuidString)]
            return task
        }
        var upsert = StoreImportOptions()
        upsert.mode = .upsert
        let result = try StoreImport.run(declared, into: path, options: upsert)
        let owners = try Database(path: path, mode: .readOnly(immutable: false)).rows(
            "SELECT DISTINCT ZOWNER FROM ZTASK"
        ).map { $0[0].string }
        #expect(owners == ["alice"])
        #expect(result.warnings.contains { $0.hasPrefix("Task.owner: the target has no such property") })
    }

    @Test(
        "of a many-to-many pair, the ordered side travels (its positions are the order); with both ordered, the other order is reported"
    )
    func orderedSide() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        let database = try Database(path: path, mode: .readWrite)
        try database.execute(
            "ALTER TABLE Z_5BLOCKING ADD COLUMN Z_FOK_5BLOCKEDBY INTEGER; UPDATE Z_5BLOCKING SET Z_FOK_5BLOCKEDBY = 100000 - Z_5BLOCKEDBY * 1024"
        )
        var (read, findings) = try readStore(path)
        #expect(
            read.header.source?.relationships["task"] == [
                "blockedby": ExtraRelationship(destination: .task, toMany: true, ordered: true, inverse: "blocking")
            ])
        let owner = try #require(
            try database.scalar("SELECT Z_5BLOCKING FROM Z_5BLOCKING GROUP BY Z_5BLOCKING HAVING count(*) > 1 LIMIT 1")?
                .int64)
        func id(_ key: Int64) throws -> String? {
            guard case .blob(let bytes)? = try database.scalar("SELECT ZID FROM ZTASK WHERE Z_PK = ?", [.integer(key)])
            else { return nil }
            return bytes.withUnsafeBytes { UUID(bytes: $0)?.uuidString }
        }
        let ordered = try database.rows(
            "SELECT Z_5BLOCKEDBY FROM Z_5BLOCKING WHERE Z_5BLOCKING = ? ORDER BY Z_FOK_5BLOCKEDBY", [.integer(owner)]
        ).map { $0[0].int64 ?? 0 }
        let expected = try ordered.map(id)
        let record = try #require(read.tasks.first { $0.id.uuidString == (try? id(owner)) ?? nil })
        #expect(record.extra?["blockedby"] == .array(expected.compactMap { $0 }))
        #expect(ordered == ordered.sorted(by: >) && expected.count > 1)
        #expect(!findings.contains { $0.code == .unmappedColumn || $0.code == .unmappedRelationship })
        try database.execute(
            "ALTER TABLE Z_5BLOCKING ADD COLUMN Z_FOK_5BLOCKING INTEGER; UPDATE Z_5BLOCKING SET Z_FOK_5BLOCKING = Z_5BLOCKING"
        )
        (read, findings) = try readStore(path)
        #expect(read.header.source?.relationships["task"]?["blocking"]?.ordered == true)
        #expect(findings.contains { $0.code == .unmappedColumn && $0.property == "Z_FOK_5BLOCKEDBY" })
    }

    @Test("a join row pointing at a missing row is reported, not exported")
    func danglingJoinRow() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        try Database(path: path, mode: .readWrite).execute(
            "INSERT INTO Z_5BLOCKING VALUES ((SELECT min(Z_PK) FROM ZTASK), 999999), (888888, (SELECT min(Z_PK) FROM ZTASK))"
        )
        let (read, findings) = try readStore(path)
        #expect(
            findings.contains {
                $0.code == .danglingReference && $0.property == "blocking"
                    && $0.message.hasPrefix("link points at no task row")
            })
        #expect(
            findings.contains {
                $0.code == .danglingReference && $0.property == "blocking"
                    && $0.message.hasPrefix("links from rows that are not exported")
            })
        let ids = Set(read.tasks.map(\.id.uuidString))
        for task in read.tasks {
            if case .array(let linked)? = task.extra?["blocking"] { #expect(linked.allSatisfy(ids.contains)) }
        }
    }

    @Test("format version 1 has no place for relationships: they are reported, not carried")
    func versionOne() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        let snapshot = try StoreSnapshot(path: path)
        let reader = try StoreReader(snapshot: snapshot, carryExtras: false)
        var collector = Collector()
        try reader.read(into: &collector)
        #expect(reader.relationshipDeclarations.isEmpty)
        #expect(reader.findings.contains { $0.code == .unmappedRelationship && $0.entity == "Z_5BLOCKING" })
    }

    @Test("the in-memory destination links relationships and gives them back")
    func memoryDestination() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithJoinTables(directory)
        let (archive, _) = try readStore(path)
        var destination = MemoryDestination()
        _ = try Importer().run(archive, into: &destination)
        #expect(destination.archive.tasks.map(\.extra) == archive.tasks.map(\.extra))
        #expect(destination.archive.projects.map(\.extra) == archive.projects.map(\.extra))
        #expect(destination.archive.header.source?.relationships == archive.header.source?.relationships)
    }
}

@Suite(
    "Extras: relationships of real stores",
    .enabled(
        if: RealStores.available,
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct RealStoreRelationshipTests {
    /// Every record's relationship extras with ids replaced by titles: comparable across stores whose ids are
    /// derived from object URIs (and so change with the store).
    func links(_ archive: Archive) -> [String] {
        let declared = archive.header.source?.relationships["task"] ?? [:]
        let titles = Dictionary(
            archive.tasks.map { ($0.id.uuidString, $0.title) } + archive.projects.map { ($0.id.uuidString, $0.name) }
        ) { first, _ in first }
        return archive.tasks.flatMap { task in
            declared.keys.sorted().compactMap { property -> String? in
                switch task.extra?[property] {
                case .array(let ids)?:
                    // Unordered relationships are sorted by id, and derived ids change with the store.
                    let linked = ids.map { titles[$0] ?? "?" }
                    return
                        "\(task.title).\(property) = \(declared[property]?.ordered == true ? linked : linked.sorted())"
                case .string(let id)?: return "\(task.title).\(property) = \(titles[id] ?? "?")"
                default: return nil
                }
            }
        }.sorted()
    }

    /// Exports `store` with `mapping` and imports the archive into a new store made from `store` as a template.
    func rebuild(_ store: String, mapping: StoreMapping, in directory: TemporaryDirectory) throws -> String {
        let buffer = ByteBuffer()
        var exportOptions = ExportOptions()
        exportOptions.mapping = mapping
        _ = try Exporter.export(store: store, to: buffer, options: exportOptions)
        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: store)
        options.mapping = mapping
        let target = directory.path("new.sqlite")
        _ = try StoreImport.run(ArchiveInput(bytes: Array(buffer.string.utf8)), into: target, options: options)
        return target
    }

    func mapping(_ json: String) throws -> StoreMapping {
        try JSONDecoder().decode(StoreMapping.self, from: Data(json.utf8))
    }

    @Test(
        "Bookmarks_V5: ordered children (inverse to-one) and ordered favorites (many-to-many) keep their order through export → import → export"
    )
    func bookmarks() throws {
        let directory = try TemporaryDirectory()
        let store = try RealStores.copy("Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite", to: directory)
        let mapping = try mapping(
            """
            {"mappingVersion":1,"kinds":{"task":{"entity":"BookmarkEntity","fields":{"id":null,"title":"title","notes":"url",
             "isCompleted":"isFolder","createdAt":null,"dueDate":"modifiedAt","priority":null}},
             "project":null,"category":null,"tag":null,"subtask":null}}
            """)
        let (first, findings) = try readStore(store, mapping: mapping)
        #expect(
            first.header.source?.relationships["task"] == [
                "children": ExtraRelationship(destination: .task, toMany: true, ordered: true, inverse: "parent"),
                "favorites": ExtraRelationship(
                    destination: .task, toMany: true, ordered: true, inverse: "favoriteFolders"),
            ])
        // The store's own order: children by Z_FOK_PARENT, favorites by Z_FOK_1FAVORITES.
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        let favorites = try database.rows(
            "SELECT b.ZTITLE FROM Z_1FAVORITES f JOIN ZBOOKMARKENTITY b ON b.Z_PK = f.Z_1FAVORITES ORDER BY f.Z_FOK_1FAVORITES"
        ).map { $0[0].string ?? "" }
        #expect(links(first).contains("favorites_root.favorites = \(favorites)"))
        let children = try database.rows(
            "SELECT c.ZTITLE FROM ZBOOKMARKENTITY c JOIN ZBOOKMARKENTITY p ON p.Z_PK = c.ZPARENT WHERE p.ZTITLE = 'bookmarks_root' ORDER BY c.Z_FOK_PARENT"
        ).map { $0[0].string ?? "" }
        #expect(children.count > 1 && links(first).contains("bookmarks_root.children = \(children)"))
        #expect(
            !findings.contains {
                $0.code == .unmappedRelationship
                    || ($0.code == .unmappedColumn && ["ZPARENT", "Z_FOK_PARENT"].contains($0.property))
            })

        let target = try rebuild(store, mapping: mapping, in: directory)
        let (second, _) = try readStore(target, mapping: mapping)
        #expect(links(second) == links(first))
        #expect(!links(first).isEmpty)
        // Positions are written as Core Data spaces them.
        let positions = try Database(path: target, mode: .readOnly(immutable: false)).rows(
            "SELECT Z_FOK_1FAVORITES FROM Z_1FAVORITES ORDER BY 1"
        ).map { $0[0].int64 ?? 0 }
        #expect(positions == (0..<Int64(favorites.count)).map { ($0 + 2) * 1024 })
    }

    @Test(
        "CoreDataMigration: both sides of a one-to-one travel, each from its column; an archive of one side sets both")
    func oneToOne() throws {
        let directory = try TemporaryDirectory()
        let store = try RealStores.copy(
            "CoreDataMigration_Example_WAL__wibosco_CoreDataMigration-Example.sqlite", to: directory)
        let mapping = try mapping(
            """
            {"mappingVersion":1,"kinds":{"task":{"entity":"Post","fields":{"id":null,"title":"postID","notes":null,
             "isCompleted":"hide","createdAt":"date","dueDate":null,"priority":null},"relationships":{"project":null}},
             "project":{"entity":"Color","fields":{"id":null,"name":"hex","createdAt":null}},
             "category":null,"tag":null,"subtask":null}}
            """)
        let (first, findings) = try readStore(store, mapping: mapping)
        #expect(
            first.header.source?.relationships == [
                "project": ["post": ExtraRelationship(destination: .task, toMany: false, inverse: "color")],
                "task": ["color": ExtraRelationship(destination: .project, toMany: false, inverse: "post")],
            ])
        #expect(first.projects.filter { $0.extra?["post"] != nil }.count == first.projects.count)
        #expect(first.tasks.filter { $0.extra?["color"] != nil }.count == first.tasks.count)
        #expect(!findings.contains { $0.code == .unmappedColumn })
        // An archive that carries the pair from one side (an older one): import sets the key on both sides.
        var oneSide = first
        oneSide.header.source?.relationships["task"] = nil
        for index in oneSide.tasks.indices { oneSide.tasks[index].extra?["color"] = nil }
        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: store)
        options.mapping = mapping
        let target = directory.path("one-side.sqlite")
        _ = try StoreImport.run(oneSide, into: target, options: options)
        let database = try Database(path: target, mode: .readOnly(immutable: false))
        let pairs = try database.scalar(
            "SELECT count(*) FROM ZCOLOR c JOIN ZPOST p ON p.Z_PK = c.ZPOST AND p.ZCOLOR = c.Z_PK")?.int64
        #expect(pairs == Int64(first.projects.count))
        let original = try Database(path: store, mode: .readOnly(immutable: false))
            .rows("SELECT c.ZHEX, p.ZPOSTID FROM ZCOLOR c JOIN ZPOST p ON p.Z_PK = c.ZPOST ORDER BY 1, 2").map {
                "\($0[0].string ?? "")→\($0[1].string ?? "")"
            }
        let rebuilt = try database.rows(
            "SELECT c.ZHEX, p.ZPOSTID FROM ZCOLOR c JOIN ZPOST p ON p.Z_PK = c.ZPOST ORDER BY 1, 2"
        ).map { "\($0[0].string ?? "")→\($0[1].string ?? "")" }
        #expect(rebuilt == original && !original.isEmpty)
    }

    @Test(
        "Bookmarks_V5: upsert puts back ordered children moved by the app (keys on the destination rows), positions renumbered"
    )
    func upsertChildren() throws {
        let directory = try TemporaryDirectory()
        let store = try RealStores.copy("Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite", to: directory)
        let mapping = try mapping(
            """
            {"mappingVersion":1,"kinds":{"task":{"entity":"BookmarkEntity","fields":{"id":null,"title":"title","notes":"url",
             "isCompleted":"isFolder","createdAt":null,"dueDate":"modifiedAt","priority":null}},
             "project":null,"category":null,"tag":null,"subtask":null}}
            """)
        let buffer = ByteBuffer()
        var exportOptions = ExportOptions()
        exportOptions.mapping = mapping
        _ = try Exporter.export(store: store, to: buffer, options: exportOptions)
        let (before, _) = try readStore(store, mapping: mapping)
        // The app moves every child of bookmarks_root into folder 3 and reverses the order.
        try Database(path: store, mode: .readWrite).execute(
            """
            UPDATE ZBOOKMARKENTITY SET ZPARENT = (SELECT Z_PK FROM ZBOOKMARKENTITY WHERE ZTITLE = '3'), Z_FOK_PARENT = 100000 - Z_FOK_PARENT
              WHERE ZPARENT = (SELECT Z_PK FROM ZBOOKMARKENTITY WHERE ZTITLE = 'bookmarks_root')
            """)
        var options = StoreImportOptions()
        options.mode = .upsert
        options.mapping = mapping
        _ = try StoreImport.run(ArchiveInput(bytes: Array(buffer.string.utf8)), into: store, options: options)
        let (after, _) = try readStore(store, mapping: mapping)
        #expect(links(after) == links(before))
    }

    @Test("EasyLife: a to-one to a mapped entity travels as an id, the self many-to-many blocking as id arrays")
    func easyLife() throws {
        let directory = try TemporaryDirectory()
        let store = try RealStores.copy("EasyLife_1.5.0__larromba_EasyLife.sqlite", to: directory)
        try Database(path: store, mode: .readWrite).execute(
            """
            INSERT INTO ZPROJECT (Z_PK, Z_ENT, Z_OPT, ZPRIORITY, ZNAME) VALUES (1, 1, 1, 0, 'Home'), (2, 1, 1, 1, 'Work');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT = 1;
            UPDATE ZTODOITEM SET ZPROJECT = 1 + Z_PK % 2 WHERE Z_PK <= 4;
            INSERT INTO Z_2BLOCKING (Z_2BLOCKEDBY, Z_2BLOCKING) VALUES (1, 2), (1, 3), (4, 2);
            """)
        // The project relationship is left out of the interchange fields, so it travels under extra.
        let mapping = try mapping(
            """
            {"mappingVersion":1,"kinds":{"task":{"entity":"TodoItem","fields":{"id":null,"title":"name","notes":"notes",
             "isCompleted":"done","createdAt":null,"dueDate":"date","priority":null},"relationships":{"project":null}},
             "project":{"entity":"Project","fields":{"id":null,"name":"name","createdAt":null}},
             "category":null,"tag":null,"subtask":null}}
            """)
        let (first, findings) = try readStore(store, mapping: mapping)
        #expect(
            first.header.source?.relationships["task"] == [
                "blocking": ExtraRelationship(destination: .task, toMany: true, inverse: "blockedBy"),
                "project": ExtraRelationship(destination: .project, toMany: false, inverse: "todoItem"),
            ])
        #expect(first.tasks.filter { $0.extra?["project"] != nil }.count == 4)
        #expect(
            first.tasks.compactMap { if case .array(let ids)? = $0.extra?["blocking"] { ids.count } else { nil } }
                .sorted() == [1, 2])
        #expect(!findings.contains { $0.code == .unmappedRelationship || $0.code == .unmappedColumn })

        let target = try rebuild(store, mapping: mapping, in: directory)
        let (second, _) = try readStore(target, mapping: mapping)
        #expect(links(second) == links(first))
        let blocked = try Database(path: target, mode: .readOnly(immutable: false)).scalar(
            "SELECT count(*) FROM Z_2BLOCKING")?.int64
        #expect(blocked == 3)
    }
}
