import Foundation

/// An import destination that rebuilds the graph in memory; objects are named by their position of insertion.
///
/// It backs the importer's unit tests, and shows an app how to adopt `ImportDestination` for its own context.
public struct MemoryDestination: ImportDestination, Sendable {
    /// A task as stored: its record and its resolved links.
    public struct StoredTask: Sendable, Hashable {
        /// The task's fields (its `subtasks` are kept separately, by key).
        public var record: TaskRecord
        /// Its links, as keys.
        public var links: TaskLinks<Int>
        /// Its subtasks' keys, in order.
        public var subtasks: [Int]
    }

    /// Every object by key.
    public private(set) var projects: [Int: ProjectRecord] = [:]
    /// Every category by key.
    public private(set) var categories: [Int: CategoryRecord] = [:]
    /// Every tag by key.
    public private(set) var tags: [Int: TagRecord] = [:]
    /// Every task by key.
    public private(set) var tasks: [Int: StoredTask] = [:]
    /// Every subtask by key, with its task's key.
    public private(set) var subtasks: [Int: (record: SubtaskRecord, task: Int)] = [:]
    /// Relationships carried under `extra`, by kind, object key and property name: destination keys in order.
    public private(set) var links: [StoreMapping.Kind: [Int: [String: [Int]]]] = [:]
    /// Generic records by key, as inserted (their relationships are in `entityLinks`).
    public internal(set) var entities: [Int: EntityRecord] = [:]
    /// Generic relationships by object key and property: destination keys in order, and stored positions.
    public internal(set) var entityLinks: [Int: [String: (keys: [Int], positions: [Int64]?)]] = [:]
    var entityKeys: [UUID: Int] = [:]
    var entityDeclarations: [String: EntityDeclaration] = [:]
    private var declarations: [String: [String: ExtraRelationship]] = [:]
    var keys: [StoreMapping.Kind: [UUID: Int]] = [:]
    var nextKey = 1

    /// Creates an empty graph.
    public init() {}

    /// The key of the object with `id`, if any.
    public func existingKey(of kind: StoreMapping.Kind, id: UUID) -> Int? {
        keys[kind]?[id]
    }

    /// How many objects of `kind` exist.
    public func count(of kind: StoreMapping.Kind) -> Int {
        keys[kind]?.count ?? 0
    }

    /// Removes everything.
    public mutating func removeAll() {
        self = MemoryDestination()
    }

    private mutating func newKey(_ kind: StoreMapping.Kind, _ id: UUID) -> Int {
        defer { nextKey += 1 }
        keys[kind, default: [:]][id] = nextKey
        return nextKey
    }

    /// Inserts a project.
    public mutating func insert(_ project: ProjectRecord) -> Int {
        let key = newKey(.project, project.id)
        projects[key] = project
        return key
    }

    /// Overwrites a project.
    public mutating func update(_ project: ProjectRecord, at key: Int) { projects[key] = project }

    /// Inserts a category.
    public mutating func insert(_ category: CategoryRecord) -> Int {
        let key = newKey(.category, category.id)
        categories[key] = category
        return key
    }

    /// Overwrites a category.
    public mutating func update(_ category: CategoryRecord, at key: Int) { categories[key] = category }

    /// Inserts a tag.
    public mutating func insert(_ tag: TagRecord) -> Int {
        let key = newKey(.tag, tag.id)
        tags[key] = tag
        return key
    }

    /// Overwrites a tag.
    public mutating func update(_ tag: TagRecord, at key: Int) { tags[key] = tag }

    /// Inserts a task with its links.
    public mutating func insert(_ task: TaskRecord, links: TaskLinks<Int>) -> Int {
        let key = newKey(.task, task.id)
        var record = task
        record.subtasks = []
        tasks[key] = StoredTask(record: record, links: links, subtasks: [])
        return key
    }

    /// Overwrites a task and its links.
    public mutating func update(_ task: TaskRecord, links: TaskLinks<Int>, at key: Int) {
        var record = task
        record.subtasks = []
        tasks[key] = StoredTask(record: record, links: links, subtasks: tasks[key]?.subtasks ?? [])
    }

    /// Inserts a subtask at `position` of `task`.
    public mutating func insert(_ subtask: SubtaskRecord, of task: Int, position: Int) -> Int {
        let key = newKey(.subtask, subtask.id)
        place(key, subtask, task: task, position: position)
        return key
    }

