import Foundation
import Testing

/// `tasks migrate` writes no intermediate file: the export of the backup streams into the import, and the backup is
/// read where it is.
@Suite("tasks migrate: no intermediate file")
struct MigrateStreamTests {
    /// Lists a directory tree over and over on a thread of its own, keeping every path it saw.
    final class Watcher: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: Set<String> = []
        private var running = true
        private var finished = false
        private let root: String

        init(_ root: String) {
            self.root = root
            Thread.detachNewThread { [self] in
                while lock.withLock({ running }) {
                    let found = Self.tree(root)
                    lock.withLock { seen.formUnion(found) }
                    usleep(1_000)
                }
                lock.withLock { finished = true }
            }
        }

        /// Stops watching (after one last look) and returns the relative paths seen.
        func stop() -> Set<String> {
            lock.withLock { running = false }
            while !lock.withLock({ finished }) { usleep(1_000) }
            return lock.withLock { seen.union(Self.tree(root)) }
        }

        static func tree(_ root: String) -> Set<String> {
            var paths: Set<String> = []
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
                paths.insert(entry)
                for inner in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + entry)) ?? [] {
                    paths.insert(entry + "/" + inner)
                }
            }
            return paths
        }
    }

    @Test("while a migration runs its private directory holds nothing but its lock: no archive file, no store copy")
    func noIntermediateFile() throws {
        let scratch = try Scratch()
        let store = scratch.path("big.sqlite")
        let generated = try TasksBinary.run(["generate", "--tasks", "20000", "-o", store])
        #expect(generated.status == 0, "\(generated.stderr)")
        let temporary = scratch.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let watcher = Watcher(temporary)
        let run = try TasksBinary.runProcess(
            TasksBinary.url,
            ["migrate", "--from", store, "--to", scratch.path("new.sqlite"), "--backup", scratch.path("backups")],
            stdin: nil, in: nil, environment: ["TMPDIR": temporary])
        let seen = watcher.stop()
        #expect(run.status == 0, "\(run.stderr)")
        // The watcher saw the migration's private directory, so it was looking while the migration ran.
        #expect(seen.contains { $0.hasPrefix("tasks-export-") }, "\(seen.sorted())")
        let exportFiles = seen.filter { $0.hasPrefix("tasks-export-") && $0.contains("/") }
            .map { String($0.split(separator: "/").last!) }
        #expect(Set(exportFiles).isSubset(of: ["lock", "lock-pending"]), "\(exportFiles)")
        #expect(!seen.contains { $0.hasSuffix(".json") }, "\(seen.sorted())")
        // The only store copy is the verification's snapshot of the new store; the backup is read in place.
        let snapshots = seen.filter { $0.hasPrefix("tasks-snapshot-") && $0.hasSuffix("/store.sqlite") }
        #expect(snapshots.count <= 1, "\(seen.sorted())")
        #expect(Watcher.tree(temporary).isEmpty, "left behind: \(Watcher.tree(temporary).sorted())")
    }
}
