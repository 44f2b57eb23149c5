import Foundation
import Testing
@testable import TaskInterchange

@Suite("Validator")
struct ValidatorTests {
    func validate(_ archive: Archive, existing: Validator.ExistingIDs? = nil) throws -> ValidationReport {
        var validator = Validator(existing: existing)
        try archive.stream(kinds: nil, into: &validator)
        return validator.report
    }

    @Test("a generated archive is valid", arguments: 0..<10)
    func valid(seed: UInt64) throws {
        #expect(try validate(ArchiveGenerator.archive(seed: seed)).isValid)
    }

    @Test("every referential problem is reported with its JSON path")
    func referentialProblems() throws {
        let tag = TagRecord(id: UUID(), name: "t")
        var archive = Archive(tags: [tag, tag])
        archive.tasks = [
            TaskRecord(
                id: UUID(), title: "a", createdAt: Date(), priority: 7, projectId: UUID(), categoryId: UUID(),
                tagIds: [tag.id, tag.id, UUID()])
        ]
        let report = try validate(archive)
        let found = Set(report.issues.map { "\($0.code.rawValue) \($0.path)" })
        #expect(
            found == [
                "duplicate-id $.tags[1].id", "priority-out-of-range $.tasks[0].priority",
                "missing-project $.tasks[0].projectId",
                "missing-category $.tasks[0].categoryId", "duplicate-tag-reference $.tasks[0].tagIds[1]",
                "missing-tag $.tasks[0].tagIds[2]",
            ])
        #expect(report.errorCount == 6)
    }

    @Test("issues past the cap are counted, not listed")
    func cap() throws {
        var archive = Archive()
        archive.tasks = (0..<250).map { _ in TaskRecord(id: UUID(), title: "x", createdAt: Date(), priority: 9) }
        let report = try validate(archive)
        #expect(report.issues.count == 100)
        #expect(report.errorCount == 250)
        #expect(report.omittedCount == 150)
    }

    @Test("ids already in the target are errors only when the mode says so")
    func existing() throws {
        let archive = ArchiveGenerator.archive(seed: 1)
        let project = try #require(archive.projects.first)
        #expect(
            try validate(archive, existing: .init(ids: [.project: [project.id]], existingIsError: true)).issues.map(
                \.path) == ["$.projects[0].id"])
        #expect(try validate(archive, existing: .init(ids: [.project: [project.id]], existingIsError: false)).isValid)
    }
}
