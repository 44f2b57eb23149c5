import Foundation
import TestTiers
import Testing
import TaskInterchange

/// Stores in use, as users have them: another process writing while `tasks` reads, a writer that died
/// mid-transaction, imports racing each other. Each check runs the built binary against a real second process.
@Suite("Live stores", .serialized, .tags(.slow))
struct LiveStoreTests {
    static let writer = TasksBinary.repository.appendingPathComponent("Tests/tasksTests/Fixtures/live/writer.py").path
    /// Exports per journal mode while the writer runs (20 in the slow tier; `TASKS_LIVE_EXPORTS` for a longer run),
    /// of a store this big.
    static let exportsPerMode =
        Int(ProcessInfo.processInfo.environment["TASKS_LIVE_EXPORTS"] ?? "") ?? Tiers.count(3, slow: 20)
    static let liveTasks = Tiers.count(5_000, slow: 20_000)

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> TasksBinary.Run {
        try TasksBinary.runProcess(TasksBinary.url, arguments, stdin: nil, in: nil, environment: environment)
    }

    static func generate(_ path: String, tasks: Int, seed: Int = 1) throws {
        let run = try run(["generate", "--tasks", String(tasks), "--seed", String(seed), "-o", path])
        guard run.status == 0 else { throw TaskInterchangeError(.internal, "generate failed: \(run.stderr)") }
    }

    /// The completion flag of every task in an NDJSON export, in id order.
    static func completion(_ ndjson: String) throws -> [Bool] {
        try ndjson.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(#"{"type":"task""#) else { return nil }
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return object["isCompleted"] as? Bool
        }
    }

