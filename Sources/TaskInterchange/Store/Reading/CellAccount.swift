/// Every value a store holds, set against what an export carried. Columns that the export reads in the rows of every
/// entity of their table carry every value by construction and are not counted again (at a million tasks counting
/// them would cost a quarter of the export); every other column of every entity table, and every join-table column,
/// is counted per entity.
public struct CellAccount: Sendable, Hashable, Codable {
    /// Non-NULL values counted in columns that not every row's entity reads, and in join tables.
    public var checked = 0
    /// How many of the counted values the archive does not carry (each column in a finding).
    public var notExported = 0
    /// Values in columns their row's entity does not own (a migration's default written into a shared table); Core
    /// Data never reads them, so they are not data, and each column is named in a finding.
    public var outsideEntity = 0
    /// Values in Core Data's own tables — persistent history and CloudKit mirroring state — which record the source
    /// store's past and sync state by its own keys; not exported (an import records its own), each table named in a
    /// note with its count.
    public var coreDataOwn = 0

    /// True when every stored value of the model's entities travelled (Core Data's own tables aside: see
    /// ``coreDataOwn``).
    public var isComplete: Bool { notExported == 0 }
}
