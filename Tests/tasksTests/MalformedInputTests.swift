import Foundation
import Testing

/// The built binary run with a watchdog, and optionally under `/usr/bin/time` for its peak memory.
enum GuardedRun {
    struct Result {
        var status: Int32
        /// True when the process ended by a signal (a crash), not by `exit`.
        var signaled: Bool
        /// True when the watchdog killed it.
        var timedOut: Bool
        var stdout: String
        var stderr: String
        var seconds: Double
        /// Peak resident set size in bytes, when measured.
        var peakRSS: Int?
    }

    /// `/usr/bin/time` when it is installed (nothing is installed for the tests).
    static let timeTool: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

    /// Runs `tasks arguments`; kills it after `timeout` seconds. `prefix` runs it through another command (such as
    /// `setpriv` to drop root).
    static func run(
        _ arguments: [String], stdin: String? = nil, timeout: Double = 20, measureMemory: Bool = false,
        prefix: [String] = []
    ) throws -> Result {
        let process = Process()
        let unique = UUID().uuidString
        let temporary = FileManager.default.temporaryDirectory
        let output = temporary.appendingPathComponent("guarded-out-\(unique)")
        let errors = temporary.appendingPathComponent("guarded-err-\(unique)")
        let memory = temporary.appendingPathComponent("guarded-rss-\(unique)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer {
            for url in [output, errors, memory] { try? FileManager.default.removeItem(at: url) }
        }
        if measureMemory, let timeTool {
            process.executableURL = URL(fileURLWithPath: timeTool)
            process.arguments = ["-f", "%M", "-o", memory.path, TasksBinary.url.path] + arguments
        } else if let command = prefix.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = Array(prefix.dropFirst()) + [TasksBinary.url.path] + arguments
        } else {
            process.executableURL = TasksBinary.url
            process.arguments = arguments
        }
        let outputHandle = try FileHandle(forWritingTo: output)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        if let stdin {
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdin))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        let started = Date()
        try process.run()
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        let seconds = Date().timeIntervalSince(started)
        var status = process.terminationStatus
        var signaled = process.terminationReason == .uncaughtSignal
        var peak: Int?
        if measureMemory, timeTool != nil, let text = try? String(contentsOf: memory, encoding: .utf8) {
            // GNU time: "Command terminated by signal N" (then exits 128 + N) before the figure, in kilobytes.
            if text.contains("terminated by signal") { signaled = true }
            peak = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map {
                $0 * 1024
            }
            if status >= 128 { signaled = true }
            if signaled && status < 128 { status += 128 }
        }
        return Result(
            status: status, signaled: signaled, timedOut: timedOut,
            stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self),
            seconds: seconds, peakRSS: peak)
    }

    /// What is wrong with a run that should have ended cleanly: a crash, a hang, an internal error; nil when fine.
    static func crashProblem(_ run: Result) -> String? {
        if run.timedOut { return "still running after the time limit; killed" }
        if run.signaled { return "killed by signal \(run.status)" }
        if run.status >= 128 { return "exit \(run.status) (a signal)" }
        if run.status == 70 { return "exit 70 (internal error)" }
        for marker in [
            "Fatal error", "Backtrace", "Illegal instruction", "Segmentation fault", "internal error",
            "AddressSanitizer",
        ] where run.stderr.contains(marker) {
            return "stderr contains \"\(marker)\""
        }
        return nil
    }

    /// True when stderr names a location: an issue line `error: $.tasks[3].title (36:54): …`, a JSON path, or a
    /// `line:column`.
    static func hasLocation(_ stderr: String) -> Bool {
        stderr.contains(#/(error|warning): \$[^ ]*( \(\d+:\d+\))?: [a-z-]+: /#)
    }
}

/// Every file (and what it is, stored beside the store) in a directory, to prove a command changed nothing.
func directorySnapshot(_ directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
        files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
    }
    return files
}

/// Every file in `directory` with its bytes, except that of SQLite's shared-memory index only its presence counts:
/// a connection touches it as any SQLite reader does.
func storeFiles(_ directory: URL) throws -> [String: Data] {
    var files = try directorySnapshot(directory)
    for name in files.keys where name.hasSuffix("-shm") { files[name] = Data() }
    return files
}

/// `Tests/tasksTests/Fixtures/malformed/` and its manifest, written by `scripts/make-malformed`.
enum MalformedCorpus {
    struct Case: Sendable {
        var file: String
        var exitCode: Int32
        /// The issue code stderr must contain ("-" for none).
        var code: String
        /// Another substring stderr must contain: usually the JSON path, sometimes `(line:column)`.
        var contains: String
    }

    static let directory = TasksBinary.repository.appendingPathComponent("Tests/tasksTests/Fixtures/malformed")
    static let crashesDirectory = TasksBinary.repository.appendingPathComponent(
        "Tests/tasksTests/Fixtures/fuzz-crashes")

