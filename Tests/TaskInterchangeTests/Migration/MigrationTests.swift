import Foundation
import Testing
@testable import TaskInterchange

/// `Migration.run(intoStore:)`: the stage sequence on success and on a failure at each stage, with what is left.
@Suite("Migration into a store")
struct MigrationTests {
    static func sampleStore(in directory: TemporaryDirectory) throws -> String {
        try SampleStores.copy("TaskManager.sqlite", to: directory)
    }

    /// Records events and, at a chosen stage, asks the migration to stop (through the bound cancellation check).
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Migration.Stage] = []
        private var stopRequested = false
        let stopAt: Migration.Stage?
        init(stopAt: Migration.Stage? = nil) { self.stopAt = stopAt }
        func record(_ event: Migration.Event) {
            guard case .stage(let stage) = event else { return }
            lock.withLock {
                list.append(stage)
                if stage == stopAt { stopRequested = true }
            }
        }
        var stages: [Migration.Stage] { lock.withLock { list } }
        var shouldStop: Bool { lock.withLock { stopRequested } }
    }

    static func files(_ directory: TemporaryDirectory) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
    }

    @Test("success: the five stages; the new store holds the legacy store's graph; the backup exports the same graph")
    func success() async throws {
        let directory = try TemporaryDirectory()
        let legacy = try Self.sampleStore(in: directory)
        let target = directory.path("new.sqlite")
        let events = Events()
        let report = try await Migration(legacyStore: legacy, backupDirectory: directory.url.path)
            .run(intoStore: target, events: events.record)
        #expect(events.stages == [.preparingBackup, .validating, .migrating, .verifying, .completed])
        #expect(report.verification?.isEqual == true && report.validation.counts.tasks == 44)
        #expect(try await GraphComparison.compare(.store(path: legacy), .store(path: target)).isEqual)
        #expect(try await GraphComparison.compare(.store(path: legacy), .store(path: report.backupPath)).isEqual)
        // One self-contained file: the 4 tasks that live only in the legacy store's -wal are in it, with no sidecar.
        #expect(!FileManager.default.fileExists(atPath: report.backupPath + "-wal"))
        #expect(report.backupPath.hasPrefix(directory.url.path + "/TaskManager-backup-"))
    }

    /// Runs a migration that fails, and checks what every failure must leave: the stages up to `stage` then
    /// `failed`, no new store, and the backup (when one was made) in place and named in the message.
    func expectFailure(
        at stage: Migration.Stage, migration: Migration, target: String, events: Events,
        directory: TemporaryDirectory, backup expectsBackup: Bool
    ) async throws -> MigrationError? {
        let error = await #expect(throws: MigrationError.self) {
            let check = Cancellation { events.shouldStop }
            _ = try await Cancellation.$current.withValue(check) {
                try await migration.run(intoStore: target, events: events.record)
            }
        }
        let all: [Migration.Stage] = [.preparingBackup, .validating, .migrating, .verifying]
        #expect(events.stages == Array(all.prefix { $0 != stage }) + [stage, .failed])
        #expect(error?.stage == stage)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: target + suffix))
        }
        #expect(try Self.files(directory).allSatisfy { !$0.hasPrefix(".") }, "a temporary file was left")
        if expectsBackup {
            let backup = try #require(error?.backupPath)
            #expect(FileManager.default.fileExists(atPath: backup))
            #expect(String(describing: error!).contains(backup))
        } else {
            #expect(error?.backupPath == nil)
            let backups = (try? FileManager.default.contentsOfDirectory(atPath: migration.backupDirectory)) ?? []
            #expect(!backups.contains { $0.contains("-backup-") }, "a backup was left: \(backups)")
        }
        // The new store never existed: the message says it was not created, never that it is as it was.
        #expect(String(describing: error!).contains("no store was created at \(target)"), "\(error!)")
        #expect(!String(describing: error!).contains("unchanged"), "\(error!)")
        return error
    }

    @Test("migrations whose backups fall in one second each keep their own: the next name is -2, -3, …")
    func backupsOfOneSecond() async throws {
        let directory = try TemporaryDirectory()
        let legacy = try Self.sampleStore(in: directory)
        let backups = directory.path("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        // The time-stamped names of the next seconds are taken already, as by a migration that ran just before.
        let now = Date()
        let taken = (0..<30).map { backups + "/" + Migration.backupName(for: legacy, at: now + Double($0)) }
        for path in taken { #expect(FileManager.default.createFile(atPath: path, contents: Data("earlier".utf8))) }
        let migration = Migration(legacyStore: legacy, backupDirectory: backups)
        let first = try await migration.run(intoStore: directory.path("a.sqlite")).backupPath
        let second = try await migration.run(intoStore: directory.path("b.sqlite")).backupPath
        #expect(first.hasSuffix("-2.sqlite") && taken.contains(String(first.dropLast("-2.sqlite".count)) + ".sqlite"))
        #expect(second != first && !taken.contains(second))
        #expect(try await GraphComparison.compare(.store(path: legacy), .store(path: second)).isEqual)
        for path in taken { #expect(FileManager.default.contents(atPath: path) == Data("earlier".utf8)) }
    }

    @Test(
        "two backups of a store with external files in one second, its first name and files taken: each its own name and files"
    )
    func backupsWithFilesOfOneSecond() throws {
        let directory = try TemporaryDirectory()
        let legacy = try Self.sampleStore(in: directory)
        let external = ExternalData(store: legacy).directory
        try FileManager.default.createDirectory(atPath: external, withIntermediateDirectories: true)
        let names = (0..<3).map { _ in UUID().uuidString }
        for (offset, name) in names.enumerated() {
            try Data(repeating: UInt8(offset), count: 100).write(to: URL(fileURLWithPath: external + "/" + name))
        }
        let backups = directory.path("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        // The first names of the next seconds are taken with their files, as by a backup made just before.
        let now = Date()
        for second in 0..<30 {
            let taken = backups + "/" + Migration.backupName(for: legacy, at: now + Double(second))
            #expect(FileManager.default.createFile(atPath: taken, contents: Data("earlier".utf8)))
            try FileManager.default.createDirectory(
                atPath: ExternalDataBackup.supportDirectory(of: taken), withIntermediateDirectories: false)
        }
        let migration = Migration(legacyStore: legacy, backupDirectory: backups)
        let first = try migration.makeBackup(in: try PrivateDirectory(purpose: .export), progress: nil)
        let second = try migration.makeBackup(in: try PrivateDirectory(purpose: .export), progress: nil)
        #expect(first != second && first.hasSuffix("-2.sqlite"), "\(first), \(second)")
        for backup in [first, second] {
            let files = try FileManager.default.contentsOfDirectory(atPath: ExternalData(store: backup).directory)
            #expect(Set(files) == Set(names), "\(backup)")
        }
        // Nothing staged is left beside them.
        let hidden = try FileManager.default.contentsOfDirectory(atPath: backups).filter { $0.contains(".tasks-") }
        #expect(hidden.isEmpty, "\(hidden)")
    }

    @Test("failed at preparing backup (the backup directory's parent is missing): no backup, no store")
    func failsPreparingBackup() async throws {
        let directory = try TemporaryDirectory()
        let legacy = try Self.sampleStore(in: directory)
        let migration = Migration(legacyStore: legacy, backupDirectory: directory.path("none/backups"))
        let error = try await expectFailure(
            at: .preparingBackup, migration: migration,
            target: directory.path("new.sqlite"), events: Events(),
            directory: directory, backup: false)
        #expect((error?.underlying as? TaskInterchangeError)?.kind == .cannotCreate)
    }

    @Test("failed at preparing backup (the new store exists): it is left as it was")
    func failsWhenTargetExists() async throws {
        let directory = try TemporaryDirectory()
        let target = directory.path("new.sqlite")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: target))
        let error = await #expect(throws: MigrationError.self) {
            let legacy = try Self.sampleStore(in: directory)
            _ = try await Migration(legacyStore: legacy, backupDirectory: directory.url.path).run(intoStore: target)
        }
        #expect(error?.stage == .preparingBackup && error?.backupPath == nil)
        #expect(error.map { String(describing: $0) }?.contains("the destination is unchanged") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("mine".utf8))
    }

    @Test("failed at validating (the mapping names no entity of the store): nothing was written, the backup is removed")
    func failsValidating() async throws {
        let directory = try TemporaryDirectory()
        var migration = Migration(legacyStore: try Self.sampleStore(in: directory), backupDirectory: directory.url.path)
        migration.mapping = StoreMapping(kinds: [.task: StoreMapping.KindMapping(entity: "NoSuchEntity", fields: [:])])
        let error = try await expectFailure(
            at: .validating, migration: migration, target: directory.path("new.sqlite"),
            events: Events(), directory: directory, backup: false)
        #expect(error?.backupRemoved == true)
        #expect(String(describing: error!).contains("the backup made was removed, as nothing was written"))
    }

    @Test("stopped while migrating: the backup is removed; stopped while verifying (written, then undone): it stays")
    func stoppedWhileMigratingOrVerifying() async throws {
        for stage in [Migration.Stage.migrating, .verifying] {
            let directory = try TemporaryDirectory()
            let legacy = try Self.sampleStore(in: directory)
            let migration = Migration(legacyStore: legacy, backupDirectory: directory.url.path)
            let error = try await expectFailure(
                at: stage, migration: migration, target: directory.path("new.sqlite"),
                events: Events(stopAt: stage), directory: directory, backup: stage == .verifying)
            #expect((error?.underlying as? TaskInterchangeError)?.kind == .cancelled, "\(stage)")
            #expect(error?.backupRemoved == (stage == .migrating), "\(stage)")
        }
    }
}
