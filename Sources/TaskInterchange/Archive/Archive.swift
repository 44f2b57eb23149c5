import Foundation

/// A whole interchange document in memory: header, records and counts.
///
/// Large archives are better streamed (`ArchiveReader`, `ArchiveWriter`); this type is the convenient form for apps and
/// tests.
public struct Archive: Sendable, Hashable {
    /// Format, version, export date, generator and source.
    public var header: ArchiveHeader
    /// Projects, sorted by id when written by `tasks`.
    public var projects: [ProjectRecord]
    /// Categories.
    public var categories: [CategoryRecord]
    /// Tags.
    public var tags: [TagRecord]
    /// Tasks, each with its subtasks.
    public var tasks: [TaskRecord]
    /// The generic section's records (entities no kind reads), grouped by entity name, each group in key order.
    public var entities: [EntityRecord]
    /// The `tables` section: tables the app added outside its model, in name order.
    public var tables: [RawTable] = []

    /// Creates an archive.
    public init(
        header: ArchiveHeader = ArchiveHeader(), projects: [ProjectRecord] = [], categories: [CategoryRecord] = [],
        tags: [TagRecord] = [], tasks: [TaskRecord] = [], entities: [EntityRecord] = []
    ) {
        self.entities = entities
        self.header = header
        self.projects = projects
        self.categories = categories
        self.tags = tags
        self.tasks = tasks
    }

    /// The counts of this archive's content.
    public var counts: ArchiveCounts {
        ArchiveCounts(
            projects: projects.count, categories: categories.count, tags: tags.count, tasks: tasks.count,
            subtasks: tasks.reduce(0) { $0 + $1.subtasks.count }, entities: entities.count)
    }
}
