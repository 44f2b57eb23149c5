import Foundation
import TestTiers
import Testing
@testable import TaskInterchange

/// The `async` entry points: cancelled at random points they leave nothing (no output, no temporary file, the
/// target's files byte for byte as before) or finish completely; their progress events are ordered and complete.
@Suite("Async entry points", .tags(.slow))
struct AsyncEntryPointTests {
    static let tasks = 20_000
    /// Cancellations at random points per test.
    static let rounds = Tiers.count(3, slow: 6)

    /// `count` tasks (every third with two subtasks) in 10 projects and 5 tags; ids made from `seed` and the index.
    static func archive(tasks count: Int, seed: Int) -> Archive {
        func id(_ kind: Int, _ index: Int) -> UUID {
            UUID(uuidString: String(format: "%04X%04X-0000-4000-8000-%012X", seed, kind, index))!
        }
        var archive = Archive()
        archive.projects = (0..<10).map { ProjectRecord(id: id(1, $0), name: "Project \($0)") }
        archive.tags = (0..<5).map { TagRecord(id: id(2, $0), name: "tag \($0)") }
        archive.tasks = (0..<count).map { index in
            TaskRecord(
                id: id(3, index), title: "Task \(index)", notes: index % 2 == 0 ? "notes \(index)" : nil,
                createdAt: Date(timeIntervalSinceReferenceDate: Double(index) + 0.125), priority: index % 4,
                projectId: id(1, index % 10), tagIds: [id(2, index % 5)],
                subtasks: index % 3 == 0
                    ? [
                        SubtaskRecord(id: id(4, 2 * index), title: "first"),
                        SubtaskRecord(id: id(4, 2 * index + 1), title: "second"),
                    ] : [])
        }
        return archive
    }

    /// A store with `tasks` tasks, made once per test in `directory`.
    static func store(in directory: TemporaryDirectory, seed: Int = 1) throws -> String {
        let path = directory.path("store-\(seed).sqlite")
        _ = try StoreImport.run(archive(tasks: tasks, seed: seed), into: path, options: StoreImportOptions())
        return path
    }

