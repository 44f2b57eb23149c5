import Foundation
import Testing

/// The README's examples, and those of the guides in `docs/` after them, run as a reader pastes them: in order, from
/// the root of a fresh copy of the repository's `README.md`, `docs/` and `samples/` (so nothing is written in the
/// repository), with `tasks` on the PATH meaning the binary of the build under test.
///
/// Which blocks run (the convention `docs/CONTRIBUTING.md` explains):
/// - a fenced block whose info string is `sh` runs every line that is not blank or a `#` comment;
/// - a fenced block whose info string is `console` is a transcript: each line starting with `$ ` is a command, the
///   lines after it are its output, compared with what it printed (stdout and stderr together) by
///   `TranscriptMatch`: `…` on a line of its own stands for any lines, `…` within a line for any characters;
/// - a transcript's command continues on the lines after it that start with `> ` (the shell's prompt), a `sh` block's
///   on the line after one ending in `\`;
/// - every command must exit 0 (a command whose status is documented ends with `; echo $?`); `swift run tasks` is
///   `tasks`;
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
        /// The last output line the transcript shows for a `; echo $?` command: the exit status it documents.
        var documentedStatus: String?
        /// The output a transcript shows, with its line numbers; nil for a `sh` block's command (not compared).
        var output: [(number: Int, text: String)]? = nil
        var file = "README.md"
        var description: String { "\(file):\(line): \(command)" }
    }

    struct Block {
        var line: Int
        var info: String
        var notRun: Bool
        var lines: [(number: Int, text: String)]
    }

    static let readme = TasksBinary.repository.appendingPathComponent("README.md")

    /// The documents whose examples run, in the order they run: the README's tour makes what the guides start from.
    static let documents = [
        "README.md", "docs/EXPORT.md", "docs/IMPORT.md", "docs/DIFF-AND-VERIFY.md", "docs/MIGRATION.md",
        "docs/MODEL-TOOLS.md",
    ]

    /// Every document's blocks, by its path in the repository.
    static func documentBlocks() throws -> [(file: String, blocks: [Block])] {
        try documents.map { file in
            let text = try String(
                contentsOf: TasksBinary.repository.appendingPathComponent(file), encoding: .utf8)
            return (file, blocks(text))
        }
    }

    /// The commands of every document, in the order they run.
    static func allExamples() throws -> [Example] {
        try documentBlocks().flatMap { document in
            examples(document.blocks).map { example in
                var example = example
                example.file = document.file
                return example
            }
        }
    }

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
            var output: [(number: Int, text: String)] = []
            var continuing = false
            func finish() {
                guard var example = pending else { return }
                if example.command.contains("; echo $?") {
                    let shown = output.last { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
                    example.documentedStatus = shown?.text.trimmingCharacters(in: .whitespaces)
                }
                if block.info == "console" { example.output = output }
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
                    if text.hasPrefix("$ ") {
                        command = String(text.dropFirst(2))
                    } else {
                        output.append((number, text))
                    }
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

    @Test("the convention as parsed: sh lines, console $ lines with > continuations and output, echo $? statuses")
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
        #expect(examples.map { $0.output?.map { $0.text } } == [nil, nil, ["error: …", "65"], ["{}"]])
        #expect(examples.map { $0.output?.map { $0.number } } == [nil, nil, [12, 13], [16]])
    }

    @Test("heading anchors as GitHub makes them")
    func headingAnchors() {
        let anchors = Self.anchors(
            "# tasks\n## A five-minute tour\ntext # not a heading\n## The app's model: `tasks model`")
        #expect(anchors == ["tasks", "a-five-minute-tour", "the-apps-model-tasks-model"])
    }

    @Test("transcript output: exact lines, … within a line, … for any lines, a report naming the line that differs")
    func transcriptMatching() {
        func fits(_ expected: [String], _ printed: String) -> Bool {
            TranscriptMatch(expected: expected.enumerated().map { ($0.offset + 10, $0.element) }, printed: printed)
                .matches
        }
        #expect(fits(["a", "b"], "a\nb\n"))
        #expect(fits(["a  ", "b", ""], "a\nb\n\n"))
        #expect(!fits(["a", "b"], "a\nc\n"))
        #expect(!fits(["a"], "a\nb\n"))
        #expect(!fits(["a", "b"], "a\n"))
        #expect(fits(["Exported 5 in … s"], "Exported 5 in 0.04 s"))
        #expect(!fits(["Exported 5 in … s"], "Exported 6 in 0.04 s"))
        #expect(fits(["backup: …-backup-….sqlite"], "backup: x/T-backup-20261124-162948.sqlite"))
        #expect(!fits(["a…b…b"], "ab"))
        #expect(fits(["a", "…", "z"], "a\nz"))
        #expect(fits(["a", "  …", "z"], "a\nb\nc\nz"))
        #expect(!fits(["a", "…", "z"], "a\nb\ny"))
        #expect(fits(["…"], ""))
        #expect(fits([], ""))
        #expect(!fits([], "output nobody showed"))

        let match = TranscriptMatch(expected: [(20, "A: a"), (21, "  project   5 ↔ 5"), (22, "…")], printed: "A: a\nB")
        #expect(!match.matches)
        #expect(match.mismatch.expected == 1 && match.mismatch.printed == 1)
        let report = match.report(file: "README.md", commandLine: 19, command: "tasks diff a b")
        #expect(report.contains("README.md:19: the output of `tasks diff a b` differs"))
        #expect(report.contains("README.md:21 expects \"  project   5 ↔ 5\"; printed line 2: \"B\""))
        #expect(report.contains("README.md:20| A: a") && report.contains("  | B"))
        let longer = TranscriptMatch(expected: [(5, "a")], printed: "a\nmore")
        #expect(longer.mismatch.expected == nil)
        #expect(
            longer.report(file: "docs/X.md", commandLine: 4, command: "c").contains(
                "the transcript ends at docs/X.md:5; printed line 2: \"more\""))
    }

    @Test("the documents' blocks follow the convention: transcripts are console blocks; sh and console blocks run")
    func convention() throws {
        let documents = try Self.documentBlocks()
        for (file, blocks) in documents {
            for block in blocks where block.info != "sh" && block.info != "console" {
                let transcript = block.lines.first { $0.text.trimmingCharacters(in: .whitespaces).hasPrefix("$ ") }
                #expect(
                    transcript == nil,
                    "\(file):\(block.line): a block with `$ ` lines is a transcript: open it with ```console")
            }
        }
        let examples = try Self.allExamples()
        #expect(examples.count >= 55, "only \(examples.count) commands found to run")
        let transcripts = examples.filter { $0.output != nil }.count
        #expect(transcripts >= 55, "only \(transcripts) commands whose output a transcript shows")
        #expect(examples.first?.command == "rm -rf scratch && mkdir scratch", "the examples do not start over first")
        #expect(!examples.contains { $0.command.contains("../shared") }, "an example that runs names ../shared")
        // The tour runs the main commands from the shipped samples, and the guides run the rest.
        let readme = examples.filter { $0.file == "README.md" }
        for needle in [
            "tasks export", "tasks validate", "tasks import", "tasks diff", "tasks verify", "tasks migrate",
            "tasks model diagram",
        ] {
            #expect(readme.contains { $0.command.contains(needle) }, "no README example that runs '\(needle)'")
        }
        for needle in ["tasks model identify", "tasks model new-store", "tasks inspect", "--mode merge"] {
            #expect(examples.contains { $0.command.contains(needle) }, "no example that runs '\(needle)'")
        }
        // Every guide with blocks that run is in the list, so none of its transcripts goes unchecked.
        let docs = TasksBinary.repository.appendingPathComponent("docs")
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            let runs = Self.blocks(text).contains { !$0.notRun && ($0.info == "sh" || $0.info == "console") }
            #expect(!runs || Self.documents.contains("docs/\(name)"), "docs/\(name) has examples that no test runs")
        }
    }

    /// The anchors GitHub gives a Markdown file's headings: lowercased, punctuation dropped, spaces as hyphens.
    static func anchors(_ text: String) -> Set<String> {
        var anchors: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let kept = title.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
            }
            anchors.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }

    @Test("the README stays short, and every relative link in it and in docs/ names a file and heading that exist")
    func lengthAndLinks() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 500, "README.md has \(lines) lines: reference material belongs in docs/")
        let docs = TasksBinary.repository.appendingPathComponent("docs")
        var files = [Self.readme]
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            files.append(docs.appendingPathComponent(name))
        }
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for found in text.matches(of: link) {
                guard let target = found.output[1].substring.map(String.init), !target.contains("://"),
                    !target.hasPrefix("#"), !target.hasPrefix("mailto:")
                else { continue }
                let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
                let resolved = file.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                guard FileManager.default.fileExists(atPath: resolved.path) else {
                    Issue.record("\(file.lastPathComponent): the link \(target) names no file")
                    continue
                }
                if parts.count == 2 {
                    let headings = Self.anchors(try String(contentsOf: resolved, encoding: .utf8))
                    #expect(
                        headings.contains(parts[1]),
                        "\(file.lastPathComponent): the link \(target) names no heading of \(parts[0])")
                }
            }
        }
    }

    /// The tools the examples use beside `tasks`: `jq` edits an archive, `sqlite3` changes a store as an app would.
    static let toolsPresent = ["jq", "sqlite3"].allSatisfy { tool in
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    @Test(
        "every example runs from a fresh copy, in order and again, printing what its transcript shows, in scratch/",
        .enabled(if: ReadmeExamplesTests.toolsPresent, "the README's examples need jq and sqlite3 on the PATH"))
    func examplesRun() throws {
        let before = try Self.gitStatus()
        let examples = try Self.allExamples()
        let clone = try Scratch()
        for item in ["samples", "docs", "README.md"] {
            try FileManager.default.copyItem(
                at: TasksBinary.repository.appendingPathComponent(item), to: clone.url.appendingPathComponent(item))
        }
        let originalSamples = try Self.contents(of: clone.url.appendingPathComponent("samples"))
        let bin = try Scratch()
        try FileManager.default.createSymbolicLink(
            at: bin.url.appendingPathComponent("tasks"), withDestinationURL: TasksBinary.url)
        let path = bin.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

        // Twice over: the first example starts them over, so pasting them again works as the first time.
        var differing: Set<String> = []
        for example in examples + examples {
            // One stream for both outputs, as a terminal shows them.
            let run = try TasksBinary.runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["timeout", "120", "bash", "--noprofile", "--norc", "-c", "exec 2>&1\n" + example.command],
                stdin: nil, in: clone.url, environment: ["PATH": path])
            let detail = "\(example)\nexit \(run.status)\noutput: \(run.stdout.suffix(2000))"
            try #require(run.status == 0, "\(detail)")
            if let documented = example.documentedStatus {
                let printed = run.stdout.split(separator: "\n").last.map(String.init)
                #expect(printed == documented, "\(example.file) says exit \(documented): \(detail)")
            }
            // A transcript that differs is reported once, from the first pass, with both sides in full.
            if let output = example.output, !differing.contains(example.description) {
                let match = TranscriptMatch(expected: output, printed: run.stdout)
                if !match.matches {
                    differing.insert(example.description)
                    let report = match.report(file: example.file, commandLine: example.line, command: example.command)
                    Issue.record(Comment(rawValue: report))
                }
            }
        }

        // Nothing but scratch/ beside what the clone started with, and the samples byte for byte as they were.
        let top = try FileManager.default.contentsOfDirectory(atPath: clone.url.path).sorted()
        #expect(
            top == ["README.md", "docs", "samples", "scratch"], "the examples left \(top) in the repository's root")
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
