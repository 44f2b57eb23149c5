import Foundation
import Testing

/// The README's examples, run as a reader pastes them: in order, from the root of a fresh copy of the repository's
/// `README.md` and `samples/` (so nothing is written in the repository), with `tasks` on the PATH meaning the binary
/// of the build under test.
///
/// Which blocks run (the README's convention):
/// - a fenced block whose info string is `sh` runs every line that is not blank or a `#` comment;
/// - a fenced block whose info string is `console` is a transcript: each line starting with `$ ` is a command, the
///   lines after it are its output (not compared, dates and timings vary), except for a command with
///   `; echo $?`, whose last output line — the documented exit status — must be the status printed;
/// - a transcript's command continues on the lines after it that start with `> ` (the shell's prompt), a `sh` block's
///   on the line after one ending in `\`;
/// - every other command must exit 0; `swift run tasks` is `tasks`;
/// - `<!-- not run: reason -->` on the line just before the fence skips that block (the install line, `swift test`,
///   examples that need `../shared`);
/// - blocks with no info string or another one (`text`, `json`, `swift`) never run, and may not hold `$ ` lines: a
///   transcript is a `console` block, run or marked not run.
///
/// The examples write only under `scratch/` (which the repository ignores) and never change a sample.
@Suite("README examples")
struct ReadmeExamplesTests {
    struct Example: CustomStringConvertible {
        var line: Int
        var command: String
        /// The last output line the README shows for a `; echo $?` command: the exit status it documents.
        var documentedStatus: String?
        var description: String { "README.md:\(line): \(command)" }
    }

    struct Block {
        var line: Int
        var info: String
        var notRun: Bool
        var lines: [(number: Int, text: String)]
    }

    static let readme = TasksBinary.repository.appendingPathComponent("README.md")

