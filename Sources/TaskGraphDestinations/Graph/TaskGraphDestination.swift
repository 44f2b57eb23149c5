import Foundation
import TaskInterchange

/// An `ImportDestination` that writes the interchange's graph into an app's own model objects through a
/// `TaskGraphContext`: the adapter an app needs for a fresh-start migration to SwiftData or Core Data.
///
/// The importer makes two passes through ID maps: projects, categories and tags first (their objects become the
/// keys), then each task with its project, category and tags resolved through those keys, then its subtasks in
/// order. The context is saved every `batchSize` tasks, so memory stays bounded; `rollback()` undoes unsaved changes
/// and deletes, by id, every object this import saved, so a failed or cancelled migration leaves the store as it was.
///
/// Values under a record's `extra` (properties the interchange has no field for) have no place in this model: they
/// are counted in `extraValuesNotWritten`, never dropped silently; so are the values of the interchange's fields the
/// model has no property for (modification dates), in `fieldValuesNotWritten`.
public final class TaskGraphDestination<Context: TaskGraphContext>: ImportDestination {
    /// An object this destination made, compared by identity.
    public struct Key: Hashable {
        /// The object.
        public let object: AnyObject

        init(_ object: AnyObject) { self.object = object }

        /// Identity, not value.
        public static func == (lhs: Key, rhs: Key) -> Bool { lhs.object === rhs.object }

        /// Hashes the object's identity.
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
    }

    /// The context written through.
    public let context: Context
    /// How many tasks (with their subtasks) go into one `save()`.
    public let batchSize: Int
    /// How many times the context was saved (batches and the final commit).
    public private(set) var saves = 0
    /// `extra` values not written, by `kind.property`, with how many records carried one.
    public private(set) var extraValuesNotWritten: [String: Int] = [:]
    /// Values of interchange fields the objects have no property for, by `kind.field`, with how many records carried
    /// one.
    public private(set) var fieldValuesNotWritten: [String: Int] = [:]
    private var inserted: [StoreMapping.Kind: Set<UUID>] = [:]
    private var tasksInBatch = 0

    /// Creates the adapter over `context`, saving every `batchSize` tasks.
    public init(context: Context, batchSize: Int = 1_000) {
        self.context = context
        self.batchSize = max(1, batchSize)
    }

    /// Makes a project from `project`.
    /// - Throws: what the context throws.
    public func insert(_ project: ProjectRecord) throws -> Key {
        try context.performAndWait {
            let object = try context.makeProject()
            object.id = project.id
            for field in Self.projectFields { field.write(project, object) }
            count(project, Self.projectFieldsNotHeld, .project)
            record(.project, project.id, extra: project.extra)
            return Key(object)
        }
    }

    /// Makes a category from `category`.
    /// - Throws: what the context throws.
    public func insert(_ category: CategoryRecord) throws -> Key {
        try context.performAndWait {
            let object = try context.makeCategory()
            object.id = category.id
            for field in Self.categoryFields { field.write(category, object) }
            record(.category, category.id, extra: category.extra)
            return Key(object)
        }
    }

    /// Makes a tag from `tag`.
    /// - Throws: what the context throws.
    public func insert(_ tag: TagRecord) throws -> Key {
        try context.performAndWait {
            let object = try context.makeTag()
            object.id = tag.id
            for field in Self.tagFields { field.write(tag, object) }
            record(.tag, tag.id, extra: tag.extra)
            return Key(object)
        }
    }

    /// Makes a task from `task` (its subtasks come next) and links it; saves the batch before it when it is full.
    /// - Throws: what the context throws.
    public func insert(_ task: TaskRecord, links: TaskLinks<Key>) throws -> Key {
        try context.performAndWait {
            if tasksInBatch == batchSize {
                try context.save()
                saves += 1
                tasksInBatch = 0
            }
            tasksInBatch += 1
            let object = try context.makeTask()
            object.id = task.id
            for field in Self.taskFields { field.write(task, object) }
            count(task, Self.taskFieldsNotHeld, .task)
            // Keys only ever come from this destination's own inserts, so each is of its kind's type.
            object.project = links.project.map { $0.object as! Context.Project }
            object.category = links.category.map { $0.object as! Context.Category }
            object.tags = links.tags.map { $0.object as! Context.Tag }
            record(.task, task.id, extra: task.extra)
            return Key(object)
        }
    }

