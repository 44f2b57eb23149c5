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

    /// True when every stored value travelled.
    public var isComplete: Bool { notExported == 0 }
}
