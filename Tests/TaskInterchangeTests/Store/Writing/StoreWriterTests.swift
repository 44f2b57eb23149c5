import Foundation
import Testing
@testable import TaskInterchange

@Suite("Store writer")
struct StoreWriterTests {
    func makeStore(_ directory: TemporaryDirectory, seed: UInt64 = 1) throws -> (path: String, archive: Archive) {
        let archive = ArchiveGenerator.archive(seed: seed, maxTasks: 12)
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        return (path, archive)
    }

    func scalar(_ path: String, _ sql: String) throws -> Int64 {
        try Database(path: path, mode: .readOnly(immutable: false)).scalar(sql)?.int64 ?? -1
    }

    @Test("keys come from Z_MAX, which is written back; Z_ENT and Z_OPT are set; positions are spaced by 1024")
    func invariants() throws {
        let directory = try TemporaryDirectory()
        let (path, archive) = try makeStore(directory)
        let counts = archive.counts
        #expect(try scalar(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Task'") == Int64(counts.tasks))
        #expect(try scalar(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Subtask'") == Int64(counts.subtasks))
        #expect(try scalar(path, "SELECT count(*) FROM ZTASK WHERE Z_ENT != 5 OR Z_OPT != 1") == 0)
        #expect(try scalar(path, "SELECT count(*) FROM ZSUBTASK WHERE Z_FOK_TASK % 1024 != 0 OR ZTASK IS NULL") == 0)
        #expect(
            try scalar(path, "SELECT count(*) FROM Z_4TASKS") == Int64(archive.tasks.reduce(0) { $0 + $1.tagIds.count })
        )
        #expect(try scalar(path, "PRAGMA auto_vacuum") == 2)
    }

    @Test("insert mode refuses ids already in the store and leaves it unchanged")
    func insertRefusesExisting() throws {
        let directory = try TemporaryDirectory()
        let (path, archive) = try makeStore(directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: ArchiveValidationError.self) {
            try StoreImport.run(archive, into: path, options: StoreImportOptions())
        }
        if !archive.tasks.isEmpty {
            #expect(error.report.issues.contains { $0.code == .idExistsInStore && $0.path == "$.tasks[0].id" })
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(
        "upsert updates matching ids that changed (Z_OPT + 1), leaves the others, inserts the rest; the store then reads back as the archive"
    )
    func upsert() throws {
        let directory = try TemporaryDirectory()
        let (path, archive) = try makeStore(directory, seed: 5)
        try #require(!archive.tasks.isEmpty)
        var changed = archive
        changed.tasks[0].title = "changed"
        changed.tasks[0].subtasks = [SubtaskRecord(id: UUID(), title: "fresh")]
        changed.tags.append(TagRecord(id: UUID(), name: "new tag"))
        var options = StoreImportOptions()
        options.mode = .upsert
        let result = try StoreImport.run(changed.sortedByID(), into: path, options: options)
        #expect(result.plan[.task].updated == 1)
        #expect(result.plan[.task].unchanged == archive.tasks.count - 1)
        #expect(result.plan[.tag].inserted == 1)
        #expect(try scalar(path, "SELECT count(*) FROM ZTASK WHERE Z_OPT = 2") == 1)
        #expect(try scalar(path, "SELECT count(*) FROM ZTASK WHERE Z_OPT = 1") == Int64(archive.tasks.count - 1))
        #expect(try readStore(path).archive.tasks == changed.sortedByID().tasks)
    }

    @Test("skip keeps existing records; replace removes everything first")
    func skipAndReplace() throws {
        let directory = try TemporaryDirectory()
        let (path, archive) = try makeStore(directory, seed: 9)
        var other = archive
        for index in other.tasks.indices { other.tasks[index].title = "other" }
        var options = StoreImportOptions()
        options.mode = .skip
        let skipped = try StoreImport.run(other, into: path, options: options)
        #expect(skipped.plan[.task].skipped == archive.tasks.count)
        #expect(try readStore(path).archive.tasks == archive.tasks)
        options.mode = .replace
        let fresh = ArchiveGenerator.archive(seed: 10, maxTasks: 5)
        let replaced = try StoreImport.run(fresh, into: path, options: options)
        #expect(replaced.plan[.task].deleted == archive.tasks.count)
        let read = try readStore(path).archive
        #expect(read.tasks == fresh.tasks)
        #expect(read.tags == fresh.tags)
        // Keys are never reused after a replace.
        #expect(try scalar(path, "SELECT min(Z_PK) FROM ZTASK") > Int64(archive.tasks.count) || fresh.tasks.isEmpty)
    }

    @Test("a dry run reports the plan and writes nothing")
    func dryRun() throws {
        let directory = try TemporaryDirectory()
        let (path, archive) = try makeStore(directory, seed: 12)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var options = StoreImportOptions()
        options.mode = .upsert
        options.dryRun = true
        var extended = archive
        extended.tags.append(TagRecord(id: UUID(), name: "x"))
        let result = try StoreImport.run(extended.sortedByID(), into: path, options: options)
        #expect(result.plan[.tag].inserted == 1)
        #expect(result.plan[.task].updated == archive.tasks.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        options.dryRun = true
        let fresh = try StoreImport.run(archive, into: directory.path("never.sqlite"), options: options)
        #expect(fresh.plan[.task].inserted == archive.tasks.count)
        #expect(!FileManager.default.fileExists(atPath: directory.path("never.sqlite")))
    }

    @Test("a store locked by another writer gives .busy after the timeout and is unchanged")
    func busy() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try makeStore(directory, seed: 2)
        let holder = try Database(path: path, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        var options = StoreImportOptions()
        options.busyTimeout = 200
        let error = try #require(throws: TaskInterchangeError.self) {
            try StoreImport.run(ArchiveGenerator.archive(seed: 77, maxTasks: 3), into: path, options: options)
        }
        #expect(error.kind == .busy)
        try holder.execute("ROLLBACK")
        #expect(try readStore(path).archive.tasks == ArchiveGenerator.archive(seed: 2, maxTasks: 12).tasks)
    }

    @Test("Z_MAX below the largest key is corrected and new keys go above both")
    func lowMaxKey() throws {
        let directory = try TemporaryDirectory()
        let (path, archive) = try makeStore(directory, seed: 4)
        try #require(archive.tasks.count > 1)
        try Database(path: path, mode: .readWrite).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Task'")
        var options = StoreImportOptions()
        options.mode = .upsert
        var more = archive
        more.tasks.append(TaskRecord(id: UUID(), title: "new", createdAt: Date(timeIntervalSinceReferenceDate: 1)))
        let result = try StoreImport.run(more.sortedByID(), into: path, options: options)
        #expect(result.warnings.contains { $0.contains("Z_MAX (1) was below") })
        #expect(
            try scalar(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Task'") == Int64(archive.tasks.count + 1))
    }

    @Test("a store's triggers never fire on import")
    func triggersDoNotFire() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try makeStore(directory, seed: 6)
        let database = try Database(path: path, mode: .readWrite)
        try database.execute(
            "CREATE TABLE side_effect (x); CREATE TRIGGER evil AFTER INSERT ON ZTASK BEGIN INSERT INTO side_effect VALUES (1); END;"
        )
        var options = StoreImportOptions()
        options.mode = .upsert
        _ = try StoreImport.run(ArchiveGenerator.archive(seed: 60, maxTasks: 4), into: path, options: options)
        #expect(try scalar(path, "SELECT count(*) FROM side_effect") == 0)
    }
}
