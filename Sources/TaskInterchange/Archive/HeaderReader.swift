/// Keeps an archive's header: a read that delivers no records, and, with `stopsAtHeader`, ends once it has the
/// header by throwing `Stop` (a document has it before its first section).
struct HeaderReader: ArchiveVisitor {
    /// Thrown at the header when the read should end there.
    struct Stop: Error {}

    var stopsAtHeader = false
    var header: ArchiveHeader?
    /// True when the input had an error before the header was complete (malformed JSON, a wrong type).
    var sawError = false

    mutating func visitProject(_ project: ProjectRecord, index: Int) {}
    mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
    mutating func visitTag(_ tag: TagRecord, index: Int) {}
    mutating func visitTask(_ task: TaskRecord, index: Int) {}
    mutating func visitIssue(_ issue: ValidationIssue) {
        if issue.severity == .error { sawError = true }
    }
    mutating func visitHeader(_ header: ArchiveHeader) throws {
        self.header = header
        if stopsAtHeader { throw Stop() }
    }
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) { self.header = header }
}
