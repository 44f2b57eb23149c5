import Foundation
import TestTiers
import Testing
import TaskInterchange

/// SIGKILL at random points during import and export: the target is never left half-written.
///
/// 3 kills per target in a 10k-task store by default; 20 in a 100k-task one in the slow tier (`TASKS_SLOW=1`), and
/// `TASKS_KILL_COUNT=50` (or more) for a longer run. The kill points are drawn from a seeded generator
/// (`TASKS_KILL_SEED`), printed on failure.
@Suite("Crash safety", .serialized, .tags(.slow))
struct CrashSafetyTests {
    static let kills = Int(ProcessInfo.processInfo.environment["TASKS_KILL_COUNT"] ?? "") ?? Tiers.count(3, slow: 20)
    static let seed =
        UInt64(ProcessInfo.processInfo.environment["TASKS_KILL_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
    static let taskCount = Tiers.count(10_000, slow: 100_000)

    /// The generated store, its archive, and how long an export of it takes here.
    struct Fixture {
        let scratch: Scratch
        let archive: String
        let exportSeconds: Double
        let store: String

        init() throws {
            scratch = try Scratch()
            store = scratch.path("big.sqlite")
            try CrashSafetyTests.check(["generate", "--tasks", String(CrashSafetyTests.taskCount), "-o", store])
            archive = scratch.path("big.json")
            exportSeconds = try CrashSafetyTests.timed(["export", "--store", store, "-o", archive])
        }
    }

    static func check(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = TasksBinary.url
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TaskInterchangeError(
                .internal, "tasks \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }

    /// Runs `tasks` to completion and returns how long it took: the range kill points are drawn from.
    /// The first timed run can be slower than later ones (cold caches, a busy machine), so a run that finishes
    /// before its kill narrows the window the kill times are drawn from; the round limit bounds the test's length.
    static let windowShrink = 0.8
    static let roundsPerKill = 5

    static func timed(_ arguments: [String]) throws -> Double {
        let started = Date()
        try check(arguments)
        return Date().timeIntervalSince(started)
    }

    /// Starts `tasks` and SIGKILLs it after `delay` seconds; returns true when it was killed (false when it finished).
    static func runAndKill(_ arguments: [String], after delay: Double) throws -> Bool {
        let process = Process()
        process.executableURL = TasksBinary.url
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(delay)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        guard process.isRunning else { return false }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    /// Rows per table, `PRAGMA integrity_check`, and whether every root entity's `Z_MAX` covers its keys.
    struct State: Equatable {
        var counts: [String: Int64]
        var integrity: String
        var maxKeysConsistent: Bool

        init(_ path: String) throws {
            // Opened read-write, as the app would: a hot journal or WAL left by the killed process is recovered.
            let database = try Database(path: path, mode: .readWrite)
            integrity = try database.scalar("PRAGMA integrity_check")?.string ?? "?"
            counts = [:]
            for table in ["ZPROJECT", "ZCATEGORY", "ZTAG", "ZTASK", "ZSUBTASK", "Z_4TASKS"] {
                counts[table] = try database.scalar("SELECT count(*) FROM \(table)")?.int64
            }
            maxKeysConsistent = true
            for row in try database.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY") {
                let table = "Z" + (row[0].string ?? "").uppercased()
                let largest = try database.scalar("SELECT coalesce(max(Z_PK), 0) FROM \(table)")?.int64 ?? 0
                if (row[1].int64 ?? 0) < largest { maxKeysConsistent = false }
            }
        }
    }

    @Test("SIGKILL during an import into a new path: no store, or the complete one")
    func killImportIntoNewPath() throws {
        let fixture = try Fixture()
        srand48(Int(truncatingIfNeeded: Self.seed))
        var window = try Self.timed(["import", "--store", fixture.scratch.path("timed.sqlite"), fixture.archive]) * 1.1
        let complete = try State(fixture.scratch.path("timed.sqlite"))
        var killed = 0, finished = 0, round = 0
        while killed < Self.kills && round < Self.kills * Self.roundsPerKill {
            round += 1
            let target = fixture.scratch.path("new-\(round).sqlite")
            if try Self.runAndKill(["import", "--store", target, fixture.archive], after: drand48() * window) {
                killed += 1
            } else {
                finished += 1
                window *= Self.windowShrink
            }
            if FileManager.default.fileExists(atPath: target) {
                let state = try State(target)
                #expect(
                    state == complete,
                    "seed \(Self.seed), round \(round): a store appeared at the path but is not the complete import")
            }
            try? FileManager.default.removeItem(atPath: target)
        }
        print(
            "crash safety: import into a new path: \(killed) kills, \(finished) finished before the kill; never a partial store (seed \(Self.seed))"
        )
        #expect(killed >= Self.kills)
    }

    @Test("SIGKILL during an import into a populated store: unchanged, or completely imported")
    func killImportIntoExistingStore() throws {
        let fixture = try Fixture()
        srand48(Int(truncatingIfNeeded: Self.seed &+ 1))
        let pristine = try fixture.scratch.sampleStore()
        let before = try State(pristine)
        let beforeExport = try exportLines(pristine)
        // The complete result, once, for comparison.
        let reference = fixture.scratch.path("reference.sqlite")
        try copyStore(pristine, to: reference)
        var window = try Self.timed(["import", "--store", reference, fixture.archive]) * 1.1
        let complete = try State(reference)
        #expect(complete.counts["ZTASK"] == before.counts["ZTASK"]! + Int64(Self.taskCount))
        var killed = 0, unchanged = 0, imported = 0, round = 0
        while killed < Self.kills && round < Self.kills * Self.roundsPerKill {
            round += 1
            let target = fixture.scratch.path("target-\(round).sqlite")
            try copyStore(pristine, to: target)
            if try Self.runAndKill(["import", "--store", target, fixture.archive], after: drand48() * window) {
                killed += 1
            } else {
                window *= Self.windowShrink
            }
            let state = try State(target)
            #expect(state.integrity == "ok", "seed \(Self.seed), round \(round)")
            #expect(state.maxKeysConsistent, "seed \(Self.seed), round \(round)")
            if state == before {
                #expect(try exportLines(target) == beforeExport, "seed \(Self.seed), round \(round)")
                unchanged += 1
            } else {
                #expect(
                    state == complete,
                    "seed \(Self.seed), round \(round): neither unchanged nor complete: \(state.counts)")
                imported += 1
            }
        }
        print(
            "crash safety: import into a populated store: \(killed) kills; \(unchanged) left unchanged, \(imported) complete, 0 partial (seed \(Self.seed))"
        )
        #expect(killed >= Self.kills)
    }

    @Test("SIGKILL during an export: no output file, or a complete one that validates")
    func killExport() throws {
        let fixture = try Fixture()
        srand48(Int(truncatingIfNeeded: Self.seed &+ 2))
        var killed = 0, absent = 0, complete = 0, round = 0
        var window = fixture.exportSeconds * 1.1
        while killed < Self.kills && round < Self.kills * Self.roundsPerKill {
            round += 1
            let output = fixture.scratch.path("out-\(round).json")
            if try Self.runAndKill(["export", "--store", fixture.store, "-o", output], after: drand48() * window) {
                killed += 1
            } else {
                window *= Self.windowShrink
            }
            if FileManager.default.fileExists(atPath: output) {
                let validate = try TasksBinary.runProcess(TasksBinary.url, ["validate", output], stdin: nil, in: nil)
                #expect(validate.status == 0, "seed \(Self.seed), round \(round): \(validate.stderr)")
                complete += 1
                try FileManager.default.removeItem(atPath: output)
            } else {
                absent += 1
            }
        }
        print(
            "crash safety: export: \(killed) kills; \(absent) no file, \(complete) complete and valid, 0 truncated (seed \(Self.seed))"
        )
        #expect(killed >= Self.kills)
    }

    func copyStore(_ source: String, to target: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try? FileManager.default.removeItem(atPath: target + suffix)
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
        }
    }

    func exportLines(_ store: String) throws -> [String] {
        let buffer = ByteBuffer()
        var options = ExportOptions()
        options.exportDate = Date(timeIntervalSinceReferenceDate: 0)
        options.sourceName = "store"
        _ = try Exporter.export(store: store, to: buffer, options: options)
        return contentLines(buffer.string)
    }
}
