import Foundation
import Testing
@testable import TaskInterchange

/// Each job has a synchronous and an `async` form under one name. In an `async` function, `try await` must reach the
/// `async` one: it runs on a background queue and stops when the task is cancelled, where the synchronous one, which
/// knows nothing of the task, would run to the end. So a cancelled task shows which one ran.
@Suite("Async overloads")
struct AsyncOverloadTests {
    @Test("in an async function, try await calls the async form of validate, import, verify and migrate")
    func asyncFormIsChosen() async throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let file = directory.path("tasks.json")
        _ = try await Exporter.export(store: store, toFile: file)
        // The same calls on a task that is not cancelled: each finishes.
        #expect(try await Validator.validate(archiveAt: file).isValid)
        #expect(try await GraphComparison.verify(.archive(path: file), against: .store(path: store)).isEqual)

        let again = directory.path("again.json")
        let backups = directory.path("backups")
        let target = directory.path("new.sqlite")
        // The same calls in a task that is cancelled, one of its own, so that the test itself is not reported as
        // cancelled: each stops.
        let cancelledCalls = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let cancelled: @Sendable (any Error) -> Bool = { error in
                (error as? TaskInterchangeError)?.kind == .cancelled
                    || ((error as? MigrationError)?.underlying as? TaskInterchangeError)?.kind == .cancelled
            }
            await #expect(performing: { try await Validator.validate(archiveAt: file) }, throws: cancelled)
            await #expect(
                performing: { try await GraphComparison.verify(.archive(path: file), against: .store(path: store)) },
                throws: cancelled)
            await #expect(
                performing: { try await Exporter.export(store: store, toFile: again) },
                throws: cancelled)
            await #expect(
                performing: { try await Importer().run(archiveAt: file, into: { MemoryDestination() }) },
                throws: cancelled)
            await #expect(
                performing: {
                    try await StoreImport.run(archiveAt: file, into: target, options: StoreImportOptions())
                }, throws: cancelled)
            #expect(!FileManager.default.fileExists(atPath: target))
            let migration = Migration(legacyStore: store, backupDirectory: backups)
            await #expect(performing: { try await migration.run(intoStore: target) }, throws: cancelled)
            #expect(!FileManager.default.fileExists(atPath: target))
        }
        await cancelledCalls.value
    }

    @Test("in a synchronous function the same calls, without await, run on the calling thread to the end")
    func synchronousFormIsChosen() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let file = directory.path("tasks.json")
        let summary = try Exporter.export(store: store, toFile: file)
        #expect(try Validator.validate(archiveAt: file).counts == summary.counts)
        let plan = try Importer().run(archiveAt: file, into: { MemoryDestination() })
        #expect(plan.kinds["task"]?.inserted == summary.counts.tasks)
        let result = try StoreImport.run(archiveAt: file, into: directory.path("new.sqlite"), options: .init())
        #expect(result.createdStore)
        #expect(
            try GraphComparison.verify(.archive(path: file), against: .store(path: directory.path("new.sqlite")))
                .isEqual)
    }
}
