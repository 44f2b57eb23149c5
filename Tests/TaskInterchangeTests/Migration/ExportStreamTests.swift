import Foundation
import Testing
@testable import TaskInterchange

/// `ExportStream`: the records of an export handed over without a file, the import's two passes from one read.
@Suite("Export stream")
struct ExportStreamTests {
    /// The records an export file of `store` holds, read back.
    static func exported(_ store: String, in directory: TemporaryDirectory) throws -> ArchiveCollector {
        let file = directory.path("export.json")
        _ = try Exporter.export(store: store, toFile: file)
        var collector = ArchiveCollector()
        try ArchiveInput(path: file).stream(kinds: nil, into: &collector)
        return collector
    }

    @Test(
        "the referenced kinds, then the tasks with the generic records: the records of the export file, in one read",
        arguments: ["TaskManager.sqlite", "Journal-v1.sqlite"])
    func twoPasses(sample: String) throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy(sample, to: directory)
        let file = try Self.exported(store, in: directory)
        let stream = try ExportStream(store: store, options: ExportOptions(), inPlace: false)
        var referenced = ArchiveCollector()
        try stream.stream(kinds: [.project, .category, .tag], into: &referenced)
        #expect(stream.summary == nil, "the read ended after the first pass")
        var rest = ArchiveCollector()
        try stream.stream(kinds: [.task], into: &rest)
        #expect(referenced.archive.projects == file.archive.projects)
        #expect(referenced.archive.categories == file.archive.categories)
        #expect(referenced.archive.tags == file.archive.tags)
        #expect(referenced.archive.tasks.isEmpty && referenced.archive.entities.isEmpty)
        #expect(rest.archive.projects.isEmpty && rest.archive.tags.isEmpty)
        #expect(rest.archive.tasks == file.archive.tasks)
        #expect(rest.archive.entities == file.archive.entities)
        #expect(rest.archive.tables == file.archive.tables)
        #expect(rest.declaredCounts == file.declaredCounts && stream.summary?.counts == file.declaredCounts)
        #expect(file.archive.tasks.count + file.archive.entities.count > 0, "the sample exports nothing")
    }

    @Test("a pass asking again for records already handed out reads the store again, whole")
    func readsAgain() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let file = try Self.exported(store, in: directory)
        let stream = try ExportStream(store: store, options: ExportOptions(), inPlace: false)
        var first = ArchiveCollector()
        try stream.stream(kinds: [.project, .category, .tag], into: &first)
        var whole = ArchiveCollector()
        try stream.stream(kinds: nil, into: &whole)
        #expect(whole.archive.projects == file.archive.projects && whole.archive.tasks == file.archive.tasks)
        #expect(whole.archive.tasks.count == 44)
        // Stopped half-way by its reader, the next read starts over too.
        var stopping = StopAfterFirstTask()
        #expect(throws: StopAfterFirstTask.Stop.self) { try stream.stream(kinds: nil, into: &stopping) }
        var again = ArchiveCollector()
        try stream.stream(kinds: [.task], into: &again)
        #expect(again.archive.tasks == file.archive.tasks)
    }

    /// A visitor that fails at the first task.
    struct StopAfterFirstTask: ArchiveVisitor {
        struct Stop: Error {}
        mutating func visitProject(_ project: ProjectRecord, index: Int) {}
        mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
        mutating func visitTag(_ tag: TagRecord, index: Int) {}
        mutating func visitTask(_ task: TaskRecord, index: Int) throws { throw Stop() }
        mutating func visitIssue(_ issue: ValidationIssue) {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}
    }

    @Test("a date the archive format cannot hold: left out with the export's finding, counted as the export counts")
    func unrepresentableDate() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let database = try Database(path: store, mode: .readWrite)
        try database.execute("UPDATE ZTASK SET ZCREATEDAT = 1e300 WHERE Z_PK = (SELECT min(Z_PK) FROM ZTASK)")
        let exported = try Exporter.export(store: store, toFile: directory.path("out.json"))
        let stream = try ExportStream(store: store, options: ExportOptions(), inPlace: false)
        var collector = ArchiveCollector()
        try stream.stream(kinds: nil, into: &collector)
        let summary = try #require(stream.summary)
        #expect(!exported.findings.isEmpty)
        #expect(summary.findings.map(\.message) == exported.findings.map(\.message))
        #expect(summary.counts == exported.counts && collector.archive.tasks.count == exported.counts.tasks)
    }
}
