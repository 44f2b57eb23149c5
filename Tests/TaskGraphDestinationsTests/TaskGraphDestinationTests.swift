import Foundation
import Testing
@testable import TaskGraphDestinations
@testable import TaskInterchange
@testable import tasks

/// The SwiftData/Core Data adapter driven against a fake context of the same shape: the sample store's archive and
/// a generated store of 100k tasks, batched saves, rollback of saved batches, and the migration's stages with it.
@Suite("TaskGraphDestination over a fake context")
struct TaskGraphDestinationTests {
    static let repository: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static func sample(_ name: String) -> String { repository.appendingPathComponent("samples/\(name)").path }

    /// A fresh directory, removed when the value goes away.
    final class Scratch {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tasks-graph-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func file(_ name: String) -> String { path + "/" + name }
    }

    @Test("the sample archive: every record, link and subtask order read back equal; saved in batches of 10 tasks")
    func sampleArchive() async throws {
        let context = FakeTaskContext()
        let plan = try await Importer().run(
            archiveAt: Self.sample("TaskManager.v2.json"),
            into: {
                TaskGraphDestination(context: context, batchSize: 10)
            })
        #expect(plan[.task].inserted == 44 && plan[.subtask].inserted == 84 && plan[.project].inserted == 5)
        let destination = TaskGraphDestination(context: context)
        let contents = try #require(try destination.contents())
        let diff = try await GraphComparison.compare(
            .archive(path: Self.sample("TaskManager.v2.json")),
            .records(contents, name: "fake context"))
        #expect(diff.isEqual, "\(diff.records.prefix(3))")
        // 44 tasks: four full batches saved as the fifth starts, then the commit.
        #expect(context.saveCalls == 5)
        #expect(context.mostPendingTasks == 10)
        let withSubtasks = try #require(context.saved.tasks.first { $0.subtasks.count > 1 })
        #expect(withSubtasks.subtasks.map(\.position).sorted() == Array(0..<withSubtasks.subtasks.count))
    }

    @Test("a save that fails mid-import rolls back: the batches already saved are deleted, nothing is pending")
    func failedSaveRollsBack() async throws {
        let context = FakeTaskContext(fault: .failingSave(3))
        await #expect(throws: FakeTaskContext.SaveFailed.self) {
            _ = try await Importer().run(
                archiveAt: Self.sample("TaskManager.v2.json"),
                into: {
                    TaskGraphDestination(context: context, batchSize: 10)
                })
        }
        #expect(context.saveCalls == 3)
        #expect(context.savedCount == 0 && context.pendingCount == 0)
    }

    @Test("extra values the model has no place for are counted, not dropped silently")
    func extrasCounted() throws {
        var archive = Archive()
        var task = TaskRecord(id: UUID(), title: "t", createdAt: Date(timeIntervalSinceReferenceDate: 1))
        task.extra = ["estimate": .integer(3)]
        archive.tasks = [task]
        var destination = TaskGraphDestination(context: FakeTaskContext())
        _ = try Importer().run(archive, into: &destination)
        #expect(destination.extraValuesNotWritten == ["task.estimate": 1])
    }

    @Test("every field of each kind's field table is written into the objects and read back, or counted as not held")
    func fieldTablesCovered() {
        typealias Destination = TaskGraphDestination<FakeTaskContext>
        func check<Record: TypedRecord>(_: Record.Type, held: [String], notHeld: [String]) {
            let table = Record.fields.map(\.name)
            #expect(Set(held).isDisjoint(with: notHeld), "\(Record.kind)")
            #expect(held.count + notHeld.count == table.count, "\(Record.kind)")
            #expect(Set(held + notHeld) == Set(table), "\(Record.kind): the destination lists \(held + notHeld)")
        }
        check(
            ProjectRecord.self, held: Destination.projectFields.map(\.name),
            notHeld: Destination.projectFieldsNotHeld.map(\.name))
        check(CategoryRecord.self, held: Destination.categoryFields.map(\.name), notHeld: [])
        check(TagRecord.self, held: Destination.tagFields.map(\.name), notHeld: [])
        check(
            TaskRecord.self, held: Destination.taskFields.map(\.name),
            notHeld: Destination.taskFieldsNotHeld.map(\.name))
        check(SubtaskRecord.self, held: Destination.subtaskFields.map(\.name), notHeld: [])
    }

    @Test("each held field's value reaches the object and comes back; a modification date is counted, not written")
    func heldFieldsRoundTrip() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12_345.25)
        var project = ProjectRecord(id: UUID(), name: "p", createdAt: date)
        project.modifiedAt = date
        var task = TaskRecord(
            id: UUID(), title: "t", notes: "n", isCompleted: true, createdAt: date, dueDate: date.addingTimeInterval(1),
            priority: 3, projectId: project.id,
            subtasks: [SubtaskRecord(id: UUID(), title: "s", isCompleted: true)])
        task.modifiedAt = date
        var archive = Archive()
        archive.projects = [project]
        archive.categories = [CategoryRecord(id: UUID(), name: "c", color: "red")]
        archive.tags = [TagRecord(id: UUID(), name: "g")]
        task.categoryId = archive.categories[0].id
        task.tagIds = [archive.tags[0].id]
        archive.tasks = [task]
        var destination = TaskGraphDestination(context: FakeTaskContext())
        _ = try Importer().run(archive, into: &destination)
        try destination.commit()
        #expect(destination.fieldValuesNotWritten == ["project.modifiedAt": 1, "task.modifiedAt": 1])
        var expected = archive
        expected.projects[0].modifiedAt = nil
        expected.tasks[0].modifiedAt = nil
        let contents = try #require(try destination.contents())
        #expect(contents.projects == expected.projects)
        #expect(contents.categories == expected.categories)
        #expect(contents.tags == expected.tags)
        #expect(contents.tasks == expected.tasks)
    }
}
