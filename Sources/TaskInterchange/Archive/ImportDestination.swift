import Foundation

/// Where an import rebuilds the object graph: the Core Data store built in, an in-memory graph for tests, or an app's
/// own SwiftData/Core Data context.
///
/// The importer owns the ID maps (archive id → `ObjectKey`) and calls these methods in graph order: projects,
/// categories and tags first, then each task with its links resolved through the maps, then the task's subtasks.
///
/// A destination for a fresh start (an empty context) implements only the five `insert` methods: every other
/// requirement has a default (see `ImportDestination+Defaults.swift`) that suits an empty destination. Implement
/// `existingKey`, the `update` methods and `removeSubtasks` to support the upsert, skip and merge modes, `count` and
/// `removeAll` for replace, `link` for relationships carried under `extra`, `commit`/`rollback` to save and undo, and
/// `contents` so a migration can verify what was written.
public protocol ImportDestination {
    /// How the destination names an object (a primary key, a persistent identifier, an object reference).
    associatedtype ObjectKey: Hashable

    /// Makes everything inserted so far permanent (saves the context); called once, after the last record.
    /// - Throws: the destination's error when it cannot save; the import then rolls back.
    mutating func commit() throws
    /// Undoes everything this import wrote, committed or not: called when the import fails, is cancelled, or its
    /// verification fails, so the destination is left as it was.
    /// - Throws: the destination's error when it cannot undo (the destination may then hold part of the import).
    mutating func rollback() throws
    /// The destination's graph read back as an archive, for verification; nil when it cannot be read back.
    /// - Throws: the destination's error when it cannot be read.
    mutating func contents() throws -> Archive?

    /// The object that already carries `id`, if any.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func existingKey(of kind: RecordKind, id: UUID) throws -> ObjectKey?
    /// How many objects of a kind exist (for the replace plan).
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func count(of kind: RecordKind) throws -> Int
    /// Removes every object (replace mode): of the interchange's kinds and of every generic entity.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func removeAll() throws

    /// Inserts a project.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func insert(_ project: ProjectRecord) throws -> ObjectKey
    /// Overwrites an existing project's fields.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func update(_ project: ProjectRecord, at key: ObjectKey) throws
    /// Inserts a category.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func insert(_ category: CategoryRecord) throws -> ObjectKey
    /// Overwrites an existing category's fields.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func update(_ category: CategoryRecord, at key: ObjectKey) throws
    /// Inserts a tag.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func insert(_ tag: TagRecord) throws -> ObjectKey
    /// Overwrites an existing tag's fields.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func update(_ tag: TagRecord, at key: ObjectKey) throws
    /// Inserts a task (without its subtasks) with its links.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func insert(_ task: TaskRecord, links: TaskLinks<ObjectKey>) throws -> ObjectKey
    /// Overwrites an existing task's fields and replaces its links.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func update(_ task: TaskRecord, links: TaskLinks<ObjectKey>, at key: ObjectKey) throws
    /// Inserts a subtask at `position` of `task`'s ordered subtasks.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func insert(_ subtask: SubtaskRecord, of task: ObjectKey, position: Int) throws -> ObjectKey
    /// Overwrites an existing subtask and moves it to `position` of `task`.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func update(_ subtask: SubtaskRecord, of task: ObjectKey, position: Int, at key: ObjectKey) throws
    /// Removes the subtasks of `task` that are not in `keeping`; returns how many were removed.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func removeSubtasks(of task: ObjectKey, keeping: Set<ObjectKey>) throws -> Int
    /// Sets a relationship the interchange has no field for (declared in the archive's `source.relationships`) on the
    /// object at `key` to `destinations`, in order, once every record exists. `replacing` is true for an object that
    /// existed before the import: its current destinations for this relationship are dropped first.
    /// - Throws: the destination's own error; the import stops and the destination is rolled back.
    mutating func link(
        _ kind: RecordKind, _ key: ObjectKey, relationship: String, _ declaration: ExtraRelationship,
        to destinations: [ObjectKey], replacing: Bool) throws

    // Generic records: defaults in `ImportDestination+Entities.swift` take nothing.

    /// How many generic objects each entity has, by entity (for the replace plan).
    mutating func countOfEntities() throws -> [String: Int]
    /// The generic object of `entity` (or a sub-entity) that already carries `id`, if any.
    mutating func existingKey(ofEntity entity: String, id: UUID) throws -> ObjectKey?
    /// Inserts a generic record's object with its attributes (its relationships come through `link`); nil when the
    /// destination has no such entity.
    mutating func insert(_ record: EntityRecord, declaration: EntityDeclaration) throws -> ObjectKey?
    /// Overwrites an existing generic object's attributes.
    mutating func update(_ record: EntityRecord, declaration: EntityDeclaration, at key: ObjectKey) throws
    /// Sets a generic object's relationship to `destinations` in order (`positions`: the stored positions of an
    /// ordered one, when the archive has them), once every record exists; `replacing` drops its current links first.
    mutating func link(
        entity: String, _ key: ObjectKey, relationship: String, _ declaration: EntityRelationship,
        to destinations: [ObjectKey], positions: [Int64]?, replacing: Bool) throws
    /// `Entity.property` → values the destination had no place for, counted since the last call.
    mutating func lackingProperties() -> [String: Int]
    /// Creates a table the app added outside its model (when the destination lacks it) and writes its rows, as
    /// `mode` says (``ImportMode/replace`` empties it first); returns what was done with the rows (`inserted`,
    /// `unchanged`: identical rows already there, `skipped`, `deleted`), or nil when the destination has no place
    /// for raw tables. `path` is the table's place in the archive, for errors.
    mutating func insert(_ table: RawTable, path: String, mode: ImportMode) throws -> ImportOperations?
}

/// A task's links, already resolved to destination keys.
public struct TaskLinks<Key: Hashable>: Hashable {
    /// The project, if any.
    public var project: Key?
    /// The category, if any.
    public var category: Key?
    /// The tags, in archive order.
    public var tags: [Key]

    /// Creates links.
    public init(project: Key? = nil, category: Key? = nil, tags: [Key] = []) {
        self.project = project
        self.category = category
        self.tags = tags
    }
}

extension TaskLinks: Sendable where Key: Sendable {}
