import Foundation
import Testing

/// The library's folders in the order docs/ARCHITECTURE.md lists them, lowest first: a file uses only the types of
/// its own folder and the folders before it. Each folder's top-level types are found in its sources; every other
/// folder's code (comments and string text left out, interpolations kept) is searched for them.
@Suite("Layering")
struct LayeringTests {
    static let library = SampleStores.repository.appendingPathComponent("Sources/TaskInterchange")

    /// Uses that are known to point upward, by file and type; none. A listed use that is gone fails too, so the
    /// list only shrinks.
    static let knownUpward: Set<String> = []

    /// The folders of the architecture document's table, in its order.
    static func documentedOrder() throws -> [String] {
        let text = try String(
            contentsOf: SampleStores.repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let section = try #require(text.range(of: "## Folders, lowest first"))
        let end = text.range(of: "\n## ", range: section.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        return text[section.upperBound..<end].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let close = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<close]).trimmingCharacters(
                in: CharacterSet(charactersIn: "/"))
        }
    }

    /// Every folder of the library that holds sources, as a path below it (`Store/Writing`): a folder split into
    /// rooms is listed by its rooms, each a layer of its own.
    static func sourceFolders() throws -> [String] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: library.path)
        return Set(
            paths.filter { $0.hasSuffix(".swift") && !$0.contains(".docc/") }.map {
                ($0 as NSString).deletingLastPathComponent
            }
        ).sorted()
    }

    @Test("no file uses a type of a folder after its own (the architecture's order)")
    func noUpwardUses() throws {
        let order = try Self.documentedOrder()
        let folders = try Self.sourceFolders()
        #expect(Set(order) == Set(folders), "ARCHITECTURE.md's folder table lists every folder of the library once")
        #expect(order.count == Set(order).count)
        var sources: [(folder: String, file: String, code: String)] = []
        for folder in order {
            let directory = Self.library.appendingPathComponent(folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                sources.append((folder, file, Self.code(of: text)))
            }
        }
        var owner: [String: String] = [:]
        for source in sources {
            for name in Self.declaredTypes(in: source.code) where owner[name] == nil { owner[name] = source.folder }
        }
        #expect(owner["Validator"] == "Validation" && owner["Database"] == "SQLite", "the type scan finds types")
        var upward: Set<String> = []
        for source in sources {
            let level = order.firstIndex(of: source.folder)!
            for name in Self.usedNames(in: source.code) {
                guard let folder = owner[name], order.firstIndex(of: folder)! > level else { continue }
                upward.insert("\(source.folder)/\(source.file) uses \(name) (\(folder))")
            }
        }
        #expect(upward.subtracting(Self.knownUpward).sorted() == [])
        #expect(
            Self.knownUpward.subtracting(upward).sorted() == [], "a known upward use is gone: drop it from the list")
    }

    @Test("the scan sees a use in code and in an interpolation, not in a comment or in string text")
    func scanner() {
        let code = Self.code(
            of: ##"""
                // Importer in a comment
                /* Exporter in a block */
                let a = "Migration in text \(Validator.self)"
                let b = """
                    Archive in a block of text \(Database("x"))
                    """
                let c = #"Raw "Cancellation" text \#(StoreWriter.self)"#
                """##)
        #expect(Self.usedNames(in: code) == ["Database", "StoreWriter", "Validator"])
        #expect(
            Self.declaredTypes(in: "public struct A {}\n    struct Nested {}\nextension B {}\nenum C {}") == ["A", "C"])
    }

    /// Top-level types a file declares (nested types are named through their parent).
    static func declaredTypes(in code: String) -> [String] {
        matches(
            #"(?m)^(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*"#
                + #"(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)"#, in: code)
    }

    /// Capitalized names that are not members (`.Name`): the types a file may use.
    static func usedNames(in code: String) -> [String] {
        Set(matches(#"(?<![\w.])([A-Z]\w*)"#, in: code)).sorted()
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// `source` without its comments and the text of its string literals (an interpolation's code is kept).
    static func code(of source: String) -> String {
        enum Context {
            case code(depth: Int)
            case text(multiline: Bool, hashes: Int)
        }
        let characters = Array(source)
        var output = ""
        var stack: [Context] = [.code(depth: 0)]
        var index = 0
        func starts(_ prefix: String, at position: Int) -> Bool {
            var position = position
            for character in prefix {
                guard position < characters.count, characters[position] == character else { return false }
                position += 1
            }
            return true
        }
        while index < characters.count {
            let character = characters[index]
            switch stack.last! {
            case .code(let depth):
                if starts("//", at: index) {
                    while index < characters.count && characters[index] != "\n" { index += 1 }
                } else if starts("/*", at: index) {
                    index =
                        (index + 2..<characters.count).first { starts("*/", at: $0) }.map { $0 + 2 }
                        ?? characters.count
                } else if character == "#" || character == "\"" {
                    var hashes = 0
                    while index + hashes < characters.count && characters[index + hashes] == "#" { hashes += 1 }
                    guard starts("\"", at: index + hashes) else {
                        output.append(character)
                        index += 1
                        continue
                    }
                    let multiline = starts("\"\"\"", at: index + hashes)
                    stack.append(.text(multiline: multiline, hashes: hashes))
                    index += hashes + (multiline ? 3 : 1)
                    output.append(" ")
                } else {
                    if character == "(" { stack[stack.count - 1] = .code(depth: depth + 1) }
                    if character == ")" {
                        if depth == 0 && stack.count > 1 {
                            stack.removeLast()
                            index += 1
                            continue
                        }
                        stack[stack.count - 1] = .code(depth: depth - 1)
                    }
                    output.append(character)
                    index += 1
                }
            case .text(let multiline, let hashes):
                let marks = String(repeating: "#", count: hashes)
                if starts((multiline ? "\"\"\"" : "\"") + marks, at: index) {
                    stack.removeLast()
                    index += (multiline ? 3 : 1) + hashes
                } else if starts("\\" + marks + "(", at: index) {
                    stack.append(.code(depth: 0))
                    index += hashes + 2
                    output.append(" ")
                } else {
                    index += starts("\\" + marks, at: index) ? 1 + hashes + 1 : 1
                }
            }
        }
        return output
    }
}
