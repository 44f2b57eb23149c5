import Foundation
import Testing
@testable import TaskInterchange

/// A task's tags as export reads them ahead from the join table: each task gets exactly its tags, sorted by id, and
/// join rows that point at no task or no tag are reported, not exported.
@Suite("Store reader: tag links")
struct TagLinksTests {
    @Test(
        "every task gets its own tags, sorted by id; dangling join rows are reported", arguments: [1, 2, 3] as [UInt64])
    func tagsAndDanglingRows(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        let archive = ArchiveGenerator.archive(seed: seed, maxTasks: 40)
        let path = directory.path("store.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        let database = try Database(path: path, mode: .readWrite)
        try database.execute(
            "INSERT INTO Z_4TASKS (Z_5TASKS, Z_4TAGS) VALUES (999999, (SELECT min(Z_PK) FROM ZTAG))")
        try database.execute(
            "INSERT INTO Z_4TASKS (Z_5TASKS, Z_4TAGS) VALUES ((SELECT min(Z_PK) FROM ZTASK), 888888)")
        let (read, findings) = try readStore(path)
        let expected = Dictionary(uniqueKeysWithValues: archive.tasks.map { ($0.id, $0.tagIds) })
        #expect(read.tasks.count == archive.tasks.count)
        for task in read.tasks {
            #expect(task.tagIds.map(\.uuidString) == Set(expected[task.id] ?? []).map(\.uuidString).sorted())
        }
        #expect(
            findings.contains {
                $0.code == .danglingReference && $0.entity == "Z_4TASKS"
                    && $0.examples.contains { $0.hasPrefix("p999999↔") }
                    && $0.message == "join row points at no task row; link not exported"
            })
        #expect(
            findings.contains {
                $0.code == .danglingReference && $0.entity == "Z_4TASKS"
                    && $0.examples.contains { $0.hasSuffix("↔p888888") }
                    && $0.message == "join row points at no tag row; link not exported"
            } == !archive.tasks.isEmpty)
    }
}
