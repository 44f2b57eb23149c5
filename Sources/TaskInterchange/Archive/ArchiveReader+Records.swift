import Foundation

extension ArchiveReader.Parser {
    typealias RecordMembers = ArchiveReader.RecordMembers

    /// Reads one record of `kind` at `index` and delivers it when its id is usable.
    mutating func readRecord(_ kind: RecordKind, index: Int) throws {
        switch kind {
        case .project: try readSectionRecord(ProjectRecord.self, .project, index: index)
        case .category: try readSectionRecord(CategoryRecord.self, .category, index: index)
        case .tag: try readSectionRecord(TagRecord.self, .tag, index: index)
        case .task: try readTask(index: index)
        case .subtask: preconditionFailure("subtasks have no section")
        }
    }

    /// Skips a record that is not wanted; for a task, its subtasks are still counted.
    mutating func skipRecord(_ kind: RecordKind) throws {
        guard kind == .task, try scanner.peekKind() == .object else {
            try scanner.skipValue()
            return
        }
        try scanner.beginObject()
        while try scanner.nextMember() {
            let key = try scanner.readKey()
            if key.equals("subtasks"), try scanner.peekKind() == .array {
                try scanner.beginArray()
                while try scanner.nextElement() {
                    found.subtasks += 1
                    try scanner.skipValue()
                }
            } else {
                try scanner.skipValue()
            }
        }
    }

