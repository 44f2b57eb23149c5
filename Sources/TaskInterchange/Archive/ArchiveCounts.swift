/// How many records of each kind an archive holds; written last, so a truncated file is caught.
public struct ArchiveCounts: Sendable, Hashable, Codable {
    /// Number of projects.
    public var projects: Int
    /// Number of categories.
    public var categories: Int
    /// Number of tags.
    public var tags: Int
    /// Number of tasks.
    public var tasks: Int
    /// Number of subtasks, over all tasks.
    public var subtasks: Int
    /// Number of records in the generic `entities` section, over all entities.
    public var entities: Int

    /// Creates counts.
    public init(
        projects: Int = 0, categories: Int = 0, tags: Int = 0, tasks: Int = 0, subtasks: Int = 0,
        entities: Int = 0
    ) {
        self.entities = entities
        self.projects = projects
        self.categories = categories
        self.tags = tags
        self.tasks = tasks
        self.subtasks = subtasks
    }
}
