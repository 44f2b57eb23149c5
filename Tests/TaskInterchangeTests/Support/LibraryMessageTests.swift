import Foundation
import Testing
@testable import TaskInterchange

/// The library's messages name its own API: an app that shows them to its users must not give advice about a
/// command line they never saw. The command line turns the settings a message names into its flags.
@Suite("Library messages")
struct LibraryMessageTests {
    /// Older archives recorded a partial export's selection as the export options that made it (the schema's
    /// `source.selection` string); reading them parses that text as data, not advice.
    static let allowed: Set<String> = ["Archive/ExportSelection+Archive.swift"]

    /// The command line's commands, by the names their descriptions give (`model diagram` as `model`).
    static let commands: Set<String> = {
        let root = SampleStores.repository.appendingPathComponent("Sources/tasks")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var names: Set<String> = []
        for file in files where file.hasSuffix("Command.swift") {
            let text = (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for match in text.matches(of: /CommandDescription\(\s*name: "([a-z]+)/) { names.insert(String(match.1)) }
        }
        return names
    }()

    @Test("no string literal in Sources/TaskInterchange names a command-line flag or command")
    func noFlagsInLiterals() throws {
        #expect(Self.commands.isSuperset(of: ["export", "import", "validate", "inspect", "diff", "verify", "migrate"]))
        let root = SampleStores.repository.appendingPathComponent("Sources/TaskInterchange")
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter {
            $0.hasSuffix(".swift") && !Self.allowed.contains($0)
        }
        #expect(files.count > 100)
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            found += Self.flagsInLiterals(text).map { "\(file):\($0.line): \($0.literal)" }
        }
        #expect(found.isEmpty, "library strings that name flags:\n\(found.joined(separator: "\n"))")
    }

    @Test("the scan finds a flag in a literal, an interpolated or a multi-line one, and skips comments")
    func scanFinds() {
        let source = #"""
            /// `--mode upsert` in a doc comment is fine
            let a = "use \(mode) or --mode upsert"  // --strict in a comment is fine
            let b = "a value \"--not\" escaped, then " + "--kinds"
            let c = """
                many lines, one with --match
                """
            let d = "x - y -- z"
            let e = "\(merge ? "--mode merge" : "--match") compares"
            let f = "run 'tasks validate' for every problem"
            let g = "the next insert would collide (tasks import corrects it)"
            let h = "the tasks imported, three tasks exported"
            let i = """
                see tasks inspect
                """
            """#
        let found = Self.flagsInLiterals(source)
        #expect(found.map(\.line) == [2, 3, 3, 5, 8, 8, 9, 10, 13])
    }

    @Test("a message keeps the settings it names: the library says their API names, a caller its own")
    func settingsInMessages() {
        let error = TaskInterchangeError(
            .usage, "\(setting: .mode, "replace") would delete it; use \(setting: .mode, "upsert", "merge")")
        #expect(
            error.message == "StoreImportOptions.mode .replace would delete it; use StoreImportOptions.mode "
                + ".upsert or .merge")
        #expect(error.parts.first == .setting(.mode, values: ["replace"]))
        let named = error.message { setting, values in "[\(setting)=\(values.joined(separator: "|"))]" }
        #expect(named == "[mode=replace] would delete it; use [mode=upsert|merge]")
        let plain = TaskInterchangeError(.io, "disk full")
        #expect(plain.parts == [.text("disk full")] && plain.description == "disk full")
    }

    @Test("an import's refusal names StoreImportOptions.keepIdentity, with the setting in its parts")
    func keepIdentityRefusal() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        var options = StoreImportOptions()
        options.keepIdentity = true
        let file = directory.path("tasks.json")
        _ = try Exporter.export(store: store, toFile: file)
        let archive = try ArchiveInput(path: file)
        #expect {
            try StoreImport.run(archive, into: store, options: options)
        } throws: { error in
            guard let error = error as? TaskInterchangeError else { return false }
            return error.kind == .usage && error.message.contains("StoreImportOptions.keepIdentity restores")
                && error.parts.contains(.setting(.keepIdentity, values: []))
        }
    }

    /// Each string literal outside comments that holds `--` followed by a letter, with its line (1-based).
    static func flagsInLiterals(_ text: String) -> [(line: Int, literal: String)] {
        var found: [(line: Int, literal: String)] = []
        var inMultiline = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if line.contains("\"\"\"") {
                inMultiline.toggle()
                continue
            }
            if inMultiline {
                if hasFlag(Substring(line)) { found.append((index + 1, String(trimmed))) }
                continue
            }
            if trimmed.hasPrefix("//") { continue }
            found += literals(in: Array(line)).filter { hasFlag(Substring($0)) }.map { (index + 1, $0) }
        }
        return found
    }

    /// The string literals on one line of code, interpolations followed into (their literals are listed too).
    static func literals(in line: [Character]) -> [String] {
        enum Context {
            case code(depth: Int)
            case string(String)
        }
        var stack: [Context] = [.code(depth: 0)]
        var literals: [String] = []
        var index = 0
        while index < line.count {
            let character = line[index]
            let next = index + 1 < line.count ? line[index + 1] : nil
            switch stack[stack.count - 1] {
            case .code(let depth):
                if character == "/" && next == "/" { return literals }
                if character == "\"" {
                    stack.append(.string(""))
                } else if character == "(" {
                    stack[stack.count - 1] = .code(depth: depth + 1)
                } else if character == ")" {
                    if depth == 0 && stack.count > 1 {
                        stack.removeLast()  // the end of an interpolation: back in its string
                    } else {
                        stack[stack.count - 1] = .code(depth: depth - 1)
                    }
                }
            case .string(let text):
                if character == "\\" && next == "(" {
                    stack[stack.count - 1] = .string(text + "\\(…)")
                    stack.append(.code(depth: 0))
                    index += 1
                } else if character == "\\" {
                    index += 1
                } else if character == "\"" {
                    literals.append(text)
                    stack.removeLast()
                } else {
                    stack[stack.count - 1] = .string(text + String(character))
                }
            }
            index += 1
        }
        return literals
    }

    static func hasFlag(_ text: Substring) -> Bool {
        if text.contains("'tasks ") { return true }  // a command of the command line
        for match in text.matches(of: /\btasks ([a-z]+)\b/) where commands.contains(String(match.1)) { return true }
        var previous: [Character] = []
        for character in text {
            if previous.count == 2, previous == ["-", "-"], character.isLetter, character.isLowercase { return true }
            previous.append(character)
            if previous.count > 2 { previous.removeFirst() }
        }
        return false
    }
}
