import Foundation
import TestTiers
import Testing
import TaskGraphDestinations
@testable import TaskInterchange
@testable import tasks

/// `Migration.run(into:)` with the adapter over the fake context: the stages on success and on a failure at each
/// stage, what is left behind, and a generated store (100k tasks in the slow tier).
@Suite("Migration into a context", .tags(.slow))
struct MigrationIntoContextTests {
    typealias Scratch = TaskGraphDestinationTests.Scratch

    /// Records events from the migration's queue.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Migration.Event] = []
        func append(_ event: Migration.Event) { lock.withLock { list.append(event) } }
        var all: [Migration.Event] { lock.withLock { list } }
        var stages: [Migration.Stage] {
            all.compactMap { if case .stage(let stage) = $0 { return stage } else { return nil } }
        }
        var progress: [ProgressEvent] {
            all.compactMap { if case .progress(let event) = $0 { return event } else { return nil } }
        }
    }

    /// The sample store's three files, copied.
    static func sampleStore(in scratch: Scratch) throws -> String {
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(
                atPath: TaskGraphDestinationTests.sample("TaskManager.sqlite") + suffix,
                toPath: scratch.file("TaskManager.sqlite") + suffix)
        }
        return scratch.file("TaskManager.sqlite")
    }

    static func files(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    static let success: [Migration.Stage] = [.preparingBackup, .validating, .migrating, .verifying, .completed]

    @Test("success: every stage in order, progress per phase from 0 to the total, verified, the backup in place")
    func success() async throws {
        let scratch = try Scratch()
        let store = try Self.sampleStore(in: scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: store + "-wal"))
        let context = FakeTaskContext()
        let events = Events()
        let report = try await Migration(legacyStore: store, backupDirectory: scratch.path).run(
            into: {
                TaskGraphDestination(context: context, batchSize: 16)
            }, events: events.append)
        #expect(events.stages == Self.success)
        #expect(report.verification?.isEqual == true)
        #expect(report.validation.counts.tasks == 44 && context.saved.tasks.count == 44)
        #expect(FileManager.default.fileExists(atPath: report.backupPath))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store + "-wal")) == before, "the legacy store changed")
        // Each phase's events: first done 0, done never decreasing, last done == total.
        let phases = events.progress.map(\.phase).reduce(into: [ProgressEvent.Phase]()) {
            if $0.last != $1 { $0.append($1) }
        }
        #expect(phases == [.backingUp, .exporting, .validating, .importing, .verifying])
        for phase in phases {
            let list = events.progress.filter { $0.phase == phase }
            #expect(list.first?.done == 0, "\(phase)")
            #expect(zip(list, list.dropFirst()).allSatisfy { $0.done <= $1.done }, "\(phase)")
            #expect(list.last.map { $0.total == $0.done } == true, "\(phase): \(list)")
        }
    }

    @Test("a failure at preparing backup (no parent directory): stages end in failed, no backup, the context untouched")
    func failsPreparingBackup() async throws {
        let scratch = try Scratch()
        let store = try Self.sampleStore(in: scratch)
        let context = FakeTaskContext()
        let events = Events()
        let error = await #expect(throws: MigrationError.self) {
            _ = try await Migration(legacyStore: store, backupDirectory: scratch.file("missing/backups")).run(
                into: {
                    TaskGraphDestination(context: context)
                }, events: events.append)
        }
        #expect(error?.stage == .preparingBackup && error?.backupPath == nil)
        #expect(events.stages == [.preparingBackup, .failed])
        #expect(context.saveCalls == 0 && context.savedCount == 0)
    }

    @Test(
        "a failure at validating (a mapping naming no entity): nothing written, the backup removed, the context untouched"
    )
    func failsValidating() async throws {
        let scratch = try Scratch()
        let store = try Self.sampleStore(in: scratch)
        let context = FakeTaskContext()
        let events = Events()
        var migration = Migration(legacyStore: store, backupDirectory: scratch.path)
        migration.mapping = StoreMapping(kinds: [.task: StoreMapping.KindMapping(entity: "NoSuchEntity", fields: [:])])
        let error = await #expect(throws: MigrationError.self) {
            _ = try await migration.run(into: { TaskGraphDestination(context: context) }, events: events.append)
        }
        #expect(error?.stage == .validating)
        #expect(events.stages == [.preparingBackup, .validating, .failed])
        #expect(error?.backupPath == nil && error?.backupRemoved == true)
        #expect(String(describing: error!).contains("the destination is unchanged; the backup made was removed"))
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(!files.contains { $0.contains("-backup-") }, "\(files)")
        #expect(context.saveCalls == 0 && context.savedCount == 0)
    }

    @Test("a failure at migrating (the third save fails): the batches saved before are deleted")
    func failsMigrating() async throws {
        let scratch = try Scratch()
        let store = try Self.sampleStore(in: scratch)
        let context = FakeTaskContext(fault: .failingSave(3))
        let events = Events()
        let error = await #expect(throws: MigrationError.self) {
            _ = try await Migration(legacyStore: store, backupDirectory: scratch.path).run(
                into: {
                    TaskGraphDestination(context: context, batchSize: 10)
                }, events: events.append)
        }
        #expect(error?.stage == .migrating && error?.underlying is FakeTaskContext.SaveFailed)
        #expect(events.stages == [.preparingBackup, .validating, .migrating, .failed])
        #expect(context.saveCalls == 3 && context.savedCount == 0 && context.pendingCount == 0)
    }

    @Test("a failure at verifying (a model that loses notes): the differences are reported and everything is deleted")
    func failsVerifying() async throws {
        let scratch = try Scratch()
        let store = try Self.sampleStore(in: scratch)
        let context = FakeTaskContext(fault: .dropsNotes)
        let events = Events()
        let error = await #expect(throws: MigrationError.self) {
            _ = try await Migration(legacyStore: store, backupDirectory: scratch.path).run(
                into: {
                    TaskGraphDestination(context: context)
                }, events: events.append)
        }
        #expect(error?.stage == .verifying)
        #expect(events.stages == [.preparingBackup, .validating, .migrating, .verifying, .failed])
        let verification = try #require(error?.verification)
        #expect(!verification.isEqual)
        #expect(
            verification.records.allSatisfy { $0.fields.map(\.field) == ["notes"] },
            "\(verification.records.prefix(2))")
        #expect(context.savedCount == 0)
    }

    /// Cancels a task at the `at`-th point it is told of: a migration event or a save of the context.
    final class Canceller: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var task: Task<MigrationReport, any Error>?
        let at: Int
        init(at: Int) { self.at = at }
        var points: Int { lock.withLock { count } }
        func attach(_ task: Task<MigrationReport, any Error>) { lock.withLock { self.task = task } }
        func tick() {
            lock.withLock {
                count += 1
                if count >= at { task?.cancel() }
            }
        }
    }

    /// A migration of `store` into a fresh fake context, with `canceller` told of every event and save.
    static func migration(
        of store: String, backups: String, context: FakeTaskContext,
        canceller: Canceller
    ) -> Task<MigrationReport, any Error> {
        context.onSave = canceller.tick
        let task = Task {
            try await Migration(legacyStore: store, backupDirectory: backups).run(
                into: {
                    TaskGraphDestination(context: context, batchSize: 500)
                }, events: { _ in canceller.tick() })
        }
        canceller.attach(task)
        return task
    }

    @Test("cancelled at a random event or save: failed with .cancelled, nothing in the context, no partial backup")
    func cancelledAtRandomPoints() async throws {
        let scratch = try Scratch()
        let store = scratch.file("generated.sqlite")
        _ = try StoreImport.run(SyntheticArchive(tasks: 20_000, seed: 7), into: store, options: StoreImportOptions())
        let counting = Canceller(at: .max)
        _ = try await Self.migration(of: store, backups: scratch.path, context: FakeTaskContext(), canceller: counting)
            .value
        // The last point is the `completed` event, after which nothing can be taken back.
        let points = counting.points
        #expect(points > 40, "\(points)")
        for round in 0..<Tiers.count(3, slow: 8) {
            let backups = scratch.file("backups-\(round)")
            try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
            let context = FakeTaskContext()
            let canceller = Canceller(at: Int.random(in: 1..<points))
            let result = await Self.migration(of: store, backups: backups, context: context, canceller: canceller)
                .result
            let failure = try #require(result.failureAsMigrationError, "round \(round) at \(canceller.at) completed")
            #expect((failure.underlying as? TaskInterchangeError)?.kind == .cancelled, "\(failure)")
            #expect(context.savedCount == 0 && context.pendingCount == 0, "at \(canceller.at): \(failure.stage)")
            // A backup is complete or absent: no temporary file.
            #expect(try Self.files(backups).allSatisfy { $0.hasSuffix(".sqlite") && !$0.hasPrefix(".") })
        }
    }

    @Test("a generated store (tasks generate's; 100k tasks in the slow tier) migrates into the fake context, verified")
    func generatedStore() async throws {
        let tasks = Tiers.count(10_000, slow: 100_000)
        let scratch = try Scratch()
        let store = scratch.file("generated.sqlite")
        _ = try StoreImport.run(SyntheticArchive(tasks: tasks, seed: 1), into: store, options: StoreImportOptions())
        let context = FakeTaskContext()
        let started = Date()
        let report = try await Migration(legacyStore: store, backupDirectory: scratch.path).run(into: {
            TaskGraphDestination(context: context)
        })
        let seconds = Date().timeIntervalSince(started)
        #expect(report.verification?.isEqual == true)
        #expect(context.saved.tasks.count == tasks)
        #expect(context.saveCalls == tasks / 1_000)
        #expect(context.mostPendingTasks == 1_000)
        print("migration of \(tasks) generated tasks into the fake context: \(String(format: "%.2f", seconds)) s")
    }
}

extension Result {
    /// The failure, when it is a `MigrationError`.
    var failureAsMigrationError: MigrationError? {
        if case .failure(let error) = self { return error as? MigrationError }
        return nil
    }
}