    /// Starts a python3 script; waits until it creates `ready` (when given).
    static func startPython(_ arguments: [String], ready: String?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard let ready else { return process }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: ready) {
            guard process.isRunning, Date() < deadline else {
                process.terminate()
                throw TaskInterchangeError(.internal, "the helper process did not start: \(arguments)")
            }
            usleep(10_000)
        }
        return process
    }

    /// SIGKILL: processes started from the test runner inherit a mask that blocks SIGTERM.
    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    static var hasPython: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test(
        "exports while another process commits read one committed state each: the writer's invariant holds in every export",
        .enabled(if: LiveStoreTests.hasPython, "python3 with sqlite3 is needed for the second writing process"),
        arguments: ["wal", "delete", "wal-reopen"])
    func exportsDuringWrites(journalMode: String) throws {
        let scratch = try Scratch()
        let store = scratch.path("live.sqlite")
        try Self.generate(store, tasks: Self.liveTasks)
        let quiet = try Self.run(["export", "--store", store, "--ndjson"])
        let expected = try Self.completion(quiet.stdout).filter { $0 }.count
        #expect(quiet.status == 0 && expected > 0)
        let writer = try Self.startPython(
            [Self.writer, store, journalMode, scratch.path("ready")], ready: scratch.path("ready"))
        defer { Self.stop(writer) }
        var states = Set<[Bool]>()
        for attempt in 0..<Self.exportsPerMode {
            let run = try Self.run(["export", "--store", store, "--ndjson"])
            #expect(run.status == 0, "export \(attempt) (\(journalMode)): \(run.stderr)")
            let flags = try Self.completion(run.stdout)
            #expect(flags.count == Self.liveTasks, "export \(attempt) (\(journalMode)): \(flags.count) tasks")
            #expect(
                flags.filter { $0 }.count == expected,
                "export \(attempt) (\(journalMode)): completed tasks \(flags.filter { $0 }.count), expected \(expected)"
            )
            states.insert(flags)
        }
        #expect(writer.isRunning, "the writer stopped early")
        // The writer really changed the store between exports: the exports saw several committed states.
        #expect(states.count > 1, "every export saw the same state; the writer did not write")
    }

    @Test(
        "a writer that holds its lock past --busy-timeout: export, inspect and import exit 75 with a clear message",
        .enabled(if: LiveStoreTests.hasPython, "python3 with sqlite3 is needed for the lock-holding process"))
    func lockHeldPastTimeout() throws {
        let scratch = try Scratch()
        let store = scratch.path("locked.sqlite")
        try Self.generate(store, tasks: 200)
        let archive = scratch.path("a.json")
        #expect(try Self.run(["export", "--store", store, "-o", archive]).status == 0)
        let script = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("PRAGMA journal_mode = delete")
            c.execute("BEGIN EXCLUSIVE")
            c.execute("UPDATE ZTASK SET ZTITLE = 'uncommitted'")
            open(sys.argv[2], "w").close()
            time.sleep(30)
            """
        let holder = try Self.startPython(["-c", script, store, scratch.path("ready")], ready: scratch.path("ready"))
        defer { Self.stop(holder) }
        for arguments in [
            ["export", "--store", store, "--busy-timeout", "200"],
            ["import", "--store", store, "--mode", "upsert", "--busy-timeout", "200", archive],
            ["import", "--store", store, "--mode", "upsert", "--dry-run", "--busy-timeout", "200", archive],
            ["validate", "--store", store, "--mode", "upsert", "--busy-timeout", "200", archive],
        ] {
            let run = try Self.run(arguments)
            #expect(run.status == 75, "\(arguments[0]): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("locked by another process"), "\(arguments[0]): \(run.stderr)")
            #expect(!run.stdout.contains("uncommitted"))
        }
    }

    @Test(
        "a hot journal (writer killed mid-transaction): export and inspect read only committed data, the files stay as they were",
        .enabled(if: LiveStoreTests.hasPython, "python3 with sqlite3 is needed to make a hot journal"))
    func hotJournal() throws {
        let scratch = try Scratch()
        let source = scratch.path("source.sqlite")
        try Self.generate(source, tasks: 3_000)
        let committed = try Self.run(["export", "--store", source, "--ndjson"])
        // The writer changes every task and deletes every subtask with a tiny cache, so the changes reach the file;
        // the file and its journal are copied while the transaction is open, then the writer dies.
        let script = """
            import os, shutil, sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("PRAGMA journal_mode = delete")
            c.execute("PRAGMA cache_size = 4")
            c.execute("BEGIN IMMEDIATE")
            c.execute("UPDATE ZTASK SET ZTITLE = 'HALF-DONE', ZISCOMPLETED = 1")
            c.execute("DELETE FROM ZSUBTASK")
            shutil.copy(sys.argv[1], sys.argv[2])
            shutil.copy(sys.argv[1] + "-journal", sys.argv[2] + "-journal")
            os._exit(9)
            """
        let crashed = scratch.path("crashed.sqlite")
        let process = try Self.startPython(["-c", script, source, crashed], ready: nil)
        process.waitUntilExit()
        try #require(FileManager.default.fileExists(atPath: crashed + "-journal"))
        let directory = scratch.url.appendingPathComponent("hot")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for suffix in ["", "-journal"] {
            try FileManager.default.moveItem(
                atPath: crashed + suffix, toPath: directory.appendingPathComponent("store.sqlite" + suffix).path)
        }
        let store = directory.appendingPathComponent("store.sqlite").path
        let before = try directorySnapshot(directory)
        for strict in [false, true] {
            let run = try Self.run(["export", "--store", store, "--ndjson"] + (strict ? ["--strict"] : []))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stdout.contains("HALF-DONE"))
            #expect(try Self.completion(run.stdout) == Self.completion(committed.stdout))
            #expect(
                run.stdout.components(separatedBy: #""subtasks":[{"#).count
                    == committed.stdout.components(separatedBy: #""subtasks":[{"#).count)
            #expect(run.stderr.contains("hot-journal"), "\(run.stderr)")
        }
        let inspect = try Self.run(["inspect", "--store", store])
        #expect(inspect.status == 0 && inspect.stdout.contains("hot-journal"), "\(inspect.stdout)")
        #expect(try directorySnapshot(directory) == before, "the store's files changed or a file appeared")
    }

    @Test(
        "two and three imports into one store at once behave as if run one after the other",
        arguments: ImportMode.allCases)
    func concurrentImports(mode: ImportMode) throws {
        let scratch = try Scratch()
        let first = scratch.path("first.sqlite")
        let second = scratch.path("second.sqlite")
        try Self.generate(first, tasks: 2_000, seed: 1)
        try Self.generate(second, tasks: 2_000, seed: 2)
        let archive = scratch.path("first.json")
        let base = scratch.path("second.json")
        #expect(try Self.run(["export", "--store", first, "-o", archive]).status == 0)
        #expect(try Self.run(["export", "--store", second, "-o", base]).status == 0)
        for racers in [2, 3] {
            let target = scratch.path("target-\(mode.rawValue)-\(racers).sqlite")
            #expect(try Self.run(["import", "--store", target, base]).status == 0)
            let results = Results(count: racers)
            DispatchQueue.concurrentPerform(iterations: racers) { index in
                let run = try? Self.run(["import", "--store", target, "--mode", mode.rawValue, archive])
                results.set(index, run)
            }
            let runs = results.all
            let statuses = runs.map(\.status).sorted()
            let database = try Database(path: target, mode: .readWrite)
            let tasks = try database.scalar("SELECT count(*) FROM ZTASK")?.int64 ?? -1
            let distinct = try database.scalar("SELECT count(DISTINCT ZID) FROM ZTASK")?.int64 ?? -1
            let subtasks = try database.scalar("SELECT count(*) - count(DISTINCT ZID) FROM ZSUBTASK")?.int64 ?? -1
            let maxOK = try database.scalar(
                "SELECT min(p.Z_MAX >= (SELECT coalesce(max(Z_PK), 0) FROM ZTASK)) FROM Z_PRIMARYKEY p WHERE p.Z_NAME = 'Task'"
            )?.int64
            #expect(tasks == distinct && subtasks == 0, "\(mode) × \(racers): \(tasks) tasks, \(distinct) distinct ids")
            #expect(maxOK == 1)
            #expect(try database.scalar("PRAGMA integrity_check")?.string == "ok")
            switch mode {
            case .insert:
                // One wins; the others find its ids already there, inside their own write transaction.
                #expect(statuses == [0] + Array(repeating: 65, count: racers - 1), "\(runs.map(\.stderr))")
                #expect(runs.filter { $0.status == 65 }.allSatisfy { $0.stderr.contains("id-exists-in-store") })
                #expect(tasks == 4_000)
            case .upsert, .skip, .merge:
                #expect(statuses == Array(repeating: 0, count: racers), "\(runs.map(\.stderr))")
                #expect(tasks == 4_000)
            case .replace:
                #expect(statuses == Array(repeating: 0, count: racers), "\(runs.map(\.stderr))")
                #expect(tasks == 2_000)
            }
        }
    }

    /// Thread-safe slots for concurrent runs.
    final class Results: @unchecked Sendable {
        private var runs: [TasksBinary.Run?]
        private let lock = NSLock()
        init(count: Int) { runs = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ run: TasksBinary.Run?) { lock.withLock { runs[index] = run } }
        var all: [TasksBinary.Run] { lock.withLock { runs.compactMap { $0 } } }
    }
}