    static func cases() throws -> [Case] {
        let text = try String(contentsOf: directory.appendingPathComponent("EXPECTED.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Case(file: fields[0], exitCode: Int32(fields[1]) ?? -1, code: fields[2], contains: fields[3])
        }
    }

    /// Runs `validate FILE` and `import --store <copy of the sample store> FILE`; returns every problem found.
    static func check(
        file path: String, expectedExit: Set<Int32>, code: String?, contains: String?,
        label: String, measureMemory: Bool = false, memoryBound: Int? = nil
    ) throws
        -> (problems: [String], slowest: Double, peakRSS: Int?)
    {
        var problems: [String] = []
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let before = try storeFiles(scratch.url)
        var slowest = 0.0
        var peak: Int?
        // `--mode upsert`: the sample store already holds the corpus's ids, and in the default insert mode their
        // id-exists-in-store errors would fill the 100 listed issues before the one that matters here.
        let accepted = expectedExit == [0]
        let importArguments =
            ["import", "--store", store, "--mode", "upsert"] + (accepted ? ["--dry-run"] : []) + [path]
        for arguments in [["validate", path], importArguments] {
            // A tolerated file imports (as a dry run); only `validate` shows its warnings.
            let checksText = !(accepted && arguments[0] == "import")
            let command = "tasks \(arguments[0]) \(label)"
            let run = try GuardedRun.run(arguments, measureMemory: measureMemory)
            slowest = max(slowest, run.seconds)
            if let problem = GuardedRun.crashProblem(run) {
                problems.append("\(command): \(problem); stderr: \(run.stderr.prefix(400))")
                continue
            }
            if !expectedExit.contains(run.status) {
                problems.append(
                    "\(command): exit \(run.status), expected \(expectedExit.sorted()); stderr: \(run.stderr.prefix(400))"
                )
            }
            if checksText, let code, code != "-", !run.stderr.contains(code) {
                problems.append("\(command): stderr lacks the issue code \(code): \(run.stderr.prefix(400))")
            }
            if checksText, let contains, !run.stderr.contains(contains) {
                problems.append("\(command): stderr lacks \"\(contains)\": \(run.stderr.prefix(400))")
            }
            if run.status == 65 && !GuardedRun.hasLocation(run.stderr) {
                problems.append("\(command): no location ($… path or line:column) in stderr: \(run.stderr.prefix(400))")
            }
            if let rss = run.peakRSS {
                peak = max(peak ?? 0, rss)
                if let memoryBound, rss > memoryBound {
                    problems.append("\(command): peak RSS \(rss / 1_048_576) MB exceeds \(memoryBound / 1_048_576) MB")
                }
            }
        }
        if try storeFiles(scratch.url) != before {
            problems.append("\(label): the target store's files changed (or a file appeared beside them)")
        }
        return (problems, slowest, peak)
    }
}

@Suite("Malformed input")
struct MalformedInputTests {
    @Test("the corpus has at least 60 files, each listed in EXPECTED.tsv with an exit code, and nothing else")
    func corpusIsComplete() throws {
        let cases = try MalformedCorpus.cases()
        let files = try FileManager.default.contentsOfDirectory(atPath: MalformedCorpus.directory.path)
            .filter { $0 != "EXPECTED.tsv" }
        #expect(Set(cases.map(\.file)) == Set(files))
        #expect(cases.count == Set(cases.map(\.file)).count)
        #expect(cases.count >= 60)
        #expect(cases.allSatisfy { [0, 65].contains($0.exitCode) && !$0.contains.isEmpty })
    }

    @Test("scripts/make-malformed reproduces the committed corpus byte for byte")
    func generatorIsDeterministic() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            print("skipped: python3 is not installed")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TasksBinary.repository.appendingPathComponent("scripts/make-malformed").path, "--check"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the corpus is out of date: run scripts/make-malformed")
    }

