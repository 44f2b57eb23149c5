import Foundation

/// Runs the built `tasks` binary and captures what it prints.
struct TasksBinary {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    static let repository: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The binary of the build under test: the `tasks` beside the test bundle, which `swift test` builds from the
    /// same sources. `TASKS_BINARY` names another one (a release build, say) for a run that wants it; nothing else is
    /// picked up by itself, so an edit never leaves the tests running an older binary.
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["TASKS_BINARY"], !path.isEmpty {
            precondition(FileManager.default.isExecutableFile(atPath: path), "TASKS_BINARY=\(path) is not executable")
            return URL(fileURLWithPath: path)
        }
        let beside = productsDirectory.appendingPathComponent("tasks")
        precondition(
            FileManager.default.isExecutableFile(atPath: beside.path),
            "no tasks binary beside the test bundle (\(beside.path)): build with 'swift build --build-tests', or name "
                + "one with TASKS_BINARY")
        return beside
    }()

    /// Where the build put the test bundle and the executables: on Linux the bundle is the running executable; on
    /// macOS it is loaded by `xctest`, so it is found among the loaded bundles.
    static var productsDirectory: URL {
        #if os(macOS)
            if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static func sample(_ name: String) -> String {
        repository.appendingPathComponent("samples").appendingPathComponent(name).path
    }

    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, in directory: URL? = nil) throws -> Run {
        try runProcess(url, arguments, stdin: stdin, in: directory)
    }

    /// Runs a shell pipeline (for `export | import`).
    static func shell(_ command: String, in directory: URL? = nil) throws -> Run {
        try runProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", command], stdin: nil, in: directory,
            environment: ["TASKS": url.path])
    }

    static func runProcess(
        _ executable: URL, _ arguments: [String], stdin: Data?, in directory: URL?,
        environment: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-out-\(UUID().uuidString)")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        if let stdin {
            let input = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-in-\(UUID().uuidString)")
            try stdin.write(to: input)
            defer { try? FileManager.default.removeItem(at: input) }
            process.standardInput = try FileHandle(forReadingFrom: input)
            try process.run()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        process.waitUntilExit()
        let out = try Data(contentsOf: output)
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self), stdoutData: out)
    }
}

/// A fresh directory per test.
final class Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Copies the sample store with its sidecars (never used in place).
    func sampleStore() throws -> String {
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(
                atPath: TasksBinary.sample("TaskManager.sqlite") + suffix, toPath: path("TaskManager.sqlite" + suffix))
        }
        return path("TaskManager.sqlite")
    }

    func bytes(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }
}

/// An archive's lines without those that name the export itself (`exportDate`, `source`).
/// `contentLines` without the records' `key` members: what stays the same through an import that hands out its own
/// keys (any but `--keep-identity` into a new store).
func contentLinesWithoutKeys(_ text: String) -> [String] {
    contentLines(text).map {
        $0.replacingOccurrences(of: #","key":[0-9]+"#, with: "", options: .regularExpression)
    }
}

func contentLines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter {
        !$0.hasPrefix("\"exportDate\"") && !$0.hasPrefix("\"source\"")
    }
}
