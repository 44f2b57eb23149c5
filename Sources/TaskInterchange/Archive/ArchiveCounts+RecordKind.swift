extension ArchiveCounts {
    /// The count of records of `kind`.
    subscript(kind: RecordKind) -> Int {
        get {
            switch kind {
            case .project: return projects
            case .category: return categories
            case .tag: return tags
            case .task: return tasks
            case .subtask: return subtasks
            }
        }
        set {
            switch kind {
            case .project: projects = newValue
            case .category: categories = newValue
            case .tag: tags = newValue
            case .task: tasks = newValue
            case .subtask: subtasks = newValue
            }
        }
    }
}
