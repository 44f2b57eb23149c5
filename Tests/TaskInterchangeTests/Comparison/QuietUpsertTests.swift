import Foundation
import Testing
@testable import TaskInterchange

@Suite("Quiet upserts")
struct QuietUpsertTests {
    static func sha256(_ path: String) throws -> [UInt8] {
        SHA2.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func opt(_ path: String, _ table: String, where condition: String = "1") throws -> [Int64] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let statement = try database.prepare("SELECT Z_OPT FROM \(table) WHERE \(condition) ORDER BY Z_PK")
        var values: [Int64] = []
        while try statement.step() { values.append(statement.int64(at: 0)) }
        return values
    }

    @Test("a second upsert of the same archive leaves the store file byte-identical and counts everything unchanged")
    func sameArchiveTwice() throws {
        let directory = try TemporaryDirectory()
        let archive = GraphDiffTests.base()
        let store = directory.path("s.sqlite")
        _ = try StoreImport.run(archive, into: store, options: StoreImportOptions())
        let before = try Self.sha256(store)
        var options = StoreImportOptions()
        options.mode = .upsert
        let result = try StoreImport.run(archive, into: store, options: options)
        #expect(try Self.sha256(store) == before)
        #expect(result.plan[.task].unchanged == archive.tasks.count)
        #expect(result.plan[.task].updated == 0)
        #expect(result.plan[.subtask].unchanged == archive.counts.subtasks)
        #expect(result.plan[.project].unchanged == archive.projects.count)
        options.dryRun = true
        let plan = try StoreImport.run(archive, into: store, options: options).plan
        #expect(plan[.tag].unchanged == archive.tags.count && plan[.tag].updated == 0)
    }

    @Test("only changed records are rewritten: their Z_OPT goes up, the others' stays")
    func onlyChangedBumped() throws {
        let directory = try TemporaryDirectory()
        let archive = GraphDiffTests.base()
        let store = directory.path("s.sqlite")
        _ = try StoreImport.run(archive, into: store, options: StoreImportOptions())
        var changed = archive
        changed.tasks[1].title = "changed"
        changed.tags[0].name = "renamed"
        // A new record after every existing one: the join must run past the store's end.
        var extra = TaskRecord(
            id: UUID(uuidString: "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF")!, title: "new", createdAt: Date())
        extra.tagIds = []
        changed.tasks.append(extra)
        var options = StoreImportOptions()
        options.mode = .upsert
        let result = try StoreImport.run(changed, into: store, options: options)
        #expect(result.plan[.task].updated == 1)
        #expect(result.plan[.task].inserted == 1)
        #expect(result.plan[.task].unchanged == archive.tasks.count - 1)
        #expect(result.plan[.tag].updated == 1)
        let bumped = try Self.opt(store, "ZTASK").filter { $0 > 1 }
        #expect(bumped == [2])
        #expect(try Self.opt(store, "ZTAG").filter { $0 > 1 } == [2])
        #expect(try GraphComparison.verify(.records(changed), against: .store(path: store)).isEqual)
    }

    @Test("finding unchanged records: an unsorted archive gives nil (everything is rewritten, as before)")
    func unsorted() throws {
        let directory = try TemporaryDirectory()
        let archive = GraphDiffTests.base()
        _ = try StoreImport.run(archive, into: directory.path("s.sqlite"), options: StoreImportOptions())
        var reversed = archive
        reversed.tasks.reverse()
        #expect(try TargetComparison.find(reversed, in: .store(path: directory.path("s.sqlite"))) == nil)
        let found = try TargetComparison.find(archive, in: .store(path: directory.path("s.sqlite")))
        #expect(found?.ids[.task]?.count == archive.tasks.count)
    }

    @Test(
        "an old-version archive upserted into a later version's store (model cache) leaves every Z_OPT; verify maps alike"
    )
    func oldVersionArchive() throws {
        let directory = try TemporaryDirectory()
        let versions = try VersionChainTests.versions()
        // An export of the Journal 1 store: its records' ids derive from its store UUID and their keys.
        let archive = directory.path("journal-v1.json")
        var export = ExportOptions()
        export.model = versions[0].model
        _ = try Exporter.export(
            store: SampleStores.copy("Journal-v1.sqlite", to: directory), toFile: archive, options: export)
        let order = ModelVersionOrder(inferring: versions)
        let store = directory.path("v4.sqlite")
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: versions[3].model)
        options.keepIdentity = true
        options.modelVersions = order
        let first = try StoreImport.run(ArchiveInput(path: archive), into: store, options: options)
        #expect(first.versionMapping?.steps.count == 3)
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        #expect(try database.rows("SELECT count(*) FROM Z_MODELCACHE").first?[0].int64 == 1)
        let tables = ["ZENTRY", "ZLABEL", "ZNOTEBOOK"]
        let before = try tables.map { try Self.opt(store, $0) }
        #expect(before.map(\.count) == [6, 3, 2])

        // The app's Journal 4 for a store of it: the archive is mapped as the first import mapped it.
        var upsert = StoreImportOptions()
        upsert.mode = .upsert
        upsert.targetModel = versions[3].model
        upsert.modelVersions = order
        let second = try StoreImport.run(ArchiveInput(path: archive), into: store, options: upsert)
        #expect(try tables.map { try Self.opt(store, $0) } == before)
        #expect(second.plan.entities["Entry"]?.unchanged == 6)
        #expect(second.plan.entities["Entry"]?.updated == 0)
        #expect(second.versionMapping == first.versionMapping)

        // A changed entry is the one rewritten.
        let text = try String(contentsOfFile: archive, encoding: .utf8)
        let changed = directory.path("changed.json")
        let edited = text.replacingOccurrences(
            of: #""mood":2"#, with: #""mood":-2"#)
        #expect(edited != text)
        try edited.write(toFile: changed, atomically: true, encoding: .utf8)
        let third = try StoreImport.run(ArchiveInput(path: changed), into: store, options: upsert)
        #expect(third.plan.entities["Entry"]?.updated == 1)
        #expect(try Self.opt(store, "ZENTRY").filter { $0 > 1 } == [2])

        // Verification reads the file through the import's change, and infers the same one itself.
        let given = try GraphComparison.verify(
            .archive(path: changed), against: .store(path: store, mapping: nil, model: versions[3].model),
            modelVersions: order, versionMapping: third.versionMapping)
        let inferred = try GraphComparison.verify(
            .archive(path: changed), against: .store(path: store, mapping: nil, model: versions[3].model),
            modelVersions: order)
        #expect(given.isEqual && inferred.isEqual)
        #expect(given.modelChange == third.plan.modelChange)
        #expect(inferred.modelChange == given.modelChange)
    }
}