    /// The id a record has until its `id` member is read (a record without one is not delivered).
    static var noID: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }

    /// A record being read: what `nextOwnMember` and `endRecord` keep between members.
    struct RecordReading {
        var tracker: MemberTracker
        let start: JSONScanner.Location
        let allowed: MemberSet
        var id: UUID?
    }

    /// Opens a record object, or reports that the element is not one and skips it (returning nil).
    private mutating func beginRecord(_ members: RecordMembers, _ path: @autoclosure () -> String) throws
        -> RecordReading?
    {
        let kind = try scanner.peekKind()
        let location = scanner.location
        guard kind == .object else {
            try reportWrongType("an object", found: kind, path(), at: location)
            return nil
        }
        try scanner.beginObject()
        // Version 1 knows fewer members, and only NDJSON lines carry `type`.
        var allowed = rules == .version1 ? members.version1 : members.all.subtracting(members.typeBit)
        if isNDJSON && members.all.contains(rawValue: RecordMembers.type) { allowed = allowed.union(members.typeBit) }
        return RecordReading(tracker: MemberTracker(names: members.packedNames), start: location, allowed: allowed)
    }

    /// Reads members up to the next one of the kind's own (returned by position), reading `id`, the fields (as the
    /// kind's table says) and `extra` into `record` on the way; nil after the object's end.
    private mutating func nextOwnMember<Record: TypedRecord>(
        _ members: RecordMembers, _ reading: inout RecordReading,
        into record: inout Record,
        in path: @autoclosure () -> String
    ) throws -> Int? {
        while let member = try nextMember(allowed: reading.allowed, in: path(), tracker: &reading.tracker) {
            switch member {
            case RecordMembers.type: try scanner.skipValue()
            case RecordMembers.id: reading.id = try readUUID(path() + ".id")
            case members.extra: record.extra = try readExtra(path() + ".extra")
            case members.key:
                record.key = try readInteger(path() + ".key", in: 1...Int64.max, rangeName: "1…\(Int64.max)").map(
                    Int64.init)
            case members.nulls: record.nulls = try readNulls(Record.self, path() + ".nulls")
            case RecordMembers.firstField..<members.fieldsEnd:
                let field = Record.layout[member - RecordMembers.firstField]
                try readField(field, into: &record, JSONPath.member(path(), field.name))
            default: return member - members.fieldsEnd
            }
        }
        return nil
    }

    /// Reports the required members the record lacks; the record with its id, or nil without a usable id.
    private mutating func endRecord<Record: TypedRecord>(
        _ members: RecordMembers, _ reading: RecordReading,
        _ record: Record, in path: @autoclosure () -> String
    ) throws -> Record? {
        let required = rules == .version1 ? members.requiredInVersion1 : members.required
        try reportMissing(
            names: members.names, required: required, seen: reading.tracker.seen, in: path(),
            at: reading.start)
        guard let id = reading.id else { return nil }
        var record = record
        record.id = id
        return record
    }

    /// Reads one field's value into `record`; a value of the wrong type is reported and leaves the field as it was.
    private mutating func readField<Record: TypedRecord>(
        _ field: FieldLayout<Record>, into record: inout Record,
        _ path: @autoclosure () -> String
    ) throws {
        switch field.access {
        case .text(let slot), .textOrDefault(let slot): if let value = try readString(path()) { record[slot] = value }
        case .optionalText(let slot): record[slot] = try readString(path(), nullable: true)
        case .flag(let slot): if let value = try readBool(path()) { record[slot] = value }
        case .date(let slot): if let value = try readDate(path()) { record[slot] = value }
        case .optionalDate(let slot): record[slot] = try readDate(path(), nullable: true)
        case .level(let slot, _):
            if let value = try readInteger(
                path(), in: Int64(Int16.min)...Int64(Int16.max), rangeName: "the Int16 range")
            {
                record[slot] = value
            }
        case .optionalInteger(let slot):
            if try scanner.peekKind() == .null {
                try scanner.readNull()
                record[slot] = nil
            } else {
                record[slot] = try readInteger(path(), in: Int64.min...Int64.max, rangeName: "the Int64 range")
            }
        }
    }

    /// A project, category or tag: members only from its table.
    private mutating func readSectionRecord<Record: SectionRecord>(
        _: Record.Type, _ members: RecordMembers,
        index: Int
    ) throws {
        // Paths are only built when an issue is reported.
        let kind = Record.kind
        guard var reading = try beginRecord(members, Self.recordPath(kind, index)) else { return }
        var record = Record(blank: Self.noID)
        while try nextOwnMember(members, &reading, into: &record, in: Self.recordPath(kind, index)) != nil {}
        guard let record = try endRecord(members, reading, record, in: Self.recordPath(kind, index)) else { return }
        try record.deliver(to: &visitor, index: index)
    }

    private mutating func readTask(index: Int) throws {
        // Paths are only built when an issue is reported.
        let members = RecordMembers.task
        guard var reading = try beginRecord(members, Self.recordPath(.task, index)) else { return }
        var task = TaskRecord(blank: Self.noID)
        while let own = try nextOwnMember(members, &reading, into: &task, in: Self.recordPath(.task, index)) {
            switch RecordMembers.TaskMember(rawValue: own)! {
            case .projectId: task.projectId = try readUUID(Self.recordPath(.task, index) + ".projectId", nullable: true)
            case .categoryId:
                task.categoryId = try readUUID(Self.recordPath(.task, index) + ".categoryId", nullable: true)
            case .tagIds: task.tagIds = try readTagIds(Self.recordPath(.task, index) + ".tagIds")
            case .subtasks: task.subtasks = try readSubtasks(Self.recordPath(.task, index) + ".subtasks")
            }
        }
        guard let task = try endRecord(members, reading, task, in: Self.recordPath(.task, index)) else { return }
        if index % 1_024 == 1_023 { try Cancellation.checkpoint() }
        try visitor.visitTask(task, index: index)
    }

    /// The usable UUIDs of a `tagIds` array; the others are reported.
    private mutating func readTagIds(_ path: @autoclosure () -> String) throws -> [UUID] {
        let kind = try scanner.peekKind()
        guard kind == .array else {
            try reportWrongType("an array of tag ids", found: kind, path(), at: scanner.location)
            return []
        }
        try scanner.beginArray()
        var tagIds: [UUID] = []
        var position = 0
        while try scanner.nextElement() {
            if let tagId = try readUUID(path() + "[\(position)]") { tagIds.append(tagId) }
            position += 1
        }
        return tagIds
    }

    /// The subtasks with a usable id; every element is counted.
    private mutating func readSubtasks(_ path: @autoclosure () -> String) throws -> [SubtaskRecord] {
        let kind = try scanner.peekKind()
        guard kind == .array else {
            try reportWrongType("an array of subtasks", found: kind, path(), at: scanner.location)
            return []
        }
        try scanner.beginArray()
        var subtasks: [SubtaskRecord] = []
        var position = 0
        while try scanner.nextElement() {
            found.subtasks += 1
            if let subtask = try readSubtask(path() + "[\(position)]") { subtasks.append(subtask) }
            position += 1
        }
        return subtasks
    }

    private mutating func readSubtask(_ path: @autoclosure () -> String) throws -> SubtaskRecord? {
        let members = RecordMembers.subtask
        guard var reading = try beginRecord(members, path()) else { return nil }
        var subtask = SubtaskRecord(blank: Self.noID)
        // The only own member is `position`.
        while try nextOwnMember(members, &reading, into: &subtask, in: path()) != nil {
            subtask.position = try readInteger(
                path() + ".position", in: Int64.min...Int64.max, rangeName: "the Int64 range"
            ).map(Int64.init)
        }
        return try endRecord(members, reading, subtask, in: path())
    }

    /// `nulls`: names of the kind's fields that need a value; another name is reported and left out.
    private mutating func readNulls<Record: TypedRecord>(_: Record.Type, _ path: @autoclosure () -> String) throws
        -> [String]?
    {
        let kind = try scanner.peekKind()
        guard kind == .array else {
            try reportWrongType("an array of field names", found: kind, path(), at: scanner.location)
            return nil
        }
        try scanner.beginArray()
        var names: [String] = []
        var position = 0
        while try scanner.nextElement() {
            let location = scanner.location
            if let name = try readString(path() + "[\(position)]") {
                if Record.layout.contains(where: { !$0.access.isOptional && $0.name == name }) {
                    if !names.contains(name) { names.append(name) }
                } else {
                    let required = Record.layout.filter { !$0.access.isOptional }.map(\.name)
                    try report(
                        .unknownField, path() + "[\(position)]",
                        "\"\(name)\" is not a \(Record.kind.rawValue) field that needs a value "
                            + "(\(required.joined(separator: ", "))); ignored",
                        at: location, severity: .warning)
                }
            }
            position += 1
        }
        return names.isEmpty ? nil : names
    }
}
