import Foundation
import Testing
@testable import TaskInterchange

@Suite("Store round trip")
struct StoreRoundTripTests {
    @Test("random graphs survive archive → new store → archive with every field and bit", arguments: 0..<40)
    func randomGraph(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        let original = ArchiveGenerator.archive(seed: seed)
        let path = directory.path("new.sqlite")
        let result = try StoreImport.run(original, into: path, options: StoreImportOptions())
        #expect(result.createdStore)
        let (read, findings) = try readStore(path)
        #expect(read.projects == original.projects, "seed \(seed)")
        #expect(read.categories == original.categories, "seed \(seed)")
        #expect(read.tags == original.tags, "seed \(seed)")
        #expect(read.tasks == original.tasks, "seed \(seed)")
        #expect(findings.filter(\.isWarning).isEmpty, "seed \(seed): \(findings)")
        for (old, new) in zip(original.tasks, read.tasks) {
            #expect(
                old.createdAt.timeIntervalSinceReferenceDate.bitPattern
                    == new.createdAt.timeIntervalSinceReferenceDate.bitPattern)
        }
    }

    @Test("a new store leaves no temporary files or sidecars behind")
    func newStoreIsOneFile() throws {
        let directory = try TemporaryDirectory()
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 7), into: directory.path("a.sqlite"), options: StoreImportOptions())
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(files == ["a.sqlite"])
    }

    @Test("an invalid archive creates no store at all")
    func invalidCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        var archive = ArchiveGenerator.archive(seed: 3)
        archive.tasks.append(TaskRecord(id: UUID(), title: "dangling", createdAt: Date(), projectId: UUID()))
        #expect(throws: ArchiveValidationError.self) {
            try StoreImport.run(archive, into: directory.path("b.sqlite"), options: StoreImportOptions())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("reading a store leaves its files byte-identical, including a -wal with committed rows")
    func readingLeavesFilesAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("wal.sqlite")
        _ = try StoreImport.run(ArchiveGenerator.archive(seed: 11), into: path, options: StoreImportOptions())
        // Add a row that lives only in the WAL: a writer that commits and is never checkpointed.
        let writer = try Database(path: path, mode: .readWrite)
        try writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try writer.execute(
            "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME, ZID) VALUES (9999, 4, 1, 'wal only', x'00112233445566778899AABBCCDDEEFF')"
        )
        let files = ["", "-wal", "-shm"].map { path + $0 }
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let (archive, _) = try readStore(path)
        #expect(archive.tags.contains { $0.name == "wal only" })
        let after = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
        _ = writer
    }
}
