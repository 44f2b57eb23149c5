import Foundation
import Testing

@testable import TaskInterchange

/// How a store held the typed records — their keys, the NULLs of fields that need a value, the subtasks' stored
/// positions — travels in the default export, and a restore writes it back.
@Suite("Keys, stored NULLs and positions of typed records")
struct StoreFormTests {
    static func exportOptions() -> ExportOptions {
        var options = ExportOptions()
        options.sourceName = "source.sqlite"
        options.exportDate = Date(timeIntervalSinceReferenceDate: 0)
        return options
    }

    static func export(_ store: String, to path: String) throws {
        _ = try Exporter.export(store: store, toFile: path, options: exportOptions())
    }

    static func restore(_ archive: String, from store: String, into path: String, keepIdentity: Bool = true) throws {
        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: store)
        options.keepIdentity = keepIdentity
        _ = try StoreImport.run(try ArchiveInput(path: archive), into: path, options: options)
    }

    static func scalar(_ path: String, _ sql: String) throws -> SQLValue? {
        try Database(path: path, mode: .readOnly(immutable: false)).scalar(sql)
    }

    static func text(_ directory: TemporaryDirectory, _ name: String) throws -> String {
        String(decoding: try Data(contentsOf: directory.url.appendingPathComponent(name)), as: UTF8.self)
    }

    /// `Z_PRIMARYKEY` of the app's entities (not Core Data's own, whose history a restore does not carry).
    static func maxKeys(_ path: String) throws -> [String] {
        try Database(path: path, mode: .readOnly(immutable: false)).rows(
            "SELECT Z_NAME || '=' || Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT"
        ).compactMap { $0[0].string }
    }

    @Test(
        "the sample store's default export restores with --keep-identity: every table equal, keys, positions and Z_MAX too"
    )
    func sampleRestore() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        // Tasks up to key 500 once existed; the restore must not hand their keys out again.
        try Database(path: store, mode: .readWrite).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 500 WHERE Z_NAME = 'Task'")
        try Self.export(store, to: directory.path("a.json"))
        let exported = try Self.text(directory, "a.json")
        #expect(exported.contains(#""maxKeys":{"Category":4,"Project":5,"Subtask":84,"Tag":10,"Task":500}"#))
        // Keys are not the id order's 1, 2, 3…: a restore that numbered records afresh would differ.
        #expect(exported.contains(#"{"id":"004CBDD6-EDD1-4ACE-81A8-B67A783FCE42","key":45,"#))
        try Self.restore(directory.path("a.json"), from: store, into: directory.path("new.sqlite"))
        let source = try StoreTables.contents(of: store)
        let restored = try StoreTables.contents(of: directory.path("new.sqlite"))
        #expect(source.keys.sorted() == restored.keys.sorted())
        for table in source.keys.sorted() { #expect(source[table] == restored[table], "\(table)") }
        #expect(try Self.maxKeys(store) == Self.maxKeys(directory.path("new.sqlite")))
        try Self.export(directory.path("new.sqlite"), to: directory.path("b.json"))
        #expect(try Self.text(directory, "b.json") == exported)
    }

    @Test(
        "a required field's NULL is exported as 'nulls' and restored as NULL; a target that forbids it gets the value")
    func nullsComeBack() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        try Database(path: store, mode: .readWrite).execute(
            "UPDATE ZTASK SET ZISCOMPLETED = NULL WHERE Z_PK = 3; UPDATE ZSUBTASK SET ZTITLE = NULL WHERE Z_PK = 2")
        try Self.export(store, to: directory.path("a.json"))
        let exported = try Self.text(directory, "a.json")
        let task = try #require(exported.split(separator: "\n").first { $0.contains(#""key":3,"title""#) })
        #expect(task.contains(#""isCompleted":false"#))
        #expect(task.contains(#""nulls":["isCompleted"]"#))
        #expect(exported.contains(#""key":2,"position":3072,"title":"","isCompleted":false,"nulls":["title"]}"#))

        // The same model (the restore): NULL again, though the model calls both attributes required.
        try Self.restore(directory.path("a.json"), from: store, into: directory.path("same.sqlite"))
        #expect(
            try Self.scalar(directory.path("same.sqlite"), "SELECT ZISCOMPLETED FROM ZTASK WHERE Z_PK = 3") == .null)
        #expect(try Self.scalar(directory.path("same.sqlite"), "SELECT ZTITLE FROM ZSUBTASK WHERE Z_PK = 2") == .null)
        #expect(try StoreTables.contents(of: store) == StoreTables.contents(of: directory.path("same.sqlite")))

        // Another store of a model that requires them: the values the export gave.
        _ = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: directory.path("other.sqlite"),
            options: StoreImportOptions())
        let other = directory.path("other.sqlite")
        #expect(
            try Self.scalar(other, "SELECT count(*) FROM ZTASK WHERE ZISCOMPLETED IS NULL")?.int64 == 0
                && Self.scalar(other, "SELECT count(*) FROM ZSUBTASK WHERE ZTITLE IS NULL")?.int64 == 0)
    }

    @Test("where ids derive from keys, a plain import into a new store keeps keys and NULLs: the export is the same")
    func derivedIDs() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("EasyLife.sqlite", to: directory)
        try Database(path: store, mode: .readWrite).execute("UPDATE ZTODOITEM SET ZDONE = NULL WHERE Z_PK = 2")
        try Self.export(store, to: directory.path("a.json"))
        let exported = try Self.text(directory, "a.json")
        #expect(exported.contains(#""nulls":["isCompleted"]"#))
        // No --keep-identity: the store gets a UUID of its own, so only the keys can keep the ids.
        try Self.restore(directory.path("a.json"), from: store, into: directory.path("new.sqlite"), keepIdentity: false)
        let new = directory.path("new.sqlite")
        #expect(try Self.scalar(new, "SELECT ZDONE FROM ZTODOITEM WHERE Z_PK = 2") == .null)
        #expect(
            try Self.scalar(new, "SELECT group_concat(Z_PK) FROM ZTODOITEM")
                == Self.scalar(store, "SELECT group_concat(Z_PK) FROM ZTODOITEM"))

        // The edited value wins over the NULL it replaces.
        let edited = exported.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains("\"nulls\"")
                ? line.replacingOccurrences(of: #""isCompleted":false"#, with: #""isCompleted":true"#) : String(line)
        }.joined(separator: "\n")
        try Data(edited.utf8).write(to: directory.url.appendingPathComponent("edited.json"))
        try Self.restore(directory.path("edited.json"), from: store, into: directory.path("e.sqlite"))
        #expect(try Self.scalar(directory.path("e.sqlite"), "SELECT ZDONE FROM ZTODOITEM WHERE Z_PK = 2")?.int64 == 1)
    }

    static func archive(positions: [Int64?]) -> Archive {
        var archive = Archive()
        var task = TaskRecord(id: UUID(), title: "t", createdAt: Date(timeIntervalSinceReferenceDate: 1))
        task.subtasks = positions.enumerated().map { index, position in
            var subtask = SubtaskRecord(id: UUID(), title: "s\(index)")
            subtask.position = position
            return subtask
        }
        archive.tasks = [task]
        return archive
    }

    @Test(
        "subtasks keep their stored positions while they ascend; otherwise the list is numbered afresh, in its order",
        arguments: [
            ([100, 5000, 7001], [100, 5000, 7001]),
            ([3000, 2000, 9000], [2048, 3072, 4096]),
            ([100, nil, 7001], [2048, 3072, 4096]),
            // Ties stay: the store breaks them by key, and new keys follow the list.
            ([3072, 3072, 4096], [3072, 3072, 4096]),
        ] as [([Int64?], [Int64])])
    func positions(stored: [Int64?], written: [Int64]) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        _ = try StoreImport.run(Self.archive(positions: stored), into: path, options: StoreImportOptions())
        let rows = try Database(path: path, mode: .readOnly(immutable: false)).rows(
            "SELECT ZTITLE, Z_FOK_TASK FROM ZSUBTASK ORDER BY Z_FOK_TASK, Z_PK")
        #expect(rows.map { $0[0].string ?? "" } == ["s0", "s1", "s2"])
        #expect(rows.map { $0[1].int64 ?? 0 } == written)
    }

    @Test("--keep-identity refuses typed records without keys, and two records with one key; nothing is left")
    func keepIdentityRefusals() throws {
        let directory = try TemporaryDirectory()
        var archive = Self.archive(positions: [])
        archive.header.source = ArchiveHeader.Source(store: "s", storeUUID: "F76F1F4C-F2BC-41B5-A4BF-799AB57815F1")
        var options = StoreImportOptions()
        options.keepIdentity = true
        let path = directory.path("new.sqlite")
        #expect {
            try StoreImport.run(archive, into: path, options: options)
        } throws: {
            ($0 as? TaskInterchangeError)?.kind == .invalidData && "\($0)".contains("has no key")
        }
        archive.tasks[0].key = 4
        var second = archive.tasks[0]
        second.id = UUID()
        archive.tasks.append(second)
        #expect {
            try StoreImport.run(archive, into: path, options: options)
        } throws: {
            ($0 as? TaskInterchangeError)?.kind == .invalidData && "\($0)".contains("key 4 is taken")
        }
        // SQLite's largest key leaves none for new objects: refused, not an overflow.
        archive.tasks[1].key = .max
        #expect {
            try StoreImport.run(archive, into: path, options: options)
        } throws: {
            ($0 as? TaskInterchangeError)?.kind == .invalidData && "\($0)".contains("no key is left for new objects")
        }
        archive.tasks[1].key = 5
        // A Z_MAX for an entity the target does not have is said, not silently dropped.
        archive.header.source?.maxKeys = ["Task": 90, "Taks": 7]
        let restored = try StoreImport.run(archive, into: directory.path("max.sqlite"), options: options)
        #expect(restored.warnings.contains("$.source.maxKeys.Taks: the target has no such root entity; ignored"))
        #expect(try Self.maxKeys(directory.path("max.sqlite")).contains("Task=90"))
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            try FileManager.default.removeItem(atPath: directory.path(name))
        }
        archive.header.source?.storeUUID = "abc"
        #expect {
            try StoreImport.run(archive, into: path, options: options)
        } throws: {
            ($0 as? TaskInterchangeError)?.kind == .invalidData && "\($0)".contains("must be a UUID")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        // Without --keep-identity the second record takes a new key.
        options.keepIdentity = false
        _ = try StoreImport.run(archive, into: path, options: options)
        #expect(try Self.scalar(path, "SELECT count(*) FROM ZTASK")?.int64 == 2)
    }

    @Test(
        "a generic ordered relationship whose positions no longer follow its list is numbered afresh, in list order",
        .enabled(
            if: RealStores.available,
            "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
        ))
    func genericPositions() throws {
        let directory = try TemporaryDirectory()
        let store = try RealStores.copy("Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite", to: directory)
        try Self.export(store, to: directory.path("a.json"))
        let exported = try Self.text(directory, "a.json")
        let ordered = #""positions":{"children":[2048,3072,4096]}"#
        #expect(exported.contains(ordered))
        // One folder's positions reversed by hand; its list of children stays as it was.
        let edited = exported.replacingOccurrences(
            of: ordered, with: #""positions":{"children":[4096,3072,2048]}"#, range: exported.range(of: ordered))
        try Data(edited.utf8).write(to: directory.url.appendingPathComponent("edited.json"))
        try Self.restore(directory.path("edited.json"), from: store, into: directory.path("new.sqlite"))
        try Self.export(directory.path("new.sqlite"), to: directory.path("b.json"))
        // Numbered afresh in the list's order, which here gives the original numbers back.
        #expect(try Self.text(directory, "b.json") == exported)
    }

    @Test(
        "an archive that carries both sides of an ordered pair keeps the positions its to-many side gives",
        .enabled(
            if: RealStores.available,
            "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
        ))
    func bothSidesCarried() throws {
        let directory = try TemporaryDirectory()
        let store = try RealStores.copy("Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite", to: directory)
        try Self.export(store, to: directory.path("a.json"))
        var archive = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        // The to-one side an export leaves out, written in: each child names its folder.
        archive.header.source?.model["BookmarkEntity"]?.relationships["parent"] = EntityRelationship(
            destination: "BookmarkEntity", toMany: false, inverse: "children")
        var parents: [UUID: String] = [:]
        var expected: [UUID: Int64] = [:]
        for record in archive.entities {
            guard case .array(let children)? = record.values["children"] else { continue }
            for (offset, child) in children.enumerated() {
                guard let id = UUID(uuidString: child) else { continue }
                parents[id] = record.id.uuidString
                expected[id] = record.positions["children"]?[offset]
            }
        }
        for index in archive.entities.indices {
            if let parent = parents[archive.entities[index].id] {
                archive.entities[index].values["parent"] = .string(parent)
            }
        }
        #expect(expected.count >= 3 && expected.values.contains { $0 != 1024 })
        let path = directory.path("new.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        try Self.export(path, to: directory.path("b.json"))
        let again = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("b.json")))
        var found: [UUID: Int64] = [:]
        let byKey = Dictionary(
            uniqueKeysWithValues: archive.entities.compactMap { record in record.key.map { ($0, record.id) } })
        for record in again.entities {
            guard case .array(let children)? = record.values["children"] else { continue }
            for (offset, child) in children.enumerated() {
                guard let id = UUID(uuidString: child),
                    let source = again.entities.first(where: { $0.id == id })?.key.flatMap({ byKey[$0] })
                else { continue }
                found[source] = record.positions["children"]?[offset]
            }
        }
        #expect(found == expected)
    }
}
