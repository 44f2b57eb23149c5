import Foundation
import Testing
@testable import TaskInterchange

/// The kinds' field tables: what mapping files, archives and the per-row code read from them.
@Suite("Field tables")
struct FieldTableTests {
    @Test("mapping fields keep the order mapping files and 'tasks inspect' have always listed; new ones may join")
    func mappingOrder() {
        // A field added to a table joins these lists; the fields already there keep their order (a mapping file's
        // field order is fixed), and the modification date stays last.
        func keepsOrder(_ kind: RecordKind, _ listed: [String]) {
            #expect(kind.fields.filter(listed.contains) == listed, "\(kind)")
            if listed.last == "modifiedAt" { #expect(kind.fields.last == "modifiedAt", "\(kind)") }
        }
        keepsOrder(.project, ["id", "name", "createdAt", "modifiedAt"])
        keepsOrder(.category, ["id", "name", "color"])
        keepsOrder(.tag, ["id", "name"])
        keepsOrder(.task, ["id", "title", "notes", "isCompleted", "createdAt", "dueDate", "priority", "modifiedAt"])
        keepsOrder(.subtask, ["id", "title", "isCompleted"])
        #expect(RecordKind.sections == [.project, .category, .tag, .task])
    }

    @Test("each field's layout reads and writes the property its table entry names")
    func layoutsAddressTheirProperties() {
        var task = TaskRecord(blank: UUID())
        for field in TaskRecord.layout {
            switch field.access {
            case .text(let slot), .textOrDefault(let slot): task[slot] = "v-\(field.name)"
            case .optionalText(let slot): task[slot] = "o-\(field.name)"
            case .flag(let slot): task[slot] = true
            case .date(let slot): task[slot] = Date(timeIntervalSinceReferenceDate: Double(field.name.utf8.count))
            case .optionalDate(let slot):
                task[slot] = Date(timeIntervalSinceReferenceDate: Double(100 + field.name.utf8.count))
            case .level(let slot, _): task[slot] = 3
            case .optionalInteger(let slot): task[slot] = 7
            }
        }
        #expect(task.title == "v-title")
        #expect(task.notes == "o-notes")
        #expect(task.isCompleted)
        #expect(task.createdAt == Date(timeIntervalSinceReferenceDate: 9))
        #expect(task.dueDate == Date(timeIntervalSinceReferenceDate: 107))
        #expect(task.modifiedAt == Date(timeIntervalSinceReferenceDate: 110))
        #expect(task.priority == 3)
        #expect(task[FieldSlot(\TaskRecord.title)] == "v-title")
        var category = CategoryRecord(blank: UUID())
        #expect(category.color == CategoryRecord.defaultColor)
        category[FieldSlot(\CategoryRecord.color)] = "red"
        #expect(category.color == "red" && category.name == "")
    }

    @Test("the archive members each kind requires and version 1 allows come from its table")
    func members() {
        func names(_ set: ArchiveReader.MemberSet, _ members: ArchiveReader.RecordMembers) -> [String] {
            members.names.indices.filter { set.contains(rawValue: $0) }.map { members.names[$0] }
        }
        let task = ArchiveReader.RecordMembers.task
        #expect(
            names(task.required, task) == ["id", "title", "isCompleted", "createdAt", "priority", "tagIds", "subtasks"])
        #expect(
            names(task.requiredInVersion1, task) == ["id", "title", "isCompleted", "createdAt", "priority", "tagIds"])
        #expect(
            names(task.version1, task) == [
                "id", "title", "isCompleted", "createdAt", "priority", "projectId", "tagIds",
            ])
        let project = ArchiveReader.RecordMembers.project
        #expect(names(project.required, project) == ["id", "name"])
        #expect(
            names(project.all, project) == ["type", "id", "name", "createdAt", "modifiedAt", "key", "nulls", "extra"])
        let category = ArchiveReader.RecordMembers.category
        #expect(names(category.required, category) == ["id", "name", "color"])
        #expect(names(category.version1, category).isEmpty)
        let subtask = ArchiveReader.RecordMembers.subtask
        #expect(names(subtask.all, subtask) == ["id", "title", "isCompleted", "position", "key", "nulls", "extra"])
    }

    @Test("only the modification date is a kind's modification date")
    func modificationDate() {
        #expect(ProjectRecord.modificationDate?.name == "modifiedAt")
        #expect(TaskRecord.modificationDate?.name == "modifiedAt")
        #expect(CategoryRecord.modificationDate == nil && TagRecord.modificationDate == nil)
        #expect(SubtaskRecord.modificationDate == nil)
    }
}
