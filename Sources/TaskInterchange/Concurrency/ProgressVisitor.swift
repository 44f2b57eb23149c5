/// Forwards an archive to another visitor and reports a phase's progress: a first event before the first record,
/// then one every 10,000 tasks (the caller reports the last, once it knows the totals).
struct ProgressVisitor<Inner: ArchiveVisitor>: ArchiveVisitor {
    var inner: Inner
    let phase: ProgressEvent.Phase
    let progress: (@Sendable (ProgressEvent) -> Void)?
    private var tasks = 0
    private var total: Int?

    init(
        _ inner: Inner, phase: ProgressEvent.Phase, total: Int? = nil,
        progress: (@Sendable (ProgressEvent) -> Void)?
    ) {
        self.inner = inner
        self.phase = phase
        self.total = total
        self.progress = progress
        progress?(ProgressEvent(phase: phase, done: 0, total: total, bytes: 0))
    }

    mutating func visitProject(_ project: ProjectRecord, index: Int) throws {
        try inner.visitProject(project, index: index)
    }
    mutating func visitCategory(_ category: CategoryRecord, index: Int) throws {
        try inner.visitCategory(category, index: index)
    }
    mutating func visitTag(_ tag: TagRecord, index: Int) throws { try inner.visitTag(tag, index: index) }
    mutating func visitTask(_ task: TaskRecord, index: Int) throws {
        try inner.visitTask(task, index: index)
        tasks += 1
        if tasks % 10_000 == 0 { progress?(ProgressEvent(phase: phase, done: tasks, total: total)) }
    }
    mutating func visitEntity(_ record: EntityRecord, index: Int) throws { try inner.visitEntity(record, index: index) }
    mutating func visitTable(_ table: RawTable, index: Int) throws { try inner.visitTable(table, index: index) }
    mutating func visitIssue(_ issue: ValidationIssue) throws { try inner.visitIssue(issue) }
    mutating func visitHeader(_ header: ArchiveHeader) throws { try inner.visitHeader(header) }
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws {
        try inner.visitEnd(header: header, counts: counts)
    }
}
