/// Every value a store holds, set against what an export carried: the non-NULL cells of entity tables (in columns the
/// row's entity owns) and of join tables.
public struct CellAccount: Sendable, Hashable, Codable {
    /// Non-NULL values in columns their rows' entities own, and in join tables.
    public var stored = 0
    /// How many of those the archive carries.
    public var exported = 0
    /// Values in columns their row's entity does not own (a migration's default written into a shared table); Core
    /// Data never reads them, so they are not data, and each column is named in a finding.
    public var outsideEntity = 0

    /// True when every stored value travelled.
    public var isComplete: Bool { stored == exported }

    /// How many stored values did not travel (each in a finding).
    public var notExported: Int { stored - exported }
}
