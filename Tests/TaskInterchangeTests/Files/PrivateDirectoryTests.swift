import Foundation
import TestTiers
import Testing
@testable import TaskInterchange

@Suite("Private directories", .tags(.slow))
struct PrivateDirectoryTests {
    /// Sets a flag from the sweeping thread to stop it.
    final class Stop: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        var isStopped: Bool { lock.withLock { stopped } }
        func stop() { lock.withLock { stopped = true } }
    }

    @Test("a directory being created is never swept by another run: its lock is held before the sweep can see it")
    func creationRacesSweep() throws {
        let base = FileManager.default.temporaryDirectory.path
        let stop = Stop()
        let sweeper = Thread {
            while !stop.isStopped { PrivateDirectory.sweep(in: base) }
        }
        sweeper.start()
        defer { stop.stop() }
        var lost = 0
        let attempts = Tiers.count(400, slow: 2_000)
        for _ in 0..<attempts {
            let directory = try PrivateDirectory(purpose: .snapshot)
            if !FileManager.default.fileExists(atPath: directory.file("lock")) { lost += 1 }
        }
        #expect(lost == 0, "\(lost) of \(attempts) directories were swept while their run was alive")
    }
}
