/// A visitor that keeps everything a reader delivers: the records as an ``Archive``, the issues, the declared counts.
struct ArchiveCollector: ArchiveVisitor {
    /// The records read so far; the header is filled in at the end.
    package private(set) var archive = Archive(header: ArchiveHeader(format: nil, version: 0))
    /// Every issue, in the order reported.
    package private(set) var issues: [ValidationIssue] = []
    /// The counts the file declares (nil when it has none).
    package private(set) var declaredCounts: ArchiveCounts?
    /// True once the reader reached the end (it does not for malformed JSON).
    package private(set) var isComplete = false

    /// Creates an empty collector.
    init() {}

    /// True when an error-severity issue was reported.
    var hasErrors: Bool { issues.contains { $0.severity == .error } }

    /// Keeps the project.
    mutating func visitProject(_ project: ProjectRecord, index: Int) {
        archive.projects.append(project)
    }

    /// Keeps the category.
    mutating func visitCategory(_ category: CategoryRecord, index: Int) {
        archive.categories.append(category)
    }

    /// Keeps the tag.
    mutating func visitTag(_ tag: TagRecord, index: Int) {
        archive.tags.append(tag)
    }

    /// Keeps the task.
    mutating func visitTask(_ task: TaskRecord, index: Int) {
        archive.tasks.append(task)
    }

    /// Keeps the generic record.
    public mutating func visitEntity(_ record: EntityRecord, index: Int) {
        archive.entities.append(record)
    }

    /// Keeps the table.
    public mutating func visitTable(_ table: RawTable, index: Int) {
        archive.tables.append(table)
    }

    /// Keeps the issue.
    mutating func visitIssue(_ issue: ValidationIssue) {
        issues.append(issue)
    }

    /// Keeps the header and the declared counts.
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {
        archive.header = header
        declaredCounts = counts
        isComplete = true
    }
}
