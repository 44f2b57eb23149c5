import Foundation
import Testing
@testable import TaskInterchange

/// The README's library example is `ReadmeLibrarySnippet.swift`, which this target compiles; this checks that the
/// README shows exactly that file, and runs it on the sample store.
@Suite("README library snippet")
struct ReadmeSnippetTests {
    static let repository = SampleStores.repository

    @Test("the README's swift block under 'As a library' is ReadmeLibrarySnippet.swift, verbatim")
    func readmeShowsTheCompiledFile() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## As a library\n"))
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```swift\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```\n"))
        let snippet = String(rest[start.upperBound..<end.lowerBound])
        let snippetFile = Self.repository.appendingPathComponent(
            "Tests/TaskInterchangeTests/ReadmeLibrarySnippet.swift")
        let file = try String(contentsOf: snippetFile, encoding: .utf8)
        #expect(snippet == file)
    }

    @Test("the snippet's functions work on the sample store")
    func snippetRuns() async throws {
        let directory = try TemporaryDirectory()
        let legacy = try MigrationTests.sampleStore(in: directory)
        #expect(try await exportAndCheck(store: legacy, to: directory.path("tasks.json")))
        let backup = try await migrateLegacyStore(
            at: URL(fileURLWithPath: legacy),
            to: directory.url.appendingPathComponent("new.sqlite"),
            backups: directory.url)
        #expect(FileManager.default.fileExists(atPath: backup))
    }
}
