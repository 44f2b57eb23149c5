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
            if !source.model.isEmpty { writeModel(source.model) }
            if !source.maxKeys.isEmpty {
                key("maxKeys")
                openObject(breaksLines: false)
                for (entity, maxKey) in source.maxKeys.sorted(by: { $0.key < $1.key }) {
                    key(dynamic: entity)
                    output.appendInteger(Int(maxKey))
                }
                close()
            }
            if let selection = source.selection { writeSelection(selection) }
            close()
        }
        if isNDJSON {
            close()
            output.appendByte(UInt8(ascii: "\n"))
        }
    }

    /// `source.selection`: `{"kinds": ["task"], "completion": "completed"}`, lists sorted, as `ExportSelection`
    /// encodes it.
    private mutating func writeSelection(_ selection: ExportSelection) {
        key("selection")
        openObject(breaksLines: false)
        func list(_ name: StaticString, _ items: [String]) {
            key(name)
            openArray(breaksLines: false)
            for item in items {
                element()
                output.appendString(item)
            }
            close()
        }
        if let kinds = selection.recordedKinds { list("kinds", kinds.sorted().map(\.rawValue)) }
        if let entities = selection.entities { list("entities", entities.sorted()) }
        if !selection.excludedEntities.isEmpty { list("excludedEntities", selection.excludedEntities.sorted()) }
        if let project = selection.project {
            key("project")
            output.appendString(project)
        }
        if let completion = selection.completion {
            key("completion")
            output.appendString(completion.rawValue)
        }
        if let since = selection.since, let text = try? LosslessDate.string(from: since) {
            key("since")
            output.appendString(text)
        }
        close()
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
                writeDeclaration(
                    destination: declaration.destination.rawValue, toMany: declaration.toMany,
                    ordered: declaration.ordered, inverse: declaration.inverse)
            }
            close()
        }
        close()
    }

    /// One relationship's declaration: `{destination, toMany, ordered, inverse?}`.
    mutating func writeDeclaration(destination: String, toMany: Bool, ordered: Bool, inverse: String?) {
        openObject(breaksLines: false)
        key("destination")
        output.appendString(destination)
        key("toMany")
        output.appendBool(toMany)
        key("ordered")
        output.appendBool(ordered)
        if let inverse {
            key("inverse")
            output.appendString(inverse)
        }
        close()
    }

    /// A project, category or tag: `id`, `key`, its fields, `nulls` and `extra` (version 2).
    mutating func writeRecord<Record: TypedRecord>(_ record: Record) throws {
        openRecord(record)
        try closeRecord(record)
    }

    /// `{id, key?, title, …fields, projectId?, categoryId?, tagIds, subtasks, nulls?, extra?}`; version 1:
    /// `{id, title, isCompleted, createdAt, priority, projectId?, tagIds}`.
    mutating func writeTask(_ task: TaskRecord) throws {
        openRecord(task)
        if let projectId = task.projectId {
            key("projectId")
            appendUUID(projectId)
        }
        guard options.formatVersion >= 2 else {
            writeTagIds(task.tagIds)
            close()
            return
        }
        if let categoryId = task.categoryId {
            key("categoryId")
            appendUUID(categoryId)
        }
        writeTagIds(task.tagIds)
        key("subtasks")
        openArray(breaksLines: false)
        for subtask in task.subtasks {
            openRecord(subtask)
            try closeRecord(subtask)
        }
        close()
        try closeRecord(task)
    }

    /// Opens a record and writes its `id` and fields, as its kind's table lists them: those version 1 has, with
    /// dates as seconds since 2001 (`JSONEncoder`'s default `deferredToDate`), in a version 1 file.
    private mutating func openRecord<Record: TypedRecord>(_ record: Record) {
        if Record.kind == .subtask {
            // Inside its task, also on an NDJSON line: no `type`.
            element()
            openObject(breaksLines: false)
        } else {
            beginRecord(type: Record.kind.quotedName)
        }
        key("id")
        appendUUID(record.id)
        let version1 = options.formatVersion == 1
        if !version1, let storeKey = record.key {
            key("key")
            output.appendInteger(Int(storeKey))
        }
        if !version1, Record.kind == .subtask, let position = (record as? SubtaskRecord)?.position {
            key("position")
            output.appendInteger(Int(position))
        }
        for field in Record.layout where !version1 || field.inVersion1 {
            switch field.access {
            case .text(let slot), .textOrDefault(let slot):
                key(field.member)
                output.appendString(record[slot])
            case .optionalText(let slot):
                guard let text = record[slot] else { continue }
                key(field.member)
                output.appendString(text)
            case .flag(let slot):
                key(field.member)
                output.appendBool(record[slot])
            case .date(let slot):
                key(field.member)
                appendDate(record[slot], version1: version1)
            case .optionalDate(let slot):
                guard let date = record[slot] else { continue }
                key(field.member)
                appendDate(date, version1: version1)
            case .level(let slot, _):
                key(field.member)
                output.appendInteger(record[slot])
            case .optionalInteger(let slot):
                guard let value = record[slot] else { continue }
                key(field.member)
                output.appendInteger(value)
            }
        }
    }

    /// Writes `nulls` and `extra` (version 2 only) and closes the record.
    private mutating func closeRecord<Record: TypedRecord>(_ record: Record) throws {
        if options.formatVersion >= 2 {
            if let nulls = record.nulls, !nulls.isEmpty {
                key("nulls")
                openArray(breaksLines: false)
                for name in nulls {
                    element()
                    output.appendString(name)
                }
                close()
            }
            try writeExtra(record.extra)
        }
        close()
    }

    private mutating func appendDate(_ date: Date, version1: Bool) {
        guard version1 else { return appendLosslessDate(date) }
        // Checked finite by `checkFields`.
        try? output.appendDouble(date.timeIntervalSinceReferenceDate)
    }

    /// Before anything of the record is written: every date it has must be writable (lossless text in version 2, a
    /// finite number in version 1) and a version 1 level must fit its Int16; version 1 counts the fields it drops.
    mutating func checkFields<Record: TypedRecord>(of record: Record) throws(ArchiveWritingError) {
        let version1 = options.formatVersion == 1
        func what(_ field: FieldLayout<Record>) -> String {
            "\(Record.kind.rawValue) \(record.id.uuidString): \(field.name)"
        }
        for field in Record.layout {
            var date: Date?
            var isPresent = true
            switch field.access {
            case .date(let slot): date = record[slot]
            case .optionalDate(let slot):
                date = record[slot]
                isPresent = date != nil
            case .optionalText(let slot): isPresent = record[slot] != nil
            case .level(let slot, _):
                let value = record[slot]
                if version1, field.inVersion1, Int16(exactly: value) == nil {
                    throw .unrepresentable("\(what(field)) \(value) does not fit the Int16 of format version 1")
                }
            case .optionalInteger(let slot): isPresent = record[slot] != nil
            case .text, .textOrDefault, .flag: break
            }
            if version1 && !field.inVersion1 {
                if isPresent { droppedFields["\(Record.kind.rawValue).\(field.name)", default: 0] += 1 }
            } else if let date {
                if version1 {
                    try checkNumericDate(date, what(field))
                } else {
                    try checkLosslessDate(date, what(field))
                }
            }
        }
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
        if counts.entities > 0 {
            key("entities")
            output.appendInteger(counts.entities)
        }
        close()
    }

    /// Opens a record: an array element in documents, a line with its `type` first in NDJSON.
    mutating func beginRecord(type: StaticString) {
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
