/// What an import did with the records of one kind, entity or table (or, in a dry run, would do): counted by the
/// destination as it writes, gathered in an ``ImportPlan``.
public struct ImportOperations: Sendable, Hashable, Codable {
    /// Records inserted.
    public var inserted = 0
    /// Existing records updated.
    public var updated = 0
    /// Existing records that already held what the archive holds, left unwritten (upsert).
    public var unchanged = 0
    /// Existing records left as they were.
    public var skipped = 0
    /// Rows removed (replace mode, or subtasks an update no longer lists).
    public var deleted = 0
    /// Archive records paired with a target record by key (``StoreImportOptions/match``), counted also as what
    /// was done with them.
    public var matched = 0
    /// Existing records whose content differs from the archive's under ``ImportMode/merge``: one side's version won
    /// (counted as updated when the archive's did, skipped when the target's did).
    public var conflicts = 0
    /// Values (attributes and relationships, NULLs left out) of the generic records of this entity in the archive,
    /// counted under the target's entity name.
    public var values = 0
    /// Of those, the values that arrived: the target holds them as the archive has them (inserted, updated or
    /// already there), after the model change; values the target had no place for are subtracted once the import
    /// ends, values of records left as the target had them (skipped) are not counted.
    public var valuesArrived = 0
    /// Archive records of this kind an import limited to other kinds (``StoreImportOptions/kinds``,
    /// ``StoreImportOptions/entities``) did not load; nil when it loaded every kind.
    public var notLoaded: Int?
    /// Creates zero counts.
    public init() {}
}
