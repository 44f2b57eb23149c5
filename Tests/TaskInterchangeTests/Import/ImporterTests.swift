import Foundation
import Testing
@testable import TaskInterchange

@Suite("Importer")
struct ImporterTests {
    @Test("the graph rebuilt in memory equals the archive", arguments: 0..<20)
    func memoryRoundTrip(seed: UInt64) throws {
        let archive = ArchiveGenerator.archive(seed: seed)
        var destination = MemoryDestination()
        let plan = try Importer().run(archive, into: &destination)
        #expect(destination.archive.tasks == archive.tasks)
        #expect(destination.archive.projects == archive.projects)
        #expect(plan[.task].inserted == archive.tasks.count)
        #expect(plan[.subtask].inserted == archive.counts.subtasks)
    }

    @Test("a task listed before its project (version 1 key order) still links, because references go second")
    func referencesResolvedInSecondPass() throws {
        let project = ProjectRecord(id: UUID(), name: "p")
        let task = TaskRecord(
            id: UUID(), title: "t", createdAt: Date(timeIntervalSinceReferenceDate: 0), projectId: project.id)
        struct TasksFirst: ArchiveSource {
            var project: ProjectRecord
            var task: TaskRecord
            func stream(kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor) throws {
                if kinds?.contains(.task) ?? true { try visitor.visitTask(task, index: 0) }
                if kinds?.contains(.project) ?? true { try visitor.visitProject(project, index: 0) }
                try visitor.visitEnd(header: ArchiveHeader(), counts: nil)
            }
        }
        var destination = MemoryDestination()
        _ = try Importer().run(TasksFirst(project: project, task: task), into: &destination)
        #expect(destination.archive.tasks.first?.projectId == project.id)
    }

    @Test("an export's order is read once for both passes; a document that lists tasks first is read twice, alike")
    func onePassInExportOrder() throws {
        let archive = ArchiveGenerator.archive(seed: 5)
        try #require(!archive.tags.isEmpty && archive.tasks.contains { !$0.tagIds.isEmpty })
        let exported = String(decoding: try archive.jsonData(), as: UTF8.self)
        // The same document with its tasks member moved ahead of the projects (each member starts a line).
        var lines = exported.split(separator: "\n", omittingEmptySubsequences: false)
        let tasksLine = try #require(lines.firstIndex(of: #""tasks":["#))
        let countsLine = try #require(lines.firstIndex { $0.hasPrefix(#""counts":"#) })
        let tasks = lines[tasksLine..<countsLine]
        lines.removeSubrange(tasksLine..<countsLine)
        lines.insert(contentsOf: tasks, at: try #require(lines.firstIndex(of: #""projects":["#)))
        let reordered = lines.joined(separator: "\n")
        final class Reads { var count = 0 }
        for (text, expectedReads) in [(exported, 1), (reordered, 2)] {
            let input = ArchiveInput(bytes: Array(text.utf8))
            #expect(input.listsReferencedKindsFirst() == (expectedReads == 1))
            let reads = Reads()
            input.readObserver = { _, done, _ in if done == 0 { reads.count += 1 } }
            var destination = MemoryDestination()
            var validator = Validator()
            let plan = try Importer().run(input, into: &destination, validatingWith: &validator)
            #expect(reads.count == expectedReads)
            #expect(validator.report.isValid, "\(validator.report.issues)")
            #expect(validator.report.counts.tasks == archive.tasks.count)
            #expect(plan[.task].inserted == archive.tasks.count)
            #expect(destination.archive.tasks == archive.tasks)
            #expect(destination.archive.tags == archive.tags)
            #expect(destination.archive.projects == archive.projects)
        }
    }

    @Test("an unresolvable reference stops the import with its path")
    func danglingReference() throws {
        var archive = Archive()
        archive.tasks = [TaskRecord(id: UUID(), title: "t", createdAt: Date(), tagIds: [UUID()])]
        var destination = MemoryDestination()
        let error = try #require(throws: TaskInterchangeError.self) { try Importer().run(archive, into: &destination) }
        #expect(error.message.hasPrefix("$.tasks[0].tagIds[0]"))
    }

    @Test("upsert replaces a task's subtasks with the archive's, in order")
    func upsertSubtasks() throws {
        var archive = ArchiveGenerator.archive(seed: 3)
        try #require(!archive.tasks.isEmpty)
        var destination = MemoryDestination()
        _ = try Importer().run(archive, into: &destination)
        let kept = SubtaskRecord(id: UUID(), title: "kept")
        archive.tasks[0].subtasks = [SubtaskRecord(id: UUID(), title: "first"), kept]
        let plan = try Importer(mode: .upsert).run(archive, into: &destination)
        #expect(destination.archive.tasks[0].subtasks.map(\.title) == ["first", "kept"])
        #expect(plan[.task].updated == archive.tasks.count)
    }
}
