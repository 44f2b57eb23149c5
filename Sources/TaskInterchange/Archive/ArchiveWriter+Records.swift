import Foundation

extension ArchiveWriter {
    /// The version 2 header: the document's opening and first members, or the NDJSON header line.
    mutating func writeHeaderV2(_ header: ArchiveHeader) throws {
        let isNDJSON = options.layout == .ndjson
        openObject(breaksLines: true)
        if isNDJSON {
            key("type")
            output.appendRaw("\"header\"")
        }
        key("format")
        output.appendString(ArchiveHeader.formatName)
        key("version")
        output.appendInteger(2)
        if let exportDate = header.exportDate {
            key("exportDate")
            appendLosslessDate(exportDate)
        }
        if let generator = header.generator {
            key("generator")
            openObject(breaksLines: false)
            key("name")
            output.appendString(generator.name)
            key("version")
            output.appendString(generator.version)
            close()
        }
        if let source = header.source {
            key("source")
            openObject(breaksLines: false)
            key("store")
            output.appendString(source.store)
            if let storeUUID = source.storeUUID {
                key("storeUUID")
                output.appendString(storeUUID)
            }
            key("entities")
            openObject(breaksLines: false)
            for (kind, entity) in source.entities.sorted(by: { $0.key < $1.key }) {
                // A member whose name is data, not fixed text: the separator is the same as an element's.
                element()
                output.appendString(kind)
                output.appendRaw(options.layout == .pretty ? ": " : ":")
                output.appendString(entity)
            }
            close()
            if !source.relationships.isEmpty { writeRelationships(source.relationships) }
            if let selection = source.selection {
                key("selection")
                output.appendString(selection)
            }
            close()
        }
        if isNDJSON {
            close()
            output.appendByte(UInt8(ascii: "\n"))
        }
    }

    /// `source.relationships`: kind → property → `{destination, toMany, ordered, inverse?}`, names sorted.
    private mutating func writeRelationships(_ relationships: [String: [String: ExtraRelationship]]) {
        key("relationships")
        openObject(breaksLines: false)
        for (kind, properties) in relationships.sorted(by: { $0.key < $1.key }) {
            key(dynamic: kind)
            openObject(breaksLines: false)
            for (property, declaration) in properties.sorted(by: { $0.key < $1.key }) {
                key(dynamic: property)
                openObject(breaksLines: false)
                key("destination")
                output.appendString(declaration.destination.rawValue)
                key("toMany")
                output.appendBool(declaration.toMany)
                key("ordered")
                output.appendBool(declaration.ordered)
                if let inverse = declaration.inverse {
                    key("inverse")
                    output.appendString(inverse)
                }
                close()
            }
            close()
        }
        close()
    }

    /// `{id, name, createdAt?, modifiedAt?}`.
    mutating func writeProject(_ project: ProjectRecord) {
        beginRecord(type: "\"project\"")
        key("id")
        appendUUID(project.id)
        key("name")
        output.appendString(project.name)
        if let createdAt = project.createdAt {
            key("createdAt")
            appendLosslessDate(createdAt)
        }
        if let modifiedAt = project.modifiedAt {
            key("modifiedAt")
            appendLosslessDate(modifiedAt)
        }
        writeExtra(project.extra)
        close()
    }

    /// `{id, name, color}`.
    mutating func writeCategory(_ category: CategoryRecord) {
        beginRecord(type: "\"category\"")
        key("id")
        appendUUID(category.id)
        key("name")
        output.appendString(category.name)
        key("color")
        output.appendString(category.color)
        writeExtra(category.extra)
        close()
    }

    /// `{id, name}`, the same in both versions.
    mutating func writeTag(_ tag: TagRecord) {
        beginRecord(type: "\"tag\"")
        key("id")
        appendUUID(tag.id)
        key("name")
        output.appendString(tag.name)
        if options.formatVersion >= 2 { writeExtra(tag.extra) }
        close()
    }

    /// `{id, title, notes?, isCompleted, createdAt, dueDate?, modifiedAt?, priority, projectId?, categoryId?, tagIds, subtasks}`.
    mutating func writeTask(_ task: TaskRecord) {
        beginRecord(type: "\"task\"")
        key("id")
        appendUUID(task.id)
        key("title")
        output.appendString(task.title)
        if let notes = task.notes {
            key("notes")
            output.appendString(notes)
        }
        key("isCompleted")
        output.appendBool(task.isCompleted)
        key("createdAt")
        appendLosslessDate(task.createdAt)
        if let dueDate = task.dueDate {
            key("dueDate")
            appendLosslessDate(dueDate)
        }
        if let modifiedAt = task.modifiedAt {
            key("modifiedAt")
            appendLosslessDate(modifiedAt)
        }
        key("priority")
        output.appendInteger(task.priority)
        if let projectId = task.projectId {
            key("projectId")
            appendUUID(projectId)
        }
        if let categoryId = task.categoryId {
            key("categoryId")
            appendUUID(categoryId)
        }
        writeTagIds(task.tagIds)
        key("subtasks")
        openArray(breaksLines: false)
        for subtask in task.subtasks {
            element()
            openObject(breaksLines: false)
            key("id")
            appendUUID(subtask.id)
            key("title")
            output.appendString(subtask.title)
            key("isCompleted")
            output.appendBool(subtask.isCompleted)
            writeExtra(subtask.extra)
            close()
        }
        close()
        writeExtra(task.extra)
        close()
    }

    /// Version 1 `ProjectExport {id, name}`.
    mutating func writeProjectV1(_ project: ProjectRecord) {
        element()
        openObject(breaksLines: false)
        key("id")
        appendUUID(project.id)
        key("name")
        output.appendString(project.name)
        close()
    }

    /// Version 1 `TaskExport {id, title, isCompleted, createdAt, priority, projectId?, tagIds}`, dates as seconds
    /// since 2001 (`JSONEncoder`'s default `deferredToDate`).
    mutating func writeTaskV1(_ task: TaskRecord) {
        element()
        openObject(breaksLines: false)
        key("id")
        appendUUID(task.id)
        key("title")
        output.appendString(task.title)
        key("isCompleted")
        output.appendBool(task.isCompleted)
        key("createdAt")
        // Checked finite by write(task:).
        try? output.appendDouble(task.createdAt.timeIntervalSinceReferenceDate)
        key("priority")
        output.appendInteger(task.priority)
        if let projectId = task.projectId {
            key("projectId")
            appendUUID(projectId)
        }
        writeTagIds(task.tagIds)
        close()
    }

    /// `{projects, categories, tags, tasks, subtasks}` on one line.
    mutating func writeCounts() {
        openObject(breaksLines: false)
        key("projects")
        output.appendInteger(counts.projects)
        key("categories")
        output.appendInteger(counts.categories)
        key("tags")
        output.appendInteger(counts.tags)
        key("tasks")
        output.appendInteger(counts.tasks)
        key("subtasks")
        output.appendInteger(counts.subtasks)
        close()
    }

    /// Opens a record: an array element in documents, a line with its `type` first in NDJSON.
    private mutating func beginRecord(type: StaticString) {
        if options.layout != .ndjson { element() }
        openObject(breaksLines: false)
        if options.layout == .ndjson {
            key("type")
            output.appendRaw(type)
        }
    }

    private mutating func writeTagIds(_ tagIds: [UUID]) {
        key("tagIds")
        openArray(breaksLines: false)
        for tagId in tagIds {
            element()
            appendUUID(tagId)
        }
        close()
    }
}
