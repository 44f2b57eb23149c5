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
