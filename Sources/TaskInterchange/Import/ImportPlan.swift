/// What an import did (or, in a dry run, would do), per kind.
public struct ImportPlan: Sendable, Hashable, Codable {
    /// Operation counts for one kind, entity or table.
    public typealias Operations = ImportOperations

    /// Counts per kind name (`project`, `category`, `tag`, `task`, `subtask`).
    public var kinds: [String: Operations] = [:]
    /// Counts per entity of the generic `entities` section.
    public var entities: [String: Operations] = [:]
    /// Rows of each table of the archive's `tables` section (tables the app added outside its model).
    public var tables: [String: Operations] = [:]
    /// `Entity` or `Entity.property` → generic records or values the target had no place for (not imported);
    /// `tables.<name>` → rows of a raw table the destination had no place for.
    public var lacking: [String: Int] = [:]
    /// What the change to the target's model version dropped, filled and converted (see `VersionMapping`).
    public var modelChange = VersionMapping.Tally()
    /// Source entity → the target's entity its records became, for each entity a model change renamed (nil without
    /// one): the plan counts values the model change dropped under the target's name.
    public var renamedEntities: [String: String]?
    /// Relationship values under `extra` that skip mode left out: to-one values of objects left as they were, and
    /// links to records it did not import (subtasks of a task left as it was).
    public var unlinked = 0
    /// References from loaded records to records an import limited to other kinds did not load and the target does
    /// not have: dropped. Nil when every kind was loaded.
    public var droppedReferences: Int?

    /// Archive records of a generic entity that a ``MatchRule`` key `Entity.attribute` left unmatched because their
    /// value is not unique: several target records (or several unpaired archive records) have it. They are imported
    /// as records of their own.
    public struct AmbiguousMatch: Sendable, Hashable, Codable {
        /// Archive records left unmatched.
        public var records = 0
        /// The first few such values, described (`"Inbox" (2 in the target, 1 in the archive)`).
        public var values: [String] = []
        /// How many values `values` lists at most.
        public static let shown = TargetComparison.Ambiguity.shown
        /// Creates an empty count.
        public init() {}

        /// What the comparison with the target found.
        init(_ ambiguity: TargetComparison.Ambiguity) {
            records = ambiguity.records
            values = ambiguity.values
        }
    }

    /// `Entity.attribute` → the archive records ``StoreImportOptions/match`` left unmatched there (see
    /// ``AmbiguousMatch``).
    public var ambiguousMatches: [String: AmbiguousMatch] = [:]

    /// The first matches and conflicts, for a dry run (``StoreImportOptions/dryRun``) to list (all are counted).
    public var decisions: [MergeDecision] = []
    /// The most decisions listed.
    public static let decisionLimit = 1000

    /// Creates an empty plan.
    public init() {}

    /// Lists a decision while under the limit.
    mutating func note(_ decision: MergeDecision) {
        if decisions.count < Self.decisionLimit { decisions.append(decision) }
    }

    /// The counts of one kind.
    public subscript(kind: StoreMapping.Kind) -> Operations {
        get { kinds[kind.rawValue] ?? Operations() }
        set { kinds[kind.rawValue] = newValue }
    }
}
