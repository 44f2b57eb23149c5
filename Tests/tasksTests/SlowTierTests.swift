import Foundation
import Testing

/// The slow tier is the suites tagged `.slow` (`.ci/run` runs `--filter tag:slow`): a suite whose loops read `Tiers`
/// without the tag would never run at full length. This reads every test source and finds the suites that read it,
/// directly or through another suite's static (`SignalTests.count`), their extensions in other files included.
@Suite("The slow tier")
struct SlowTierTests {
    /// A top-level declaration of a test file: what it declares or extends, its text, and the attributes before it.
    struct Block {
        let owner: String
        let declares: Bool
        let attributes: String
        let text: String
    }

    /// The top-level declarations of every test source (`Fixtures/` holds generated files, not tests).
    static func blocks() throws -> [Block] {
        let tests = TasksBinary.repository.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        let start = try Regex(#"^(?:public |final |private |fileprivate )*(struct|class|enum|actor|extension) (\w+)"#)
        var blocks: [Block] = []
        for case let path as String in enumerator where path.hasSuffix(".swift") && !path.contains("/Fixtures/") {
            let lines = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
                .components(separatedBy: "\n")
            var attributes: [String] = []
            var current: (owner: String, declares: Bool, attributes: String, lines: [String])?
            for line in lines {
                if let match = line.firstMatch(of: start) {
                    if let block = current {
                        blocks.append(
                            Block(
                                owner: block.owner, declares: block.declares, attributes: block.attributes,
                                text: block.lines.joined(separator: "\n")))
                    }
                    let kind = String(match.output[1].substring ?? "")
                    let owner = String(match.output[2].substring ?? "")
                    current = (owner, kind != "extension", attributes.joined(separator: "\n"), [line])
                    attributes = []
                } else if line.hasPrefix("@") || (!attributes.isEmpty && line.hasPrefix(" ")) {
                    attributes.append(line)
                } else {
                    current?.lines.append(line)
                    if !line.hasPrefix("///") { attributes = [] }
                }
            }
            if let block = current {
                blocks.append(
                    Block(
                        owner: block.owner, declares: block.declares, attributes: block.attributes,
                        text: block.lines.joined(separator: "\n")))
            }
        }
        return blocks
    }

    /// The types whose code reads the slow setting: `Tiers.` in their own code, or a static of another type that
    /// is computed from it.
    static func readers(of blocks: [Block]) throws -> Set<String> {
        let staticProperty = try Regex(#"static (?:let|var) (\w+)"#)
        let setting = try Regex(#"\bTiers\.(?:count|slow)\b"#)
        var derived: [String] = []
        for block in blocks {
            for line in block.text.components(separatedBy: "\n") where line.contains(setting) {
                if let match = line.firstMatch(of: staticProperty) {
                    derived.append("\(block.owner).\(match.output[1].substring ?? "")")
                }
            }
        }
        return Set(
            blocks.filter { block in
                block.text.contains(setting) || derived.contains { block.text.contains($0) }
            }.map(\.owner))
    }

    @Test("every suite that reads the slow setting carries the .slow tag")
    func readersAreTagged() throws {
        let blocks = try Self.blocks()
        let readers = try Self.readers(of: blocks)
        // The check finds the suites it must: a direct reader, one through an extension in another file, and one
        // through another suite's static.
        #expect(readers.isSuperset(of: ["CrashSafetyTests", "GenericEntityPropertyTests", "MigrateSignalTests"]))
        for reader in readers.sorted() {
            let declaration = blocks.first { $0.declares && $0.owner == reader }
            #expect(declaration?.attributes.contains(".tags(.slow)") == true, "\(reader) reads Tiers without .slow")
        }
    }

    @Test("the slow tier's filter (.ci/slow-suites) names every suite tagged .slow, and only those")
    func filterFollowsTag() throws {
        let script = TasksBinary.repository.appendingPathComponent(".ci/slow-suites").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 .ci/slow-suites exited \(process.terminationStatus)")
        let listed = Set(
            String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                .split(separator: "|").map(String.init))
        let tagged = Set(
            try Self.blocks().filter { $0.declares && $0.attributes.contains(".tags(.slow)") }.map(\.owner))
        #expect(tagged.count >= 12)
        #expect(listed == tagged)
    }
}
