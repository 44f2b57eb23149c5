import Foundation
import TestTiers
import Testing
import TaskInterchange

/// SIGINT, SIGTERM and SIGHUP at random points of export and import: the run rolls back, removes its temporary
/// files and private copies, and exits 128 + the signal; a run that finished first exits 0 with complete results.
///
/// The points are drawn from a seeded generator (`TASKS_SIGNAL_SEED`, printed on failure) over the time a full run
/// takes here; `TASKS_SIGNAL_COUNT` runs per operation (one per signal by default, three per signal in the slow tier).
@Suite("Signals", .serialized, .tags(.slow))
struct SignalTests {
    static let count = Int(ProcessInfo.processInfo.environment["TASKS_SIGNAL_COUNT"] ?? "") ?? Tiers.count(3, slow: 9)
    static let seed =
        UInt64(ProcessInfo.processInfo.environment["TASKS_SIGNAL_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    struct Outcome {
        var exitStatus: Int32?
        var signal: Int32?
        var stderr: String
        /// How long the process ran.
        var seconds: Double
    }

    /// Starts `tasks` with a private temporary directory, sends `signal` after `delay` seconds (unless it finished).
    static func run(_ arguments: [String], temporary: URL, signal: Int32?, after delay: Double) throws -> Outcome {
        let process = Process()
        process.executableURL = TasksBinary.url
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        process.environment = environment
        let errors = temporary.deletingLastPathComponent().appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        let started = Date()
        try process.run()
        if let signal {
            let deadline = Date().addingTimeInterval(delay)
            while process.isRunning && Date() < deadline { usleep(1_000) }
            if process.isRunning { kill(process.processIdentifier, signal) }
        }
        // A run that ignores the signal must fail the test, not hang the suite: it is killed (and shows as SIGKILL).
        let limit = Date().addingTimeInterval(signal == nil ? 300 : 30)
        while process.isRunning && Date() < limit { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        let stderr = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        return process.terminationReason == .exit
            ? Outcome(exitStatus: process.terminationStatus, signal: nil, stderr: stderr, seconds: seconds)
            : Outcome(exitStatus: nil, signal: process.terminationStatus, stderr: stderr, seconds: seconds)
    }

    struct Fixture {
        let scratch: Scratch
        let store: String
        let archive: String
        let temporary: URL

        init() throws {
            scratch = try Scratch()
            store = scratch.path("source.sqlite")
            try LiveStoreTests.generate(store, tasks: Tiers.count(10_000, slow: 50_000))
            archive = scratch.path("archive.json")
            #expect(try LiveStoreTests.run(["export", "--store", store, "-o", archive]).status == 0)
            temporary = scratch.url.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        }

        /// How long a full run takes here: the range signal points are drawn from.
        func duration(_ arguments: [String]) throws -> Double {
            let started = Date()
            let outcome = try SignalTests.run(arguments, temporary: temporary, signal: nil, after: 0)
            #expect(outcome.exitStatus == 0, "\(outcome.stderr)")
            return Date().timeIntervalSince(started)
        }
    }

    /// Changes every task's title in the store, so that an upsert of the archive has every task to write back.
    static func touch(_ path: String) throws {
        try Database(path: path, mode: .readWrite).execute("UPDATE ZTASK SET ZTITLE = ZTITLE || ' (edited)'")
    }

    /// The task count and the sum of versions: an upsert that committed changes the sum; one rolled back does not.
    static func state(_ path: String) throws -> [Int64] {
        let database = try Database(path: path, mode: .readWrite)
        return try [
            database.scalar("SELECT count(*) FROM ZTASK")?.int64 ?? -1,
            database.scalar("SELECT total(Z_OPT) FROM ZTASK")?.double.map { Int64($0) } ?? -1,
        ]
    }

    /// Checks one interrupted (or finished) run; returns true when the signal stopped it.
    static func check(_ outcome: Outcome, signal: Int32, label: String) -> Bool {
        if let status = outcome.exitStatus {
            #expect(status == 0 || status == 128 + signal, "\(label): exit \(status): \(outcome.stderr)")
            if status == 128 + signal {
                #expect(
                    outcome.stderr.contains("interrupted by") && outcome.stderr.contains("rolled back"),
                    "\(label): \(outcome.stderr)")
            }
            return status != 0
        }
        // Before the handlers are installed the signal's default action ends the process; nothing was begun yet.
        #expect(outcome.signal == signal, "\(label): ended by signal \(outcome.signal ?? -1): \(outcome.stderr)")
        return true
    }

    @Test(
        "export -o, import into a new store, upsert into an existing one: interrupted runs leave nothing and exit 128+n"
    )
    func interrupted() throws {
        let fixture = try Fixture()
        srand48(Int(truncatingIfNeeded: Self.seed &+ 7))
        let output = fixture.scratch.path("out.json")
        let newStore = fixture.scratch.path("new.sqlite")
        let existing = fixture.scratch.path("existing.sqlite")
        #expect(try LiveStoreTests.run(["import", "--store", existing, fixture.archive]).status == 0)
        let exportArguments = ["export", "--store", fixture.store, "-o", output]
        let importArguments = ["import", "--store", newStore, fixture.archive]
        let upsertArguments = ["import", "--store", existing, "--mode", "upsert", fixture.archive]
        try Self.touch(existing)
        var durations = [
            try fixture.duration(exportArguments), try fixture.duration(importArguments),
            try fixture.duration(upsertArguments),
        ]
        try FileManager.default.removeItem(atPath: output)
        for suffix in ["", "-wal", "-shm"] { unlink(newStore + suffix) }
        var stopped = 0
        for (operation, arguments) in [exportArguments, importArguments, upsertArguments].enumerated() {
            for attempt in 0..<Self.count {
                let signal = Self.signals[attempt % Self.signals.count]
                let delay = drand48() * durations[operation]
                let label =
                    "\(arguments[0]) #\(operation) signal \(signal) after \(String(format: "%.3f", delay)) s (seed \(Self.seed))"
                if operation == 2 { try Self.touch(existing) }
                let before = try directorySnapshot(fixture.scratch.url.appendingPathComponent("tmp"))
                let stateBefore = try Self.state(existing)
                let names = try Set(FileManager.default.contentsOfDirectory(atPath: fixture.scratch.url.path))
                let outcome = try Self.run(arguments, temporary: fixture.temporary, signal: signal, after: delay)
                let wasStopped = Self.check(outcome, signal: signal, label: label)
                if wasStopped { stopped += 1 }
                // A run that ends before its signal shows how long one takes now; the timed run may have been slower
                // (a busy machine), and points past the end interrupt nothing.
                if !wasStopped { durations[operation] = min(durations[operation], outcome.seconds) }
                #expect(
                    try directorySnapshot(fixture.temporary) == before, "\(label): the temporary directory kept files")
                let after = try Set(FileManager.default.contentsOfDirectory(atPath: fixture.scratch.url.path))
                    .subtracting(["existing.sqlite-wal", "existing.sqlite-shm"]).filter { !$0.hasPrefix("stderr-") }
                let expected = names.subtracting(["existing.sqlite-wal", "existing.sqlite-shm"])
                switch operation {
                case 0:
                    #expect(
                        after == (wasStopped ? expected : expected.union(["out.json"])),
                        "\(label): \(after.subtracting(expected))")
                    if !wasStopped { try FileManager.default.removeItem(atPath: output) }
                case 1:
                    #expect(
                        after == (wasStopped ? expected : expected.union(["new.sqlite"])),
                        "\(label): \(after.subtracting(expected))")
                    for suffix in ["", "-wal", "-shm"] { unlink(newStore + suffix) }
                default:
                    #expect(after == expected, "\(label): \(after.subtracting(expected))")
                    let stateAfter = try Self.state(existing)
                    #expect(stateAfter[0] == stateBefore[0], "\(label)")
                    if wasStopped {
                        #expect(stateAfter == stateBefore, "\(label): an interrupted upsert changed the store")
                    } else {
                        #expect(stateAfter[1] > stateBefore[1], "\(label): a finished upsert did not write")
                    }
                }
            }
        }
        // The draw must actually interrupt runs, not only let them finish.
        #expect(stopped >= Self.count, "only \(stopped) of \(3 * Self.count) runs were interrupted (seed \(Self.seed))")
    }

    @Test("SIGTERM while export waits for a FIFO's reader: exit 143, the FIFO stays")
    func fifoWithoutReader() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let fifo = scratch.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let outcome = try Self.run(
            ["export", "--store", store, "-o", fifo], temporary: scratch.url, signal: SIGTERM, after: 0.3)
        #expect(outcome.exitStatus == 143, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("interrupted by SIGTERM"), "\(outcome.stderr)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("SIGTERM while export writes to a FIFO whose reader has stalled: exit 143, not blocked again")
    func stalledReader() throws {
        let scratch = try Scratch()
        let store = scratch.path("big.sqlite")
        #expect(try TasksBinary.run(["generate", "--tasks", "20000", "-o", store]).status == 0)
        let fifo = scratch.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that opens the FIFO and never reads: the export fills the pipe and blocks in write(2); the signal
        // then lands after part of a write went through, which returns short rather than failing with EINTR.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let outcome = try Self.run(
            ["export", "--store", store, "-o", fifo], temporary: scratch.url, signal: SIGTERM, after: 1.0)
        #expect(outcome.exitStatus == 143, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("interrupted by SIGTERM"), "\(outcome.stderr)")
    }

    @Test("Ctrl-C while import waits on a stalled pipe: exit 130 at once, nothing created")
    func stalledInput() throws {
        let scratch = try Scratch()
        let target = scratch.path("new.sqlite")
        let process = Process()
        process.executableURL = TasksBinary.url
        process.arguments = ["import", "--store", target]
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        pipe.fileHandleForWriting.write(Data(#"{"format":"tasks-interchange","version":2,"#.utf8))
        usleep(300_000)
        let sent = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 5)
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }
}
