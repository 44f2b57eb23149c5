import Foundation
import Testing

/// `tasks` started without stdin, stdout or stderr (`>&-`), or with a stdout or stderr that fails (a pipe whose reader
/// is gone, a descriptor open only for reading, a full device): never a crash, no file of its own under a standard
/// descriptor's number, nothing written where it was not asked to write, and exit 74 exactly when stdout refused data
/// or was closed when data was to go there.
@Suite("Closed and failing standard descriptors")
struct ClosedDescriptorTests {
    /// One command family, run in the fixture's work directory.
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// The files the run makes in the work directory.
        var creates: [String] = []
        /// Whether its result is data on stdout (so a failing stdout is exit 74).
        var writesStdout = true
        /// Whether it reads the archive from stdin: a closed stdin reads as empty, so exit 65 and nothing made.
        var readsStdin = false

        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["export", "--store", "TaskManager.sqlite"]),
        Case(
            arguments: ["export", "--store", "TaskManager.sqlite", "-o", "out.json"], creates: ["out.json"],
            writesStdout: false),
        Case(
            arguments: ["import", "--store", "new.sqlite", "archive.json"], creates: ["new.sqlite"],
            writesStdout: false),
        Case(
            arguments: ["import", "--store", "new.sqlite"], creates: ["new.sqlite"], writesStdout: false,
            readsStdin: true),
        Case(arguments: ["import", "--store", "TaskManager.sqlite", "--mode", "upsert", "--dry-run", "archive.json"]),
        Case(arguments: ["validate", "archive.json"], writesStdout: false),
        Case(arguments: ["validate", "--json", "--store", "TaskManager.sqlite", "--mode", "upsert", "archive.json"]),
        Case(arguments: ["verify", "--store", "TaskManager.sqlite", "archive.json"]),
        Case(arguments: ["diff", "archive.json", "TaskManager.sqlite"]),
        Case(arguments: ["inspect", "--store", "TaskManager.sqlite"]),
        Case(arguments: ["model", "hashes", "Ledger.xcdatamodeld"]),
        Case(arguments: ["--version"]),
        Case(arguments: ["--help"]),
    ]

    static var writers: [Case] { cases.filter(\.writesStdout) }

    /// The standard descriptors a run starts without.
    enum Closed: String, CaseIterable, Sendable {
        case stdin, stdout, stderr, all

        /// The shell's redirections that close them.
        var redirections: String {
            switch self {
            case .stdin: return "<&-"
            case .stdout: return ">&-"
            case .stderr: return "2>&-"
            case .all: return "<&- >&- 2>&-"
            }
        }
    }

    struct Outcome {
        /// The exit status, or 128 + the signal that ended the process (a trap shows as 132, an abort as 134).
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// A work directory with copies of the sample store, its archive and a model; a TMPDIR of the runs' own; and a
    /// directory for captured output, apart from both.
    struct Fixture {
        let work: Scratch
        let temporary: Scratch
        let captured: Scratch

        init() throws {
            work = try Scratch()
            temporary = try Scratch()
            captured = try Scratch()
            _ = try work.sampleStore()
            try FileManager.default.copyItem(
                atPath: TasksBinary.sample("TaskManager.v2.json"), toPath: work.path("archive.json"))
            try FileManager.default.copyItem(
                atPath: TasksBinary.repository.appendingPathComponent(
                    "Tests/tasksTests/Fixtures/models/Ledger.xcdatamodeld"
                ).path, toPath: work.path("Ledger.xcdatamodeld"))
        }

        /// Every file and folder under the work directory with its bytes; a store's `-shm` only by its presence (any
        /// SQLite reader touches it).
        func files() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.subpathsOfDirectory(atPath: work.url.path) {
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: work.path(name), isDirectory: &isDirectory)
                files[name] =
                    isDirectory.boolValue || name.hasSuffix("-shm")
                    ? Data() : try Data(contentsOf: URL(fileURLWithPath: work.path(name)))
            }
            return files
        }

        /// Starts `tasks arguments` in the work directory as `/bin/sh -c 'exec tasks … redirections'`, with this
        /// fixture's TMPDIR, the archive on stdin, and stdout and stderr into `stdout` and `stderr`.
        func start(
            _ arguments: [String], redirections: String, stdout: FileHandle, stderr: FileHandle
        ) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" " + redirections, TasksBinary.url.path] + arguments
            process.currentDirectoryURL = work.url
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = temporary.url.path
            process.environment = environment
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: work.path("archive.json")))
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            return process
        }

        /// A new empty file in the capture directory.
        func capture(_ name: String) throws -> URL {
            let url = captured.url.appendingPathComponent("\(name)-\(UUID().uuidString)")
            try Data().write(to: url)
            return url
        }

        /// Runs `tasks arguments` (see `start`), stdout and stderr captured unless given.
        func run(
            _ arguments: [String], redirections: String = "", stdout: FileHandle? = nil, stderr: FileHandle? = nil
        ) throws -> Outcome {
            let output = try capture("stdout")
            let errors = try capture("stderr")
            let process = try start(
                arguments, redirections: redirections, stdout: try stdout ?? FileHandle(forWritingTo: output),
                stderr: try stderr ?? FileHandle(forWritingTo: errors))
            process.waitUntilExit()
            let status = process.terminationStatus
            return Outcome(
                status: process.terminationReason == .exit ? status : 128 + status,
                stdout: try Data(contentsOf: output),
                stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
        }

        /// Runs `test` and checks what every run must: its exit status, the work directory unchanged but for the
        /// files in `creates`, and nothing left in TMPDIR.
        @discardableResult
        func check(
            _ test: Case, _ label: String, status expected: Int32, creates: [String], redirections: String = "",
            stdout: FileHandle? = nil, stderr: FileHandle? = nil
        ) throws -> Outcome {
            let before = try files()
            let outcome = try run(test.arguments, redirections: redirections, stdout: stdout, stderr: stderr)
            let name = "\(test.testDescription) (\(label))"
            #expect(outcome.status == expected, "\(name): exit \(outcome.status): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("Fatal error"), "\(name): \(outcome.stderr)")
            let after = try files()
            #expect(
                Set(after.keys) == Set(before.keys).union(creates),
                "\(name): made \(Set(after.keys).subtracting(before.keys).sorted()), expected \(creates)")
            for (file, bytes) in before where after[file] != bytes {
                Issue.record("\(name): \(file) changed")
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)
            #expect(left.isEmpty, "\(name): left \(left) in TMPDIR")
            return outcome
        }

        /// Checks that a store or archive the run made is whole: `verify` finds every record of the archive in it.
        func checkMade(_ file: String, by name: String) throws {
            let verify =
                file.hasSuffix(".sqlite")
                ? ["verify", "--store", file, "archive.json"] : ["verify", "--store", "TaskManager.sqlite", file]
            let outcome = try run(verify)
            #expect(outcome.status == 0, "\(name): \(file) is not whole: \(outcome.stdout) \(outcome.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: work.url.path).filter {
                $0.contains(".tasks-") || $0.hasSuffix("-journal")
            }
            #expect(left.isEmpty, "\(name): left \(left)")
        }
    }

    /// The write end of a pipe whose reader is already gone: every write to it fails with `EPIPE`.
    static func brokenPipe() throws -> FileHandle {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        // Only the process given it as stdout or stderr may hold it, never one another test starts meanwhile.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        close(ends[0])
        return FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }

    @Test(
        "every command with stdin, stdout, stderr or all three closed: the work done, nothing stray written, no crash",
        arguments: cases, Closed.allCases)
    func closed(_ test: Case, _ closed: Closed) throws {
        let fixture = try Fixture()
        let stdinGone = test.readsStdin && (closed == .stdin || closed == .all)
        // Data for a closed stdout cannot be delivered: an I/O error, as coreutils give.
        let stdoutGone = test.writesStdout && (closed == .stdout || closed == .all)
        let creates = stdinGone || stdoutGone ? [] : test.creates
        let outcome = try fixture.check(
            test, "\(closed.rawValue) closed", status: stdinGone ? 65 : stdoutGone ? 74 : 0, creates: creates,
            redirections: closed.redirections)
        if test.writesStdout && closed != .stdout && closed != .all {
            #expect(!outcome.stdout.isEmpty, "\(test.testDescription): nothing on stdout")
        }
        if stdoutGone && closed == .stdout {
            #expect(
                outcome.stderr.hasSuffix(
                    "Error: standard output is closed, so nothing could be written; redirect it to a file\n"),
                "\(test.testDescription): \(outcome.stderr)")
        }
        for file in creates { try fixture.checkMade(file, by: "\(test.testDescription) (\(closed.rawValue) closed)") }
    }

    @Test(
        "a stdout that refuses data (broken pipe, read-only descriptor, full device) is exit 74, with nothing made",
        arguments: writers)
    func stdoutFails(_ test: Case) throws {
        let fixture = try Fixture()
        let broken = try fixture.check(test, "stdout EPIPE", status: 74, creates: [], stdout: try Self.brokenPipe())
        #expect(broken.stderr.hasPrefix("Error: write failed: Broken pipe"), "\(broken.stderr)")
        // Open, so not replaced by /dev/null, but not for writing.
        let readOnly = try fixture.capture("read-only")
        let refused = try fixture.check(
            test, "stdout read-only", status: 74, creates: [], stdout: try FileHandle(forReadingFrom: readOnly))
        #expect(refused.stderr.hasPrefix("Error: write failed: Bad file descriptor"), "\(refused.stderr)")
        #expect(try Data(contentsOf: readOnly).isEmpty)
        // The message about stdout cannot be written either; the status still says what happened.
        try fixture.check(
            test, "stdout and stderr EPIPE", status: 74, creates: [], stdout: try Self.brokenPipe(),
            stderr: try Self.brokenPipe())
        // A full disk, where the system has a device that behaves as one (opened by the shell, as stdout).
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let full = try fixture.check(test, "stdout ENOSPC", status: 74, creates: [], redirections: ">/dev/full")
            #expect(full.stderr.hasPrefix("Error: write failed: No space left on device"), "\(full.stderr)")
        }
    }

    @Test("a stderr that refuses messages changes nothing: same work, same exit status", arguments: cases)
    func stderrFails(_ test: Case) throws {
        let fixture = try Fixture()
        let outcome = try fixture.check(
            test, "stderr EPIPE", status: 0, creates: test.creates, stderr: try Self.brokenPipe())
        if test.writesStdout { #expect(!outcome.stdout.isEmpty, "\(test.testDescription): nothing on stdout") }
        for file in test.creates { try fixture.checkMade(file, by: "\(test.testDescription) (stderr EPIPE)") }
    }

    @Test("a closed 0, 1 and 2 are /dev/null from the start (Linux's /proc shows it), and the run goes on")
    func reopenedAsNull() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/fd") else { return }
        let fixture = try Fixture()
        // `validate` waits on a FIFO until the test writes the archive (smaller than a pipe's buffer) into it: time to
        // look at its descriptors.
        let fifo = fixture.captured.path("input.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        // Not /dev/null already in the shell, so /dev/null can only come from `tasks` itself.
        let process = try fixture.start(
            ["validate", fifo], redirections: Closed.all.redirections,
            stdout: try FileHandle(forWritingTo: try fixture.capture("stdout")),
            stderr: try FileHandle(forWritingTo: try fixture.capture("stderr")))
        func targets() -> [String] {
            (0...2).map {
                (try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "/proc/\(process.processIdentifier)/fd/\($0)")) ?? "closed"
            }
        }
        let deadline = Date().addingTimeInterval(10)
        while targets() != Array(repeating: "/dev/null", count: 3) && Date() < deadline { usleep(2_000) }
        #expect(targets() == Array(repeating: "/dev/null", count: 3))
        // Without blocking (no reader yet is ENXIO, asked again): a run that never reads must fail the test, not
        // hang it.
        var descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
        while descriptor < 0 && errno == ENXIO && Date() < deadline.addingTimeInterval(10) {
            usleep(2_000)
            descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
        }
        #expect(descriptor >= 0, "validate does not read the FIFO")
        if descriptor < 0 {
            process.terminate()
        } else {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            let writer = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try writer.write(contentsOf: try Data(contentsOf: URL(fileURLWithPath: fixture.work.path("archive.json"))))
            try writer.close()
        }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.temporary.url.path).isEmpty)
    }
}
