/// An archive source whose records are fingerprinted into `log` as they are read (see `DigestLog`): a migration's
/// import reads its export through it, so the verification compares the destination with these fingerprints
/// instead of reading the backup again.
struct DigestingSource: ArchiveSource {
    let source: any ArchiveSource
    let log: DigestLog

    func header() throws -> ArchiveHeader? { try source.header() }

    func stream(kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor) throws {
        var digesting = Visitor(inner: visitor, log: log)
        defer { visitor = digesting.inner }
        try source.stream(kinds: kinds, into: &digesting)
        log.cover(kinds ?? Set(RecordKind.allCases))
    }

    /// Fingerprints each record, then hands it on.
    private struct Visitor<Inner: ArchiveVisitor>: ArchiveVisitor {
        var inner: Inner
        let log: DigestLog

        mutating func visitHeader(_ header: ArchiveHeader) throws {
            log.noteHeader(header)
            try inner.visitHeader(header)
        }

        mutating func visitProject(_ project: ProjectRecord, index: Int) throws {
            try pass(.project(project), to: { try $0.visitProject(project, index: index) })
        }

        mutating func visitCategory(_ category: CategoryRecord, index: Int) throws {
            try pass(.category(category), to: { try $0.visitCategory(category, index: index) })
        }

        mutating func visitTag(_ tag: TagRecord, index: Int) throws {
            try pass(.tag(tag), to: { try $0.visitTag(tag, index: index) })
        }

        mutating func visitTask(_ task: TaskRecord, index: Int) throws {
            try pass(.task(task), to: { try $0.visitTask(task, index: index) })
        }

        mutating func visitEntity(_ record: EntityRecord, index: Int) throws {
            try pass(.entity(record), to: { try $0.visitEntity(record, index: index) })
        }

        private mutating func pass(_ item: GraphItem, to visit: (inout Inner) throws -> Void) throws {
            log.add(item)
            try visit(&inner)
        }

        mutating func visitTable(_ table: RawTable, index: Int) throws { try inner.visitTable(table, index: index) }
        mutating func visitIssue(_ issue: ValidationIssue) throws { try inner.visitIssue(issue) }
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws {
            try inner.visitEnd(header: header, counts: counts)
        }
    }
}
