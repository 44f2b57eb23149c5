import Foundation
import Testing
@testable import TaskInterchange

/// The migration's backup: one page copy of the live store under a concurrent writer, or the file of a closed one.
@Suite("Migration backup copy")
struct BackupCopyTests {
    /// Each task's priority by key.
    static func priorities(_ path: String) throws -> [Int64: Int64] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        var result: [Int64: Int64] = [:]
        for row in try database.rows("SELECT Z_PK, ZPRIORITY FROM ZTASK") {
            result[row[0].int64 ?? -1] = row[1].int64 ?? -1
        }
        return result
    }

    @Test("backups taken while another connection keeps committing are each one committed state, whole")
    func consistentUnderWriter() throws {
        let directory = try TemporaryDirectory()
        let legacy = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let before = try Self.priorities(legacy)
        #expect(before.count == 44)
        // Every commit moves every task's priority on by one: a copy mixing two commits holds two different shifts.
        let writer = Writer(path: legacy)
        defer { writer.stop() }
        while writer.commits < 5 { usleep(1_000) }
        let migration = Migration(legacyStore: legacy, backupDirectory: directory.url.path)
        for _ in 0..<8 {
            let backup = try migration.makeBackup(in: try PrivateDirectory(purpose: .export), progress: nil)
            #expect(!FileManager.default.fileExists(atPath: backup + "-wal"))
            let database = try Database(path: backup, mode: .readOnly(immutable: true))
            #expect(try database.scalar("PRAGMA integrity_check") == .text("ok"))
            let after = try Self.priorities(backup)
            #expect(Set(after.keys) == Set(before.keys))
            let shifts = Set(after.map { key, value in value - (before[key] ?? -1_000) })
            #expect(shifts.count == 1, "a backup mixes commits: \(shifts)")
        }
        let commits = writer.stop()
        #expect(writer.failure == nil, "\(writer.failure!)")
        #expect(commits > 5, "the writer did not keep committing")
    }

    @Test("a closed WAL store (no sidecars) is copied as its file, marked rollback-journal; the store gets no sidecar")
    func closedStore() throws {
        let directory = try TemporaryDirectory()
        let legacy = try SampleStores.copy("TaskManager.sqlite", to: directory)
        do {
            let database = try Database(path: legacy, mode: .readWrite)
            _ = try database.scalar("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        for suffix in ["-wal", "-shm"] {
            try #require(!FileManager.default.fileExists(atPath: legacy + suffix), "\(suffix) left by the last close")
        }
        let header = try Data(contentsOf: URL(fileURLWithPath: legacy)).prefix(20)
        try #require(header[18] == 2 && header[19] == 2, "the sample is not a WAL store")
        let backup = try Migration(legacyStore: legacy, backupDirectory: directory.url.path)
            .makeBackup(in: try PrivateDirectory(purpose: .export), progress: nil)
        for suffix in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: legacy + suffix))
            #expect(!FileManager.default.fileExists(atPath: backup + suffix))
        }
        let copied = try Data(contentsOf: URL(fileURLWithPath: backup))
        #expect(copied[18] == 1 && copied[19] == 1)
        #expect(try GraphComparison.compare(.store(path: legacy), .store(path: backup)).isEqual)
        #expect(try Self.priorities(backup).count == 44)
    }

    @Test("a quiet WAL store with rows only in its -wal: the backup holds them, and no file of the store changes")
    func quietStoreUntouched() throws {
        let directory = try TemporaryDirectory()
        let legacy = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let files = ["", "-wal", "-shm"].map { legacy + $0 }
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let backup = try Migration(legacyStore: legacy, backupDirectory: directory.url.path)
            .makeBackup(in: try PrivateDirectory(purpose: .export), progress: nil)
        // Not even the shared-memory index changes: a copy by files touches none of them.
        #expect(try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: backup + suffix), "\(suffix) beside the backup")
        }
        let copied = try Data(contentsOf: URL(fileURLWithPath: backup))
        #expect(copied[18] == 1 && copied[19] == 1)
        // The sample's last four tasks live only in its -wal: the backup, one file, holds all 44.
        #expect(try Self.priorities(backup).count == 44)
    }

    /// Commits on a thread of its own until stopped: each commit moves every task's priority on by one.
    final class Writer: @unchecked Sendable {
        private let lock = NSLock()
        private var running = true
        private var finished = false
        private var count = 0
        private(set) var failure: (any Error)?

        init(path: String) {
            Thread.detachNewThread { [self] in
                do {
                    let database = try Database(path: path, mode: .readWrite, busyTimeout: 5_000)
                    while lock.withLock({ running }) {
                        try database.execute("BEGIN IMMEDIATE")
                        try database.execute("UPDATE ZTASK SET ZPRIORITY = ZPRIORITY + 1")
                        try database.execute("COMMIT")
                        lock.withLock { count += 1 }
                    }
                } catch {
                    lock.withLock { failure = error }
                }
                lock.withLock { finished = true }
            }
        }

        var commits: Int { lock.withLock { finished && count == 0 ? Int.max : count } }

        /// Stops the writer and waits for it; returns how many commits it made.
        @discardableResult
        func stop() -> Int {
            lock.withLock { running = false }
            while !lock.withLock({ finished }) { usleep(1_000) }
            return lock.withLock { count }
        }
    }
}
