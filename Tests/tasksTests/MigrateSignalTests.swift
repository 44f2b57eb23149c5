import Foundation
import TestTiers
import Testing

/// SIGINT, SIGTERM and SIGHUP at random points of `tasks migrate`: an interrupted run exits 128 + n and leaves no new
/// store, no temporary file and at most one complete backup; a run that finished first exits 0 with the new store.
@Suite("tasks migrate under signals", .serialized, .tags(.slow))
struct MigrateSignalTests {
    @Test("signals at random points of a migration (10k tasks; 50k in the slow tier): nothing half-done is left")
    func interrupted() throws {
        let fixture = try SignalTests.Fixture()
        srand48(Int(truncatingIfNeeded: SignalTests.seed &+ 11))
        let target = fixture.scratch.path("new.sqlite")
        let backups = fixture.scratch.path("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
        let arguments = ["migrate", "--from", fixture.store, "--to", target, "--backup", backups]
        var duration = try fixture.duration(arguments)
        let names = {
            try Set(FileManager.default.contentsOfDirectory(atPath: fixture.scratch.url.path))
                .filter { !$0.hasPrefix("stderr-") }
        }
        func reset() throws {
            for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
            for name in try FileManager.default.contentsOfDirectory(atPath: backups) {
                try FileManager.default.removeItem(atPath: backups + "/" + name)
            }
        }
        try reset()
        let before = try names()
        let temporaryBefore = try directorySnapshot(fixture.temporary)
        var stopped = 0
        for attempt in 0..<SignalTests.count {
            let signal = SignalTests.signals[attempt % SignalTests.signals.count]
            let delay = drand48() * duration
            let label = "migrate signal \(signal) after \(String(format: "%.3f", delay)) s (seed \(SignalTests.seed))"
            let outcome = try SignalTests.run(arguments, temporary: fixture.temporary, signal: signal, after: delay)
            let wasStopped = SignalTests.check(outcome, signal: signal, label: label)
            if wasStopped { stopped += 1 }
            // As in SignalTests: a run that ends before its signal narrows the points to how long one takes now.
            if !wasStopped { duration = min(duration, outcome.seconds) }
            #expect(try names() == (wasStopped ? before : before.union(["new.sqlite"])), "\(label)")
            #expect(
                try directorySnapshot(fixture.temporary) == temporaryBefore,
                "\(label): the temporary directory kept files")
            let kept = try FileManager.default.contentsOfDirectory(atPath: backups)
            #expect(
                kept.count <= 1 && kept.allSatisfy { $0.hasPrefix("source-backup-") && $0.hasSuffix(".sqlite") },
                "\(label): \(kept)")
            try reset()
        }
        #expect(stopped >= SignalTests.count / 3, "only \(stopped) of \(SignalTests.count) runs were interrupted")
    }
}