    @Test(
        "every corpus file: validate and import exit as expected with the issue code and a location, within 20 s, no crash, the store byte-identical"
    )
    func corpus() throws {
        let cases = try MalformedCorpus.cases()
        let results = Results(count: cases.count)
        // Two at a time: the machine is shared, and each case starts two processes.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        for (index, entry) in cases.enumerated() {
            queue.addOperation {
                let path = MalformedCorpus.directory.appendingPathComponent(entry.file).path
                do {
                    let outcome = try MalformedCorpus.check(
                        file: path, expectedExit: [entry.exitCode], code: entry.code,
                        contains: entry.contains, label: entry.file)
                    results.set(index, problems: outcome.problems, seconds: outcome.slowest)
                } catch {
                    results.set(index, problems: ["\(entry.file): \(error)"], seconds: 0)
                }
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        let (problems, failedFiles, slowest) = results.collected()
        for problem in problems { Issue.record(Comment(rawValue: problem)) }
        print(
            "malformed corpus: \(cases.count) files × (validate + import) = \(cases.count * 2) runs, "
                + "\(cases.count - failedFiles) files passed, \(problems.count) problems, "
                + "slowest run \(String(format: "%.2f", slowest)) s")
    }

    @Test("inputs that once crashed the fuzzer end with exit 0 or 65, never a crash, the store untouched")
    func fuzzCrashes() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: MalformedCorpus.crashesDirectory.path)) ?? []
        let inputs = names.filter { $0 != "README.md" }.sorted()
        for name in inputs {
            let path = MalformedCorpus.crashesDirectory.appendingPathComponent(name).path
            let outcome = try MalformedCorpus.check(
                file: path, expectedExit: [0, 65], code: nil, contains: nil,
                label: "fuzz-crashes/\(name)")
            for problem in outcome.problems { Issue.record(Comment(rawValue: problem)) }
        }
        print("fuzz regression inputs: \(inputs.count)")
    }

    @Test("a file that does not exist: exit 66 naming it, and the store untouched")
    func missingFile() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let before = try directorySnapshot(scratch.url)
        let missing = scratch.path("no-such-archive.json")
        for arguments in [["validate", missing], ["import", "--store", store, missing]] {
            let run = try GuardedRun.run(arguments)
            #expect(run.status == 66, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.contains("no-such-archive.json: no such file"))
            #expect(GuardedRun.crashProblem(run) == nil)
        }
        #expect(try directorySnapshot(scratch.url) == before)
    }

    @Test("a 50 MB string: unterminated is rejected (65) and a valid one validated, quickly and in bounded memory")
    func fiftyMegabyteString() throws {
        let scratch = try Scratch()
        let base = try Data(contentsOf: URL(fileURLWithPath: TasksBinary.sample("TaskManager.v2.json")))
        // The value of the first task's title (the first title after "tasks").
        let tasks = base.range(of: Data("\"tasks\":[".utf8))!.upperBound
        let start = base.range(of: Data("\"title\":\"".utf8), in: tasks..<base.endIndex)!.upperBound
        let end = base[start...].firstIndex(of: UInt8(ascii: "\""))!
        let size = 50 * 1_048_576
        let string = Data(repeating: UInt8(ascii: "a"), count: size)
        let unterminated = scratch.url.appendingPathComponent("string-50mb-unterminated.json")
        try (base[..<start] + string).write(to: unterminated)
        let valid = scratch.url.appendingPathComponent("string-50mb-title.json")
        try (base[..<start] + string + base[end...]).write(to: valid)
        let bound = 4 * size + 100 * 1_048_576

        let rejected = try MalformedCorpus.check(
            file: unterminated.path, expectedExit: [65], code: "malformed-json",
            contains: "$.tasks[", label: "string-50mb-unterminated.json",
            measureMemory: true, memoryBound: bound)
        for problem in rejected.problems { Issue.record(Comment(rawValue: problem)) }

        let run = try GuardedRun.run(["validate", valid.path], measureMemory: true)
        #expect(GuardedRun.crashProblem(run) == nil, "\(run.stderr.prefix(400))")
        #expect(run.status == 0, "\(run.stderr.prefix(400))")
        if let rss = run.peakRSS { #expect(rss < bound, "validate: peak RSS \(rss / 1_048_576) MB") }
        print(
            "50 MB string: unterminated rejected in \(String(format: "%.2f", rejected.slowest)) s, peak RSS "
                + "\(rejected.peakRSS.map { "\($0 / 1_048_576) MB" } ?? "not measured (no /usr/bin/time)"); valid title "
                + "validated in \(String(format: "%.2f", run.seconds)) s, peak RSS "
                + "\(run.peakRSS.map { "\($0 / 1_048_576) MB" } ?? "not measured")")
    }

    @Test(
        "100,000 levels of nesting: rejected (65) in bounded memory",
        arguments: [
            "deep-nesting-100k-brackets.json", "deep-nesting-100k-brackets-balanced.json",
            "deep-nesting-in-task-notes.json",
            "deep-nesting-objects-in-unknown-member.json",
        ])
    func deepNesting(_ file: String) throws {
        let url = MalformedCorpus.directory.appendingPathComponent(file)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        let outcome = try MalformedCorpus.check(
            file: url.path, expectedExit: [65], code: "malformed-json", contains: nil,
            label: file, measureMemory: true, memoryBound: 4 * size + 100 * 1_048_576)
        for problem in outcome.problems { Issue.record(Comment(rawValue: problem)) }
        if GuardedRun.timeTool == nil { print("\(file): peak RSS not measured (/usr/bin/time is absent)") }
    }
}

/// Outcomes collected from the worker threads, read once they are done.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var problems: [[String]]
    private var slowest = 0.0

    init(count: Int) { problems = Array(repeating: [], count: count) }

    func set(_ index: Int, problems: [String], seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        self.problems[index] = problems
        slowest = max(slowest, seconds)
    }

    func collected() -> (problems: [String], failedFiles: Int, slowest: Double) {
        lock.lock()
        defer { lock.unlock() }
        return (problems.flatMap { $0 }, problems.filter { !$0.isEmpty }.count, slowest)
    }
}