    /// The README's fenced blocks, each with the info string of its opening fence and whether it is marked not run.
    static func blocks(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        var previous = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = current {
                if trimmed == "```" {
                    blocks.append(block)
                    current = nil
                } else {
                    block.lines.append((index + 1, line))
                    current = block
                }
            } else if trimmed.hasPrefix("```") {
                let info = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                current = Block(line: index + 1, info: info, notRun: previous.hasPrefix("<!-- not run"), lines: [])
            }
            if !trimmed.isEmpty { previous = trimmed }
        }
        return blocks
    }

    /// The commands of the blocks that run, in order.
    static func examples(_ blocks: [Block]) -> [Example] {
        var examples: [Example] = []
        for block in blocks where !block.notRun && (block.info == "sh" || block.info == "console") {
            var pending: Example?
            var output: [String] = []
            var continuing = false
            func finish() {
                guard var example = pending else { return }
                if example.command.contains("; echo $?") {
                    example.documentedStatus = output.last?.trimmingCharacters(in: .whitespaces)
                }
                examples.append(example)
                pending = nil
                output = []
            }
            for (number, text) in block.lines {
                // A transcript continues a command on `> ` lines (the shell's prompt), a script after a `\`.
                let transcriptContinuation = block.info == "console" && text.hasPrefix("> ")
                if var example = pending, transcriptContinuation || (continuing && block.info == "sh") {
                    example.command += "\n" + (transcriptContinuation ? String(text.dropFirst(2)) : text)
                    pending = example
                    continuing = text.hasSuffix("\\")
                    continue
                }
                var command: String?
                if block.info == "console" {
                    if text.hasPrefix("$ ") { command = String(text.dropFirst(2)) } else { output.append(text) }
                } else {
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    if !trimmed.isEmpty && !trimmed.hasPrefix("#") { command = text }
                }
                guard let command else { continue }
                finish()
                var rewritten = command
                if rewritten.hasPrefix("swift run tasks ") { rewritten = "tasks " + rewritten.dropFirst(16) }
                pending = Example(line: number, command: rewritten, documentedStatus: nil)
                continuing = command.hasSuffix("\\")
            }
            finish()
        }
        return examples
    }

    /// Every file under `directory` (relative paths) with its bytes.
    static func contents(of directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let base = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return result
        }
        for case let url as URL in walker {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let path = url.standardizedFileURL.path
            result[String(path.dropFirst(base.count + 1))] = try Data(contentsOf: url)
        }
        return result
    }

    /// `git status --porcelain` of the repository, or nil when git or the repository's history is not there.
    static func gitStatus() throws -> String? {
        let run = try TasksBinary.runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["git", "-C", TasksBinary.repository.path, "status", "--porcelain", "--untracked-files=all"],
            stdin: nil, in: nil)
        return run.status == 0 ? run.stdout : nil
    }

    @Test("the convention as parsed: sh lines, console $ lines with > continuations, echo $? statuses, not-run blocks")
    func parsing() {
        let text = """
            ```sh
            mkdir -p scratch   # a comment after a command stays
            # a comment line
            swift run tasks --version
            ```
            <!-- not run: an example -->
            ```console
            $ tasks export missing.sqlite
            ```
            ```console
            $ tasks validate scratch/a.json; echo $?
            error: …
            65
            $ jq '.a
            >   | .b' scratch/a.json
            {}
            ```
              ```json
              {"$ not": "a command"}
              ```
            """
        let blocks = Self.blocks(text)
        #expect(blocks.map(\.info) == ["sh", "console", "console", "json"])
        #expect(blocks.map(\.notRun) == [false, true, false, false])
        let examples = Self.examples(blocks)
        #expect(
            examples.map(\.command) == [
                "mkdir -p scratch   # a comment after a command stays", "tasks --version",
                "tasks validate scratch/a.json; echo $?", "jq '.a\n  | .b' scratch/a.json",
            ])
        #expect(examples.map(\.documentedStatus) == [nil, nil, "65", nil])
        #expect(examples.map(\.line) == [2, 4, 11, 14])
    }

    @Test("the README's blocks follow the convention: transcripts are console blocks; sh and console blocks run")
    func convention() throws {
        let blocks = Self.blocks(try String(contentsOf: Self.readme, encoding: .utf8))
        for block in blocks where block.info != "sh" && block.info != "console" {
            let transcript = block.lines.first { $0.text.trimmingCharacters(in: .whitespaces).hasPrefix("$ ") }
            #expect(
                transcript == nil,
                "README.md:\(block.line): a block with `$ ` lines is a transcript: open it with ```console")
        }
        let examples = Self.examples(blocks)
        #expect(examples.count >= 40, "only \(examples.count) commands found to run")
        #expect(examples.first?.command == "rm -rf scratch && mkdir scratch", "the examples do not start over first")
        #expect(!examples.contains { $0.command.contains("../shared") }, "an example that runs names ../shared")
        // The sections the issue named run from the shipped samples.
        for needle in ["tasks model identify", "tasks migrate", "tasks model new-store", "tasks verify"] {
            #expect(examples.contains { $0.command.contains(needle) }, "no example that runs '\(needle)'")
        }
    }

    /// The tools the examples use beside `tasks`: `jq` edits an archive, `sqlite3` changes a store as an app would.
    static let toolsPresent = ["jq", "sqlite3"].allSatisfy { tool in
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    @Test(
        "every README example runs from a fresh copy, in order and again, with the documented exit status, in scratch/",
        .enabled(if: ReadmeExamplesTests.toolsPresent, "the README's examples need jq and sqlite3 on the PATH"))
    func examplesRun() throws {
        let before = try Self.gitStatus()
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let examples = Self.examples(Self.blocks(text))
        let clone = try Scratch()
        let samples = TasksBinary.repository.appendingPathComponent("samples")
        try FileManager.default.copyItem(at: samples, to: clone.url.appendingPathComponent("samples"))
        try FileManager.default.copyItem(at: Self.readme, to: clone.url.appendingPathComponent("README.md"))
        let originalSamples = try Self.contents(of: clone.url.appendingPathComponent("samples"))
        let bin = try Scratch()
        try FileManager.default.createSymbolicLink(
            at: bin.url.appendingPathComponent("tasks"), withDestinationURL: TasksBinary.url)
        let path = bin.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

        // Twice over: the first example starts them over, so pasting them again works as the first time.
        for example in examples + examples {
            let run = try TasksBinary.runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["timeout", "120", "bash", "--noprofile", "--norc", "-c", example.command], stdin: nil, in: clone.url,
                environment: ["PATH": path])
            let detail = "\(example)\nexit \(run.status)\nstderr: \(run.stderr.suffix(2000))"
            try #require(run.status == 0, "\(detail)")
            if let documented = example.documentedStatus {
                let printed = run.stdout.split(separator: "\n").last.map(String.init)
                #expect(printed == documented, "the README says exit \(documented): \(detail)")
            }
        }

        // Nothing but scratch/ beside what the clone started with, and the samples byte for byte as they were.
        let top = try FileManager.default.contentsOfDirectory(atPath: clone.url.path).sorted()
        #expect(top == ["README.md", "samples", "scratch"], "the examples left \(top) in the repository's root")
        #expect(try Self.contents(of: clone.url.appendingPathComponent("samples")) == originalSamples)
        // The repository ignores scratch/ and the run wrote nothing into it.
        if let before {
            #expect(try Self.gitStatus() == before)
            let ignored = try TasksBinary.runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["git", "-C", TasksBinary.repository.path, "check-ignore", "-q", "scratch/out.json"], stdin: nil,
                in: nil)
            #expect(ignored.status == 0, "the repository does not ignore scratch/")
        }
    }
}
