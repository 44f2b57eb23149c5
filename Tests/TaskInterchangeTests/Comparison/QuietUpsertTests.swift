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
}
