import Foundation
import Testing
import TaskInterchange

@Suite("Concurrency", .serialized)
struct ConcurrencyTests {
    @Test(
        "another process holding BEGIN IMMEDIATE in sqlite3: import waits its busy timeout, exits 75, writes nothing",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"))
    func sqliteHoldsTheLock() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let before = contentLines(try TasksBinary.run(["export", "--store", store]).stdout)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [store]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
        // Wait until sqlite3 has the lock.
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self).contains("locked"))
        let started = Date()
        let run = try TasksBinary.run([
            "import", "--store", store, "--mode", "upsert", "--busy-timeout", "500", scratch.path("a.json"),
        ])
        let waited = Date().timeIntervalSince(started)
        #expect(run.status == 75)
        #expect(run.stderr.hasPrefix("Error: \(store): the store is locked by another process"))
        #expect(waited >= 0.5)
        input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
        holder.waitUntilExit()
        // sqlite3 itself checkpoints the WAL when it quits, so the files change; the content must not.
        #expect(contentLines(try TasksBinary.run(["export", "--store", store]).stdout) == before)
    }

    @Test("a reader open during an import sees the store either before or after it, never in between")
    func readerSeesBeforeOrAfter() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        #expect(try TasksBinary.run(["generate", "--tasks", "20000", "-o", scratch.path("g.sqlite")]).status == 0)
        #expect(
            try TasksBinary.run(["export", "--store", scratch.path("g.sqlite"), "-o", scratch.path("g.json")]).status
                == 0)
        let reader = try Database(path: store, mode: .readOnly(immutable: false))
        let countBefore = try reader.scalar("SELECT count(*) FROM ZTASK")?.int64 ?? -1
        let process = Process()
        process.executableURL = TasksBinary.url
        process.arguments = ["import", "--store", store, scratch.path("g.json")]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var observed: Set<Int64> = []
        while process.isRunning {
            if let count = try? reader.scalar("SELECT count(*) FROM ZTASK")?.int64 { observed.insert(count) }
            usleep(5_000)
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        observed.insert(try reader.scalar("SELECT count(*) FROM ZTASK")?.int64 ?? -1)
        #expect(observed.isSubset(of: [countBefore, countBefore + 20_000]), "observed \(observed.sorted())")
        #expect(observed.contains(countBefore + 20_000))
    }
}