    /// Makes a subtask from `subtask` and appends it to `task`'s subtasks at `position`.
    /// - Throws: what the context throws.
    public func insert(_ subtask: SubtaskRecord, of task: Key, position: Int) throws -> Key {
        try context.performAndWait {
            let object = try context.makeSubtask()
            object.id = subtask.id
            for field in Self.subtaskFields { field.write(subtask, object) }
            object.position = position
            (task.object as! Context.Task).subtasks.append(object)
            record(.subtask, subtask.id, extra: subtask.extra)
            return Key(object)
        }
    }

    /// Saves what the last batch left.
    /// - Throws: what the context's `save()` throws (the importer then calls `rollback()`).
    public func commit() throws {
        try context.performAndWait {
            try context.save()
            saves += 1
        }
    }

    /// Discards unsaved changes, then deletes every object this import saved (subtasks and tasks first).
    /// - Throws: what the context's `delete` throws.
    public func rollback() throws {
        try context.performAndWait {
            context.rollback()
            for kind in [StoreMapping.Kind.subtask, .task, .tag, .category, .project] {
                if let ids = inserted[kind], !ids.isEmpty { try context.delete(kind, ids: ids) }
            }
            inserted = [:]
            tasksInBatch = 0
        }
    }

    /// The store's graph read back through the context, subtasks in `position` order.
    /// - Throws: what the context's `fetchAll()` throws.
    public func contents() throws -> Archive? {
        try context.performAndWait {
            let all = try context.fetchAll()
            var archive = Archive()
            archive.projects = all.projects.map {
                Self.read($0, into: ProjectRecord(id: $0.id, name: ""), Self.projectFields)
            }
            archive.categories = all.categories.map {
                Self.read($0, into: CategoryRecord(id: $0.id, name: ""), Self.categoryFields)
            }
            archive.tags = all.tags.map { Self.read($0, into: TagRecord(id: $0.id, name: ""), Self.tagFields) }
            archive.tasks = all.tasks.map { task in
                var record = Self.read(
                    task, into: TaskRecord(id: task.id, title: "", createdAt: Date(timeIntervalSinceReferenceDate: 0)),
                    Self.taskFields)
                record.projectId = task.project?.id
                record.categoryId = task.category?.id
                record.tagIds = task.tags.map(\.id)
                record.subtasks = task.subtasks.sorted { $0.position < $1.position }.map {
                    Self.read($0, into: SubtaskRecord(id: $0.id, title: ""), Self.subtaskFields)
                }
                return record
            }
            return archive
        }
    }

    /// `record` with the fields `object` holds read into it.
    private static func read<Record, Object>(
        _ object: Object, into record: Record, _ fields: [GraphField<Record, Object>]
    ) -> Record {
        var record = record
        for field in fields { field.read(object, &record) }
        return record
    }

    /// Counts the values `record` carries in fields the objects have no property for.
    private func count<Record>(_ record: Record, _ fields: [UnheldField<Record>], _ kind: StoreMapping.Kind) {
        for field in fields where field.isSet(record) {
            fieldValuesNotWritten["\(kind.rawValue).\(field.name)", default: 0] += 1
        }
    }

    private func record(_ kind: StoreMapping.Kind, _ id: UUID, extra: [String: ExtraValue]?) {
        inserted[kind, default: []].insert(id)
        guard let extra else { return }
        for property in extra.keys { extraValuesNotWritten["\(kind.rawValue).\(property)", default: 0] += 1 }
    }
}
