import Foundation
import Testing
@testable import TaskInterchange

@Suite("Synthetic archive")
struct SyntheticArchiveTests {
    static func collect(_ archive: SyntheticArchive) throws -> Archive {
        var collector = ArchiveCollector()
        try archive.stream(kinds: nil, into: &collector)
        return collector.archive
    }

    @Test("the same seed gives the same valid graph; another seed other ids")
    func deterministic() throws {
        let first = try Self.collect(SyntheticArchive(tasks: 30, seed: 7))
        let again = try Self.collect(SyntheticArchive(tasks: 30, seed: 7))
        let other = try Self.collect(SyntheticArchive(tasks: 30, seed: 8))
        #expect(first.tasks == again.tasks && first.projects == again.projects && first.tags == again.tags)
        #expect(Set(first.tasks.map(\.id)).isDisjoint(with: other.tasks.map(\.id)))
        #expect(first.projects.count == 100 && first.tags.count == 20 && first.tasks.count == 30)
        #expect(first.tasks.reduce(0) { $0 + $1.subtasks.count } == 9)
        var validator = Validator()
        try SyntheticArchive(tasks: 30, seed: 7).stream(kinds: nil, into: &validator)
        #expect(validator.report.isValid && validator.report.counts.subtasks == 9)
    }

    @Test("makeStore builds a new store and never lands in an existing file")
    func makeStore() throws {
        let directory = try TemporaryDirectory()
        let result = try SyntheticArchive(tasks: 12, seed: 1).makeStore(at: directory.path("new.sqlite"))
        #expect(result.createdStore && result.plan[.task].inserted == 12)
        let existing = directory.path("existing.sqlite")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        #expect(throws: TaskInterchangeError(.cannotCreate, "\(existing): already exists")) {
            try SyntheticArchive(tasks: 1, seed: 1).makeStore(at: existing)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("keep me".utf8))
    }
}
