import Foundation
import Testing
@testable import TaskInterchange

/// The DocC Essentials article shows code this target compiles (`EssentialsSnippets.swift`) and runs on the sample
/// store, so the article cannot drift from the API.
@Suite("Essentials article snippets")
struct EssentialsSnippetTests {
    static let article = SampleStores.repository.appendingPathComponent(
        "Sources/TaskInterchange/TaskInterchange.docc/Essentials.md")
    static let snippets = SampleStores.repository.appendingPathComponent(
        "Tests/TaskInterchangeTests/EssentialsSnippets.swift")

    /// Lines without their indentation: an article block is the body of a function here.
    static func unindented(_ text: Substring) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " } }.joined(separator: "\n")
    }

    @Test("every Swift block of the article (but the SwiftData one) is in EssentialsSnippets.swift, line for line")
    func articleShowsCompiledCode() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        let file = Self.unindented(Substring(try String(contentsOf: Self.snippets, encoding: .utf8)))
        var rest = Substring(article)
        var checked = 0
        while let start = rest.range(of: "```swift\n") {
            guard let end = rest[start.upperBound...].range(of: "```\n") else { break }
            let block = rest[start.upperBound..<end.lowerBound]
            rest = rest[end.upperBound...]
            if block.contains("import TaskGraphDestinations") { continue }  // SwiftData exists only on Apple systems
            #expect(file.contains(Self.unindented(block)), "not compiled:\n\(block)")
            checked += 1
        }
        #expect(checked == 7)
    }

    @Test("the snippets run on the sample store")
    func snippetsRun() async throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let everything = directory.path("all.json")
        _ = try await Exporter.export(store: store, toFile: everything)
        _ = try await exportStore(store, to: directory.path("recent.json"))
        #expect(try await essentialsValidate(everything).isValid)
        #expect(try await essentialsVerify(everything, against: store).isEqual)
        let options = try await essentialsImport(everything, into: store)
        #expect(FileManager.default.fileExists(atPath: store + ".backup"))
        let plan = try await essentialsOwnDestination(everything)
        #expect(plan.kinds["task"]?.inserted ?? 0 > 0)
        // `print(plan)` shows the plan as the command line does, not the struct's members.
        #expect(String(describing: plan).hasPrefix("  project: \(plan[.project].inserted) inserted"), "\(plan)")
        #expect(!String(describing: plan).contains("Operations("), "\(plan)")
        let report = try await essentialsMigrate(
            store, to: directory.path("new.sqlite"), backups: directory.path("backups"))
        #expect(FileManager.default.fileExists(atPath: report.backupPath))
        // The backup exists now: the same import refuses it, and the app's words replace the setting's name.
        var again = options
        again.mode = .replace
        again.kinds = [.task]
        let text = try await essentialsFailure(everything, into: store, options: again)
        #expect(text?.hasPrefix("the “Existing tasks” choice removes every record") == true, "\(text ?? "nil")")
    }
}