    /// Overwrites a subtask and moves it to `position` of `task`.
    public mutating func update(_ subtask: SubtaskRecord, of task: Int, position: Int, at key: Int) {
        if let previous = subtasks[key]?.task { tasks[previous]?.subtasks.removeAll { $0 == key } }
        place(key, subtask, task: task, position: position)
    }

    private mutating func place(_ key: Int, _ subtask: SubtaskRecord, task: Int, position: Int) {
        subtasks[key] = (subtask, task)
        var list = tasks[task]?.subtasks ?? []
        list.removeAll { $0 == key }
        list.insert(key, at: min(position, list.count))
        tasks[task]?.subtasks = list
    }

    /// Removes the subtasks of `task` not in `keeping`; returns how many.
    public mutating func removeSubtasks(of task: Int, keeping: Set<Int>) -> Int {
        let doomed = (tasks[task]?.subtasks ?? []).filter { !keeping.contains($0) }
        for key in doomed {
            if let id = subtasks[key]?.record.id { keys[.subtask]?[id] = nil }
            subtasks[key] = nil
        }
        tasks[task]?.subtasks.removeAll { doomed.contains($0) }
        return doomed.count
    }

    /// Records a relationship carried under `extra`.
    public mutating func link(
        _ kind: StoreMapping.Kind, _ key: Int, relationship: String, _ declaration: ExtraRelationship,
        to destinations: [Int], replacing: Bool
    ) {
        declarations[kind.rawValue, default: [:]][relationship] = declaration
        links[kind, default: [:]][key, default: [:]][relationship] = destinations
    }

    /// The graph as an archive (see `archive`), for a migration's verification.
    public func contents() -> Archive? { archive }

    /// The graph as an archive: records sorted by id, links turned back into ids (relationships under `extra`
    /// included, with their declarations in `source.relationships`; generic records with theirs in `source.model`).
    public var archive: Archive {
        var archive = Archive()
        if !declarations.isEmpty || !entityDeclarations.isEmpty {
            archive.header.source = ArchiveHeader.Source(
                store: "memory", relationships: declarations,
                model: entityDeclarations)
        }
        archive.entities = entityRecords
        archive.projects = projects.map { key, record in withLinks(record, .project, key) }.sorted {
            $0.id.uuidString < $1.id.uuidString
        }
        archive.categories = categories.map { key, record in withLinks(record, .category, key) }.sorted {
            $0.id.uuidString < $1.id.uuidString
        }
        archive.tags = tags.map { key, record in withLinks(record, .tag, key) }.sorted {
            $0.id.uuidString < $1.id.uuidString
        }
        archive.tasks = tasks.map { key, stored in
            var record = withLinks(stored.record, .task, key)
            record.projectId = stored.links.project.flatMap { projects[$0]?.id }
            record.categoryId = stored.links.category.flatMap { categories[$0]?.id }
            record.tagIds = stored.links.tags.compactMap { tags[$0]?.id }
            record.subtasks = stored.subtasks.compactMap { subtaskKey in
                subtasks[subtaskKey].map { withLinks($0.record, .subtask, subtaskKey) }
            }
            return record
        }.sorted { $0.id.uuidString < $1.id.uuidString }
        return archive
    }

    /// `record` with its relationships written back into `extra` as ids (empty ones left out, as a store export does).
    private func withLinks<Record: ExtraCarrying>(_ record: Record, _ kind: StoreMapping.Kind, _ key: Int) -> Record {
        guard let properties = links[kind]?[key] else { return record }
        var record = record
        for (property, keys) in properties where !keys.isEmpty {
            guard let declaration = declarations[kind.rawValue]?[property] else { continue }
            let ids = keys.compactMap { id(of: declaration.destination, key: $0)?.uuidString }
            guard let first = ids.first else { continue }
            record.extra = (record.extra ?? [:]).merging([property: declaration.toMany ? .array(ids) : .string(first)])
            { $1 }
        }
        return record
    }

    private func id(of kind: StoreMapping.Kind, key: Int) -> UUID? {
        switch kind {
        case .project: return projects[key]?.id
        case .category: return categories[key]?.id
        case .tag: return tags[key]?.id
        case .task: return tasks[key]?.record.id
        case .subtask: return subtasks[key]?.record.id
        }
    }
}
