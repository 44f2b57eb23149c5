/// Receives an archive's content as a reader streams it, record by record.
///
/// Records arrive in document order; version 2 files written by `tasks` list projects, categories and tags before
/// tasks,
/// but version 1 files may come in any key order. Index arguments are positions within the record's array, for paths.
public protocol ArchiveVisitor {
    /// A project was read (`$.projects[index]`).
    /// - Throws: an error of the visitor's own, which stops the reading and is rethrown to the caller.
    mutating func visitProject(_ project: ProjectRecord, index: Int) throws
    /// A category was read (`$.categories[index]`).
    /// - Throws: an error of the visitor's own, which stops the reading and is rethrown to the caller.
    mutating func visitCategory(_ category: CategoryRecord, index: Int) throws
    /// A tag was read (`$.tags[index]`).
    /// - Throws: an error of the visitor's own, which stops the reading and is rethrown to the caller.
    mutating func visitTag(_ tag: TagRecord, index: Int) throws
    /// A task was read (`$.tasks[index]`), with its subtasks.
    /// - Throws: an error of the visitor's own, which stops the reading and is rethrown to the caller.
    mutating func visitTask(_ task: TaskRecord, index: Int) throws
    /// A record of the generic `entities` section was read (`$.entities.<Entity>[index]`). Generic records come after
    /// the tasks, and are delivered whenever tasks are.
    mutating func visitEntity(_ record: EntityRecord, index: Int) throws
    /// A table of the `tables` section was read (`$.tables.<name>`): one the app added outside its model. Tables come
    /// after the generic records, and are delivered whenever those are.
    mutating func visitTable(_ table: RawTable, index: Int) throws
    /// A problem in the input; reading goes on unless the input cannot be parsed further.
    /// - Throws: an error of the visitor's own, which stops the reading and is rethrown to the caller.
    mutating func visitIssue(_ issue: ValidationIssue) throws
    /// The header members, before the first record (or at the end when there is none): `source.relationships` says
    /// which `extra` members are relationships.
    /// - Throws: an error of the visitor's own, which stops the reading and is rethrown to the caller.
    mutating func visitHeader(_ header: ArchiveHeader) throws
    /// The end of the document: the header members and the counts (nil when absent).
    /// - Throws: an error of the visitor's own, which stops the reading and is rethrown to the caller.
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws
}

extension ArchiveVisitor {
    /// Visitors that need nothing from the header before the records ignore it.
    /// - Throws: nothing; the requirement may throw for visitors that check the header.
    public mutating func visitHeader(_ header: ArchiveHeader) throws {}
    /// Visitors that only know the typed sections ignore generic records.
    public mutating func visitEntity(_ record: EntityRecord, index: Int) throws {}
    /// Visitors that only know records ignore raw tables.
    public mutating func visitTable(_ table: RawTable, index: Int) throws {}
}