    /// Every file in `directory` with its bytes.
    static func snapshot(_ directory: TemporaryDirectory) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            files[name] = try Data(contentsOf: directory.url.appendingPathComponent(name))
        }
        return files
    }

    /// Collects events from any thread.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ProgressEvent] = []
        func record(_ event: ProgressEvent) { lock.withLock { list.append(event) } }
        var events: [ProgressEvent] { lock.withLock { list } }
    }

    /// Cancels a task at its `at`-th cancellation check: at a random point of the work itself, however the test's
    /// own task is scheduled (on a busy machine a sleeping test task can wake only after the work has finished).
    /// The check only calls `Task.cancel()`; the work stops through the task's cancellation.
    final class Trigger: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var task: Task<Void, Never>?
        private let at: Int
        init(at: Int) { self.at = at }
        var checks: Int { lock.withLock { count } }
        func attach(_ task: Task<Void, Never>) { lock.withLock { self.task = task } }
        func check() -> Bool {
            lock.withLock {
                count += 1
                if count >= at { task?.cancel() }
            }
            return false
        }
    }

    /// How many cancellation checks `work` makes when it runs to the end.
    static func checks(_ work: () async throws -> Void) async throws -> Int {
        let counter = Trigger(at: .max)
        try await Cancellation.$current.withValue(Cancellation(counter.check)) { try await work() }
        return counter.checks
    }

    /// Runs `work` in a task cancelled at a random one of its first `limit` cancellation checks.
    static func cancelled<Result: Sendable>(
        within limit: Int, _ work: @escaping @Sendable () async throws -> Result
    ) async -> Swift.Result<Result, any Error> {
        let trigger = Trigger(at: Int.random(in: 1...max(1, limit)))
        let outcome = Box<Result>()
        let task = Task {
            await Cancellation.$current.withValue(Cancellation(trigger.check)) {
                do {
                    outcome.set(.success(try await work()))
                } catch {
                    outcome.set(.failure(error))
                }
            }
        }
        trigger.attach(task)
        await task.value
        return outcome.get()
    }

    /// A result handed out of a task.
    final class Box<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Swift.Result<Value, any Error>?
        func set(_ result: Swift.Result<Value, any Error>) { lock.withLock { value = result } }
        func get() -> Swift.Result<Value, any Error> { lock.withLock { value! } }
    }

    static func isCancellation(_ error: any Error) -> Bool { (error as? TaskInterchangeError)?.kind == .cancelled }

    @Test("export cancelled at random points: the whole file or no file and no temporary file; the store unchanged")
    func exportCancelled() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        let timed = directory.path("timed.json")
        let limit = try await Self.checks { _ = try await Exporter.export(store: store, toFile: timed, progress: nil) }
        try FileManager.default.removeItem(atPath: timed)
        let before = try Self.snapshot(directory)
        var outcomes = [0, 0]
        for round in 0..<Self.rounds {
            let output = directory.path("out-\(round).json")
            let result = await Self.cancelled(within: limit) {
                try await Exporter.export(store: store, toFile: output, progress: nil)
            }
            switch result {
            case .success(let summary):
                outcomes[0] += 1
                #expect(summary.counts.tasks == Self.tasks)
                #expect(try await Validator.validate(archiveAt: output).counts.tasks == Self.tasks)
                try FileManager.default.removeItem(atPath: output)
            case .failure(let error):
                outcomes[1] += 1
                #expect(Self.isCancellation(error), "\(error)")
            }
            #expect(try Self.snapshot(directory) == before, "round \(round) left something or changed the store")
        }
        #expect(outcomes[1] > 0, "no round was cancelled midway: \(outcomes)")
    }

    @Test("import into a new store cancelled at random points: a complete store or nothing at all")
    func importIntoNewCancelled() async throws {
        let directory = try TemporaryDirectory()
        let archivePath = directory.path("in.json")
        _ = try await Exporter.export(store: try Self.store(in: directory), toFile: archivePath)
        let timed = directory.path("timed.sqlite")
        let limit = try await Self.checks {
            _ = try await StoreImport.run(archiveAt: archivePath, into: timed, options: StoreImportOptions())
        }
        try FileManager.default.removeItem(atPath: timed)
        let before = try Self.snapshot(directory)
        var cancellations = 0
        for round in 0..<Self.rounds {
            let target = directory.path("new-\(round).sqlite")
            let result = await Self.cancelled(within: limit) {
                try await StoreImport.run(archiveAt: archivePath, into: target, options: StoreImportOptions())
            }
            switch result {
            case .success:
                let diff = try await GraphComparison.verify(.archive(path: archivePath), against: .store(path: target))
                #expect(diff.isEqual)
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
            case .failure(let error):
                cancellations += 1
                #expect(Self.isCancellation(error), "\(error)")
            }
            #expect(try Self.snapshot(directory) == before, "round \(round) left something behind")
        }
        #expect(cancellations > 0, "no round was cancelled midway")
    }

    @Test(
        "import into an existing store cancelled at random points: its files as before, byte for byte, or all imported")
    func importIntoExistingCancelled() async throws {
        let directory = try TemporaryDirectory()
        let target = try Self.store(in: directory, seed: 1)
        let archivePath = directory.path("other.json")
        _ = try await Exporter.export(store: try Self.store(in: directory, seed: 2), toFile: archivePath)
        try FileManager.default.removeItem(atPath: directory.path("store-2.sqlite"))
        let before = try Self.snapshot(directory)
        var completed = false
        // Stops drawn over the checks of an import into a new store: most rounds stop midway.
        let limit = try await Self.checks {
            _ = try await StoreImport.run(
                archiveAt: archivePath, into: directory.path("timed.sqlite"),
                options: StoreImportOptions())
        }
        try FileManager.default.removeItem(atPath: directory.path("timed.sqlite"))
        for _ in 0..<Self.rounds where !completed {
            let result = await Self.cancelled(within: limit) {
                try await StoreImport.run(archiveAt: archivePath, into: target, options: StoreImportOptions())
            }
            switch result {
            case .success:
                completed = true
                let diff = try await GraphComparison.verify(.archive(path: archivePath), against: .store(path: target))
                #expect(diff.isEqual)
            case .failure(let error):
                #expect(Self.isCancellation(error), "\(error)")
                #expect(try Self.snapshot(directory) == before, "a cancelled import changed the target")
            }
        }
    }

    @Test("a task cancelled before the call starts: .cancelled, nothing written")
    func cancelledBeforeStart() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        let before = try Self.snapshot(directory)
        let output = directory.path("out.json")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Exporter.export(store: store, toFile: output, progress: nil)
        }
        let result = await task.result
        #expect(throws: TaskInterchangeError.self) { try result.get() }
        #expect(try Self.snapshot(directory) == before)
    }

    @Test(
        "progress: one phase per call, from done 0, never decreasing, every 10,000 tasks, to done == total with bytes")
    func progressOrderedAndComplete() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        let archivePath = directory.path("out.json")
        let newStore = directory.path("new.sqlite")
        let calls: [(ProgressEvent.Phase, @Sendable (Recorder) async throws -> Void)] = [
            (
                .exporting,
                { recorder in
                    _ = try await Exporter.export(store: store, toFile: archivePath, progress: recorder.record)
                }
            ),
            (
                .validating,
                { recorder in
                    _ = try await Validator.validate(archiveAt: archivePath, progress: recorder.record)
                }
            ),
            (
                .importing,
                { recorder in
                    _ = try await StoreImport.run(
                        archiveAt: archivePath, into: newStore,
                        options: StoreImportOptions(), progress: recorder.record)
                }
            ),
        ]
        for (phase, call) in calls {
            let recorder = Recorder()
            try await call(recorder)
            let events = recorder.events
            #expect(events.allSatisfy { $0.phase == phase })
            #expect(events.first?.done == 0)
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.done <= $1.done }, "\(phase): \(events)")
            let between = events.map(\.done).filter { $0 > 0 && $0 < Self.tasks }
            #expect(between == Array(stride(from: 10_000, to: Self.tasks, by: 10_000)), "\(phase): \(events)")
            let last = try #require(events.last)
            #expect(last.done == Self.tasks && last.total == Self.tasks && last.fraction == 1)
            #expect(last.bytes == FileIdentity.size(of: archivePath), "\(phase)")
        }
    }
}
