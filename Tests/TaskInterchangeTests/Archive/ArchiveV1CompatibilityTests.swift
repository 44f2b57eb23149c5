import Foundation
import Testing
@testable import TaskInterchange

/// The widely copied `DataExporter` format (Core Data → SwiftData "fresh start"), as Foundation encodes it.
private struct ExportData: Codable, Equatable {
    let version: Int
    let exportDate: Date
    let projects: [ProjectExport]
    let tasks: [TaskExport]
    let tags: [TagExport]
}

private struct ProjectExport: Codable, Equatable {
    let id: UUID
    let name: String
}

private struct TagExport: Codable, Equatable {
    let id: UUID
    let name: String
}

private struct TaskExport: Codable, Equatable {
    let id: UUID
    let title: String
    let isCompleted: Bool
    let createdAt: Date
    let priority: Int16
    let projectId: UUID?
    let tagIds: [UUID]
}

@Suite struct ArchiveV1CompatibilityTests {
    @Test(
        "version 1 output decodes with a default JSONDecoder into the DataExporter structs, bit for bit",
        arguments: [ArchiveWritingOptions.Layout.compact, .pretty])
    func decodableByFoundation(layout: ArchiveWritingOptions.Layout) throws {
        let archive = ArchiveFixtures.random(seed: 21, tasks: 100)
        let buffer = ByteBuffer()
        var writer = try ArchiveWriter(sink: buffer, options: ArchiveWritingOptions(formatVersion: 1, layout: layout))
        try writer.begin(header: archive.header)
        for project in archive.projects { try writer.write(project: project) }
        for category in archive.categories { try writer.write(category: category) }
        for tag in archive.tags { try writer.write(tag: tag) }
        for task in archive.tasks { try writer.write(task: task) }
        let counts = try writer.finish()

        let decoded = try JSONDecoder().decode(ExportData.self, from: Data(buffer.bytes))
        #expect(decoded.version == 1)
        #expect(
            decoded.exportDate.timeIntervalSinceReferenceDate.bitPattern
                == archive.header.exportDate!.timeIntervalSinceReferenceDate.bitPattern)
        #expect(decoded.projects == archive.projects.map { ProjectExport(id: $0.id, name: $0.name) })
        #expect(decoded.tags == archive.tags.map { TagExport(id: $0.id, name: $0.name) })
        #expect(
            decoded.tasks
                == archive.tasks.map {
                    TaskExport(
                        id: $0.id, title: $0.title, isCompleted: $0.isCompleted, createdAt: $0.createdAt,
                        priority: Int16($0.priority), projectId: $0.projectId, tagIds: $0.tagIds)
                })
        #expect(
            decoded.tasks.map { $0.createdAt.timeIntervalSinceReferenceDate.bitPattern }
                == archive.tasks.map { $0.createdAt.timeIntervalSinceReferenceDate.bitPattern })
        #expect(counts == ArchiveCounts(projects: 20, categories: 0, tags: 10, tasks: 100, subtasks: 0))
        #expect(writer.droppedFields["categories"] == 5)
        #expect(writer.droppedFields["task.subtasks"] == archive.counts.subtasks)
        #expect(writer.droppedFields["task.notes"] == archive.tasks.filter { $0.notes != nil }.count)
        #expect(writer.droppedFields["task.dueDate"] == archive.tasks.filter { $0.dueDate != nil }.count)
        #expect(writer.droppedFields["task.categoryId"] == archive.tasks.filter { $0.categoryId != nil }.count)
        #expect(writer.droppedFields["project.createdAt"] == archive.projects.filter { $0.createdAt != nil }.count)

        // And it reads back into the same records, less what version 1 cannot hold.
        let collector = try ArchiveFixtures.collect(buffer.bytes)
        #expect(collector.issues.isEmpty, "\(collector.issues.prefix(3))")
        #expect(collector.archive.header.version == 1)
        #expect(collector.archive.tasks.map(\.id) == archive.tasks.map(\.id))
    }

    @Test("a document written by JSONEncoder is read into the same records")
    func readsFoundationOutput() throws {
        var generator = SeededGenerator(state: 99)
        let projects = (0..<5).map { index in ProjectExport(id: UUID(), name: "Project \(index) \"ü\"") }
        let tags = (0..<4).map { index in TagExport(id: UUID(), name: "tag/\(index)") }
        var tasks: [TaskExport] = []
        for index in 0..<50 {
            let seconds = Double.random(in: -1e9...1e9, using: &generator)
            let projectId: UUID? = index % 2 == 0 ? projects[index % 5].id : nil
            let tagIds: [UUID] = index % 5 == 0 ? [tags[0].id, tags[1].id] : []
            tasks.append(
                TaskExport(
                    id: UUID(), title: "Task \(index)\n\u{1}", isCompleted: index % 3 == 0,
                    createdAt: Date(timeIntervalSinceReferenceDate: seconds),
                    priority: Int16(index % 4), projectId: projectId, tagIds: tagIds))
        }
        let export = ExportData(
            version: 1, exportDate: Date(timeIntervalSinceReferenceDate: 757_382_400.123_456_7),
            projects: projects, tasks: tasks, tags: tags)
        let collector = try ArchiveFixtures.collect(Array(try JSONEncoder().encode(export)))
        #expect(collector.issues.isEmpty, "\(collector.issues.prefix(3))")
        let archive = collector.archive
        #expect(archive.header.version == 1)
        #expect(archive.header.format == nil)
        #expect(
            archive.header.exportDate?.timeIntervalSinceReferenceDate.bitPattern
                == export.exportDate.timeIntervalSinceReferenceDate.bitPattern)
        #expect(archive.projects == projects.map { ProjectRecord(id: $0.id, name: $0.name) })
        #expect(archive.tags == tags.map { TagRecord(id: $0.id, name: $0.name) })
        #expect(
            archive.tasks
                == tasks.map {
                    TaskRecord(
                        id: $0.id, title: $0.title, isCompleted: $0.isCompleted, createdAt: $0.createdAt,
                        priority: Int($0.priority), projectId: $0.projectId, tagIds: $0.tagIds)
                })
    }

    @Test("version 1 accepts ISO-8601 dates (JSONEncoder's .iso8601 strategy) as well as numbers")
    func iso8601Strategy() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let task = TaskExport(
            id: UUID(), title: "t", isCompleted: false,
            createdAt: Date(timeIntervalSinceReferenceDate: 725_803_200), priority: 1, projectId: nil,
            tagIds: [])
        let export = ExportData(
            version: 1, exportDate: Date(timeIntervalSinceReferenceDate: 0), projects: [],
            tasks: [task], tags: [])
        let collector = try ArchiveFixtures.collect(Array(try encoder.encode(export)))
        #expect(collector.issues.isEmpty)
        #expect(collector.archive.tasks.first?.createdAt == task.createdAt)
    }

    @Test("version 1 keys may come in any order, even version last")
    func versionLast() throws {
        let id = ArchiveFixtures.uuid("A")
        let text = """
            {"tasks":[{"id":"\(id.uuidString)","title":"t","isCompleted":true,"createdAt":12.5,"priority":3,"tagIds":[]}],
            "tags":[],"projects":[],"exportDate":-0.0,"version":1}
            """
        let collector = try ArchiveFixtures.collect(text)
        #expect(collector.issues.isEmpty, "\(collector.issues)")
        #expect(collector.archive.tasks.first?.createdAt.timeIntervalSinceReferenceDate == 12.5)
        #expect(collector.archive.header.exportDate?.timeIntervalSinceReferenceDate.sign == .minus)
    }
}
