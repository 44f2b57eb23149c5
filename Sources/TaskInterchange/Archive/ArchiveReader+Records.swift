import Foundation

extension ArchiveReader.Parser {
    typealias ProjectMember = ArchiveReader.ProjectMember
    typealias CategoryMember = ArchiveReader.CategoryMember
    typealias TagMember = ArchiveReader.TagMember
    typealias TaskMember = ArchiveReader.TaskMember
    typealias SubtaskMember = ArchiveReader.SubtaskMember

    /// Reads one record of `kind` at `index` and delivers it when its id is usable.
    mutating func readRecord(_ kind: RecordKind, index: Int) throws {
        switch kind {
        case .project: try readProject(index: index)
        case .category: try readCategory(index: index)
        case .tag: try readTag(index: index)
        case .task: try readTask(index: index)
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

    /// The members allowed in a record: version 1 knows fewer, and only NDJSON lines carry `type`.
    private func allowed<M: ArchiveReader.Member>(_: M.Type, version1: MemberSet, type: M) -> MemberSet {
        let typeBit = MemberSet(bits: 1 << UInt32(type.rawValue))
        var allowed = rules == .version1 ? version1 : MemberSet.all(M.self).subtracting(typeBit)
        if isNDJSON { allowed = allowed.union(typeBit) }
        return allowed
    }

    /// Opens a record object, or reports that the element is not one and skips it (returning nil).
    private mutating func beginRecord(_ path: @autoclosure () -> String) throws -> JSONScanner.Location? {
        let kind = try scanner.peekKind()
        let location = scanner.location
        guard kind == .object else {
            try reportWrongType("an object", found: kind, path(), at: location)
            return nil
        }
        try scanner.beginObject()
        return location
    }

    private mutating func readProject(index: Int) throws {
        // Paths are only built when an issue is reported.
        let kind = RecordKind.project
        guard let start = try beginRecord(Self.recordPath(kind, index)) else { return }
        var tracker = MemberTracker(ProjectMember.self)
        var id: UUID?
        var name: String?
        var createdAt: Date?
        var modifiedAt: Date?
        var extra: [String: ExtraValue]?
        let allowed = allowed(ProjectMember.self, version1: ProjectMember.version1, type: .type)
        while let member = try nextMember(ProjectMember.self, allowed: allowed, in: Self.recordPath(kind, index), tracker: &tracker) {
            switch member {
            case .id: id = try readUUID(Self.recordPath(kind, index) + ".id")
            case .name: name = try readString(Self.recordPath(kind, index) + ".name")
            case .createdAt: createdAt = try readDate(Self.recordPath(kind, index) + ".createdAt", nullable: true)
            case .modifiedAt: modifiedAt = try readDate(Self.recordPath(kind, index) + ".modifiedAt", nullable: true)
            case .type: try scanner.skipValue()
            case .extra: extra = try readExtra(Self.recordPath(kind, index) + ".extra")
            }
        }
        try reportMissing(ProjectMember.self, required: ProjectMember.required, seen: tracker.seen,
                          in: Self.recordPath(kind, index), at: start)
        guard let uuid = id else { return }
        var project = ProjectRecord(id: uuid, name: name ?? "", createdAt: createdAt)
        project.extra = extra
        project.modifiedAt = modifiedAt
        try visitor.visitProject(project, index: index)
    }

    private mutating func readCategory(index: Int) throws {
        // Paths are only built when an issue is reported.
        let kind = RecordKind.category
        guard let start = try beginRecord(Self.recordPath(kind, index)) else { return }
        var tracker = MemberTracker(CategoryMember.self)
        var id: UUID?
        var name: String?
        var color: String?
        var extra: [String: ExtraValue]?
        let allowed = allowed(CategoryMember.self, version1: MemberSet(), type: .type)
        while let member = try nextMember(CategoryMember.self, allowed: allowed, in: Self.recordPath(kind, index), tracker: &tracker) {
            switch member {
            case .id: id = try readUUID(Self.recordPath(kind, index) + ".id")
            case .name: name = try readString(Self.recordPath(kind, index) + ".name")
            case .color: color = try readString(Self.recordPath(kind, index) + ".color")
            case .type: try scanner.skipValue()
            case .extra: extra = try readExtra(Self.recordPath(kind, index) + ".extra")
            }
        }
        try reportMissing(CategoryMember.self, required: CategoryMember.required,
                          seen: tracker.seen, in: Self.recordPath(kind, index), at: start)
        guard let uuid = id else { return }
        var category = CategoryRecord(id: uuid, name: name ?? "", color: color ?? CategoryRecord.defaultColor)
        category.extra = extra
        try visitor.visitCategory(category, index: index)
    }

    private mutating func readTag(index: Int) throws {
        // Paths are only built when an issue is reported.
        let kind = RecordKind.tag
        guard let start = try beginRecord(Self.recordPath(kind, index)) else { return }
        var tracker = MemberTracker(TagMember.self)
        var id: UUID?
        var name: String?
        var extra: [String: ExtraValue]?
        let allowed = allowed(TagMember.self, version1: TagMember.version1, type: .type)
        while let member = try nextMember(TagMember.self, allowed: allowed, in: Self.recordPath(kind, index), tracker: &tracker) {
            switch member {
            case .id: id = try readUUID(Self.recordPath(kind, index) + ".id")
            case .name: name = try readString(Self.recordPath(kind, index) + ".name")
            case .type: try scanner.skipValue()
            case .extra: extra = try readExtra(Self.recordPath(kind, index) + ".extra")
            }
        }
        try reportMissing(TagMember.self, required: TagMember.required, seen: tracker.seen, in: Self.recordPath(kind, index),
                          at: start)
        guard let uuid = id else { return }
        var tag = TagRecord(id: uuid, name: name ?? "")
        tag.extra = extra
        try visitor.visitTag(tag, index: index)
    }

    private mutating func readTask(index: Int) throws {
        // Paths are only built when an issue is reported.
        let kind = RecordKind.task
        guard let start = try beginRecord(Self.recordPath(kind, index)) else { return }
        var tracker = MemberTracker(TaskMember.self)
        var id: UUID?
        var title: String?
        var notes: String?
        var isCompleted: Bool?
        var createdAt: Date?
        var dueDate: Date?
        var modifiedAt: Date?
        var priority: Int?
        var projectId: UUID?
        var categoryId: UUID?
        var tagIds: [UUID] = []
        var subtasks: [SubtaskRecord] = []
        var extra: [String: ExtraValue]?
        let allowed = allowed(TaskMember.self, version1: TaskMember.version1, type: .type)
        while let member = try nextMember(TaskMember.self, allowed: allowed, in: Self.recordPath(kind, index), tracker: &tracker) {
            switch member {
            case .id: id = try readUUID(Self.recordPath(kind, index) + ".id")
            case .title: title = try readString(Self.recordPath(kind, index) + ".title")
            case .notes: notes = try readString(Self.recordPath(kind, index) + ".notes", nullable: true)
            case .isCompleted: isCompleted = try readBool(Self.recordPath(kind, index) + ".isCompleted")
            case .createdAt: createdAt = try readDate(Self.recordPath(kind, index) + ".createdAt")
            case .dueDate: dueDate = try readDate(Self.recordPath(kind, index) + ".dueDate", nullable: true)
            case .modifiedAt: modifiedAt = try readDate(Self.recordPath(kind, index) + ".modifiedAt", nullable: true)
            case .priority:
                priority = try readInteger(Self.recordPath(kind, index) + ".priority", in: Int64(Int16.min)...Int64(Int16.max),
                                           rangeName: "the Int16 range")
            case .projectId: projectId = try readUUID(Self.recordPath(kind, index) + ".projectId", nullable: true)
            case .categoryId: categoryId = try readUUID(Self.recordPath(kind, index) + ".categoryId", nullable: true)
            case .tagIds: tagIds = try readTagIds(Self.recordPath(kind, index) + ".tagIds")
            case .subtasks: subtasks = try readSubtasks(Self.recordPath(kind, index) + ".subtasks")
            case .type: try scanner.skipValue()
            case .extra: extra = try readExtra(Self.recordPath(kind, index) + ".extra")
            }
        }
        let required = rules == .version1 ? TaskMember.requiredInVersion1 : TaskMember.required
        try reportMissing(TaskMember.self, required: required, seen: tracker.seen, in: Self.recordPath(kind, index), at: start)
        guard let uuid = id else { return }
        var task = TaskRecord(id: uuid, title: title ?? "", notes: notes,
                              isCompleted: isCompleted ?? false,
                              createdAt: createdAt ?? Date(timeIntervalSinceReferenceDate: 0),
                              dueDate: dueDate, priority: priority ?? 0, projectId: projectId,
                              categoryId: categoryId, tagIds: tagIds, subtasks: subtasks)
        task.extra = extra
        task.modifiedAt = modifiedAt
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
        guard let start = try beginRecord(path()) else { return nil }
        var tracker = MemberTracker(SubtaskMember.self)
        var id: UUID?
        var title: String?
        var isCompleted: Bool?
        var extra: [String: ExtraValue]?
        let allowed = rules == .version1 ? SubtaskMember.required : MemberSet.all(SubtaskMember.self)
        while let member = try nextMember(SubtaskMember.self, allowed: allowed, in: path(), tracker: &tracker) {
            switch member {
            case .id: id = try readUUID(path() + ".id")
            case .title: title = try readString(path() + ".title")
            case .isCompleted: isCompleted = try readBool(path() + ".isCompleted")
            case .extra: extra = try readExtra(path() + ".extra")
            }
        }
        try reportMissing(SubtaskMember.self, required: SubtaskMember.required, seen: tracker.seen, in: path(), at: start)
        guard let uuid = id else { return nil }
        var subtask = SubtaskRecord(id: uuid, title: title ?? "", isCompleted: isCompleted ?? false)
        subtask.extra = extra
        return subtask
    }
}
