/// Something the importer can read an archive from, more than once (it reads referenced kinds first, then tasks, in
/// one read or two).
public protocol ArchiveSource {
    /// Streams the records of `kinds` (all when nil) to `visitor`, then calls its `visitEnd`; the generic `entities`
    /// section's records come with the tasks (`RecordKind.deliversEntities`).
    /// - Throws: what the visitor throws, and the source's own reading errors.
    func stream(kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor) throws

    /// Streams as `stream(kinds:into:)` does, and makes every call on `checker` too, first, in the same order: a
    /// checker that only looks at the records (a validator beside an import) sees each one before `visitor` does. A
    /// source that reads on a thread of its own may make the checker's calls there, so checking does not wait for
    /// `visitor`; the default makes them just before `visitor`'s.
    /// - Throws: what either visitor throws, and the source's own reading errors.
    func stream(
        kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor, checking checker: inout some ArchiveVisitor
    ) throws

    /// The archive's header (format, version, `source` with its declarations), read ahead of its records: what names
    /// given with an import (``StoreImportOptions/match``, ``StoreImportOptions/entities``,
    /// ``ModificationDates/property``) are checked against before any work.
    /// - Throws: the source's own reading errors; problems in the input are left to validation (nil when it has no
    ///   usable header).
    func header() throws -> ArchiveHeader?

    /// Whether one read of every kind (`stream(kinds: nil, into:)`) delivers each project, category and tag before
    /// any task, generic record or table: the importer then reads the archive once instead of twice.
    func listsReferencedKindsFirst() -> Bool
}

extension ArchiveSource {
    /// False: the importer reads the referenced kinds first, then the rest, in two reads.
    public func listsReferencedKindsFirst() -> Bool { false }

    /// Makes each call on `checker` just before `visitor`'s, on the thread that streams.
    /// - Throws: what either visitor throws, and the source's own reading errors.
    public func stream(
        kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor, checking checker: inout some ArchiveVisitor
    ) throws {
        var both = CheckedVisitor(checker: checker, visitor: visitor)
        defer {
            checker = both.checker
            visitor = both.visitor
        }
        try stream(kinds: kinds, into: &both)
    }

    /// The header of a read that delivers no records (nil after an error in the input).
    /// - Throws: the source's own reading errors.
    public func header() throws -> ArchiveHeader? {
        var reader = HeaderReader()
        try stream(kinds: [], into: &reader)
        return reader.sawError ? nil : reader.header
    }
}

extension Archive: ArchiveSource {
    /// True: the sections are streamed in the order projects, categories, tags, tasks, entities, tables.
    public func listsReferencedKindsFirst() -> Bool { true }

    /// Streams the records of `kinds` (all when nil) to `visitor`, in array order.
    /// - Throws: what the visitor throws.
    public func stream(kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor) throws {
        try visitor.visitHeader(header)
        if kinds?.contains(.project) ?? true {
            for (index, project) in projects.enumerated() { try visitor.visitProject(project, index: index) }
        }
        if kinds?.contains(.category) ?? true {
            for (index, category) in categories.enumerated() { try visitor.visitCategory(category, index: index) }
        }
        if kinds?.contains(.tag) ?? true {
            for (index, tag) in tags.enumerated() { try visitor.visitTag(tag, index: index) }
        }
        if kinds?.contains(.task) ?? true {
            for (index, task) in tasks.enumerated() { try visitor.visitTask(task, index: index) }
        }
        if RecordKind.deliversEntities(kinds) {
            var indexes: [String: Int] = [:]
            for record in entities {
                try visitor.visitEntity(record, index: indexes[record.entity, default: 0])
                indexes[record.entity, default: 0] += 1
            }
            for (index, table) in tables.enumerated() { try visitor.visitTable(table, index: index) }
        }
        try visitor.visitEnd(header: header, counts: counts)
    }
}

/// Two visitors as one: each call goes to `checker`, then to `visitor`.
private struct CheckedVisitor<Checker: ArchiveVisitor, Visitor: ArchiveVisitor>: ArchiveVisitor {
    var checker: Checker
    var visitor: Visitor

    private mutating func deliver(_ event: PipelineEvent) throws {
        try event.deliver(to: &checker)
        try event.deliver(to: &visitor)
    }

    mutating func visitProject(_ project: ProjectRecord, index: Int) throws { try deliver(.project(project, index)) }
    mutating func visitCategory(_ category: CategoryRecord, index: Int) throws {
        try deliver(.category(category, index))
    }
    mutating func visitTag(_ tag: TagRecord, index: Int) throws { try deliver(.tag(tag, index)) }
    mutating func visitTask(_ task: TaskRecord, index: Int) throws { try deliver(.task(task, index)) }
    mutating func visitEntity(_ record: EntityRecord, index: Int) throws { try deliver(.entity(record, index)) }
    mutating func visitTable(_ table: RawTable, index: Int) throws { try deliver(.table(table, index)) }
    mutating func visitIssue(_ issue: ValidationIssue) throws { try deliver(.issue(issue)) }
    mutating func visitHeader(_ header: ArchiveHeader) throws { try deliver(.header(header)) }
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws {
        try deliver(.end(header, counts))
    }
}
