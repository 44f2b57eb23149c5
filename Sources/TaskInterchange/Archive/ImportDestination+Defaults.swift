import Foundation

/// Defaults that make a fresh-start destination five `insert` methods long: nothing exists before the import, so
/// nothing is found, counted, updated or removed; the modes that need those throw instead of guessing.
extension ImportDestination {
    /// Nothing exists before a fresh start.
    /// - Throws: nothing by default.
    public mutating func existingKey(of kind: RecordKind, id: UUID) throws -> ObjectKey? { nil }

    /// Nothing exists before a fresh start.
    /// - Throws: nothing by default.
    public mutating func count(of kind: RecordKind) throws -> Int { 0 }

    /// - Throws: ``TaskInterchangeError`` of kind `.usage`: replace mode needs a destination that can remove objects.
    public mutating func removeAll() throws {
        throw Self.unsupported("remove objects (" + TaskInterchangeError.Setting.mode.name + " .replace)")
    }

    /// - Throws: `.usage`: only reached when `existingKey` finds objects, which the default never does.
    public mutating func update(_ project: ProjectRecord, at key: ObjectKey) throws {
        throw Self.unsupported("update a project")
    }

    /// - Throws: `.usage`, as `update(_:at:)` for projects.
    public mutating func update(_ category: CategoryRecord, at key: ObjectKey) throws {
        throw Self.unsupported("update a category")
    }

    /// - Throws: `.usage`, as `update(_:at:)` for projects.
    public mutating func update(_ tag: TagRecord, at key: ObjectKey) throws { throw Self.unsupported("update a tag") }

    /// - Throws: `.usage`, as `update(_:at:)` for projects.
    public mutating func update(_ task: TaskRecord, links: TaskLinks<ObjectKey>, at key: ObjectKey) throws {
        throw Self.unsupported("update a task")
    }

    /// - Throws: `.usage`, as `update(_:at:)` for projects.
    public mutating func update(_ subtask: SubtaskRecord, of task: ObjectKey, position: Int, at key: ObjectKey) throws {
        throw Self.unsupported("update a subtask")
    }

    /// - Throws: `.usage`, as `update(_:at:)` for projects.
    public mutating func removeSubtasks(of task: ObjectKey, keeping: Set<ObjectKey>) throws -> Int {
        throw Self.unsupported("remove subtasks")
    }

    /// - Throws: `.invalidData`: the archive carries a relationship under `extra` that this destination has no
    ///   place for; nothing is dropped silently.
    public mutating func link(
        _ kind: RecordKind, _ key: ObjectKey, relationship: String,
        _ declaration: ExtraRelationship, to destinations: [ObjectKey], replacing: Bool
    ) throws {
        throw TaskInterchangeError(
            .invalidData,
            "\(kind.rawValue).\(relationship): the archive carries this "
                + "relationship under extra, and the destination \(Self.self) has no place for it")
    }

    /// Nothing to save: a destination that writes through needs no commit.
    /// - Throws: nothing by default.
    public mutating func commit() throws {}

    /// Nothing to undo by default; a destination that saves as it goes must undo its saves here.
    /// - Throws: nothing by default.
    public mutating func rollback() throws {}

    /// Not readable by default: a migration then skips its verification and says so.
    /// - Throws: nothing by default.
    public mutating func contents() throws -> Archive? { nil }

    private static func unsupported(_ action: String) -> TaskInterchangeError {
        TaskInterchangeError(
            .usage,
            "the destination \(Self.self) cannot \(action); "
                + "it supports a fresh start (insert mode) only")
    }
}
