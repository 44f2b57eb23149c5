extension ArchiveCounts: CustomStringConvertible {
    /// What an archive holds: `5 projects, 2 categories, 4 tags, 12 tasks, 30 subtasks`; an archive of a store
    /// without task kinds (any app's) names only its entity records.
    public var description: String {
        let typed = projects + categories + tags + tasks + subtasks
        if typed == 0 && entities > 0 { return "\(entities) entity records" }
        return
            "\(projects) projects, \(categories) categories, \(tags) tags, \(tasks) tasks, \(subtasks) subtasks"
            + (entities > 0 ? ", \(entities) entity records" : "")
    }
}
