/// Something the reader noticed while exporting: data it could not carry exactly, or had to repair. Nothing is dropped
/// without one; ``ExportOptions/strict`` turns warnings into a failure.
public struct StoreFinding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Kinds of finding. Raw values are part of the `--json-summary` contract.
    public enum Code: String, Sendable, Hashable, Codable {
        /// Rows had no UUID attribute (or NULL); their ids were derived from their object URIs. Informational.
        case derivedID = "derived-id"
        /// A UUID value was unreadable (wrong length or text); the id was derived from the object URI.
        case invalidID = "invalid-id"
        /// Two rows of one kind carry the same UUID; later rows got ids derived from their object URIs.
        case duplicateID = "duplicate-id"
        /// A required value was NULL (or the store has no such attribute); a neutral value was exported.
        case missingRequiredValue = "missing-required-value"
        /// A value had the wrong type or range and was exported converted (the message says how).
        case invalidValue = "invalid-value"
        /// A foreign key or join row points at a row that does not exist; the reference was not exported.
        case danglingReference = "dangling-reference"
        /// Subtasks that belong to no existing task: they cannot be nested anywhere and were not exported.
        case orphanSubtask = "orphan-subtask"
        /// A column of a mapped entity that the interchange has no field for; its values were not exported.
        case unmappedColumn = "unmapped-column"
        /// A relationship (join table or key column) the interchange has no field for.
        case unmappedRelationship = "unmapped-relationship"
        /// A property the mapping names that this store's model version does not have (one mapping serves an app's
        /// every model version); its values were read as absent.
        case missingProperty = "missing-property"
        /// An entity with rows that no interchange kind reads.
        case unmappedEntity = "unmapped-entity"
        /// An entity whose table is missing (or is a view, which `tasks` never reads).
        case missingTable = "missing-table"
        /// Rows whose `Z_ENT` is NULL or names no entity; they are invisible to the app and were not exported.
        case strayRows = "stray-rows"
        /// Values the chosen output format cannot hold (version 1 has no categories, subtasks, notes or due dates).
        case droppedByFormat = "dropped-by-format"
        /// `Z_MAX` is below the largest key in the table: the app's next insert would collide.
        case maxKeyBelowKeys = "z-max-below-keys"
        /// Rows whose `Z_OPT` is NULL.
        case nullVersion = "null-z-opt"
        /// The store records persistent history (`ATRANSACTION`/`ACHANGE`).
        case historyTracking = "history-tracking"
        /// The store holds CloudKit mirroring tables (`ANSCK*`).
        case cloudKitMirroring = "cloudkit-mirroring"
        /// Committed data lives in the `-wal` file, not yet checkpointed into the main file.
        case walData = "wal-data"
        /// A writer died mid-transaction and left a hot journal; its changes were rolled back in a private copy and
        /// only committed data was read (the store keeps its journal for the app to recover).
        case hotJournal = "hot-journal"
        /// Triggers or views in the store (never run or read by `tasks`).
        case schemaObjects = "schema-objects"
        /// SQLite's own consistency check failed.
        case corruption = "corruption"
        /// Records outside the export's selection that came along because kept records refer to them.
        case broughtAlong = "brought-along"
        /// An export's selection matched no record. Informational: nothing was left behind.
        case emptySelection = "empty-selection"
        /// References to records of an entity the export excludes; dropped.
        case excludedReference = "excluded-reference"
        /// `Z_MODELCACHE` is present but cannot be decoded.
        case modelCache = "model-cache"
        /// An entity's version hash computed from the model differs from the stored one.
        case versionHashMismatch = "version-hash-mismatch"
        /// A store without a model cache: columns whose meaning cannot be told travel raw. Informational.
        case untypedColumn = "untyped-column"
        /// Values stored in a column of an entity's rows (or a join table) that nothing exported read.
        case unexportedValues = "unexported-values"
        /// An externally stored value whose file is missing or unreadable.
        case missingExternalData = "missing-external-data"
        /// Values in a column the row's entity does not own (left by a model migration); Core Data never reads them.
        /// Informational.
        case valuesOutsideEntity = "values-outside-entity"
        /// A table outside the model that the archive cannot carry (a virtual table of a module this SQLite lacks, a
        /// full-text index that keeps no content); named with its row count.
        case uncarriedTable = "uncarried-table"
        /// The two key columns of a one-to-one disagree (one holds nothing, or another key); each side travels as
        /// stored.
        case oneToOneMismatch = "one-to-one-mismatch"
    }

    /// A model cache that is there but cannot be read: said as such, never as a store that keeps none.
    static func damagedModelCache(_ error: TaskInterchangeError) -> String {
        "model cache present but damaged (\(error.message)); names, types and relationships come from the store's "
            + "columns, as for a store without one"
    }

    static let hotJournalMessage =
        """
        a writer stopped mid-transaction (hot journal); its changes were rolled back in a \
        private copy and only committed data was read (the store's files were not changed)
        """

    /// The kind of finding.
    public var code: Code
    /// The entity concerned, when there is one.
    public var entity: String?
    /// The property or column concerned, when there is one.
    public var property: String?
    /// How many rows or values it concerns.
    public var count: Int
    /// What happened, for people.
    public var message: String
    /// Up to a few row URIs (`p12`) as examples.
    public var examples: [String]

    /// Creates a finding.
    public init(
        _ code: Code, entity: String? = nil, property: String? = nil, count: Int, message: String,
        examples: [String] = []
    ) {
        self.code = code
        self.entity = entity
        self.property = property
        self.count = count
        self.message = message
        self.examples = examples
    }

    /// Derived ids are expected for stores without UUID attributes; everything else means something was not carried
    /// exactly.
    public var isWarning: Bool {
        ![
            .derivedID, .broughtAlong, .historyTracking, .cloudKitMirroring, .walData, .hotJournal, .schemaObjects,
            .untypedColumn, .emptySelection, .valuesOutsideEntity, .oneToOneMismatch,
        ].contains(code)
    }

    /// `TodoItem.repeats: unmapped-column: 12 values not exported (e.g. p3, p9)`
    public var description: String {
        var subject = entity ?? "store"
        if let property { subject += ".\(property)" }
        var text = "\(subject): \(code.rawValue): \(message)"
        if !examples.isEmpty { text += " (e.g. \(examples.joined(separator: ", ")))" }
        return text
    }
}

/// Accumulates findings, merging repeats of the same code on the same property into one counted finding.
struct FindingLog {
    private(set) var findings: [StoreFinding] = []
    private var index: [String: Int] = [:]
    static let exampleLimit = 5

    mutating func add(
        _ code: StoreFinding.Code, entity: String?, property: String? = nil, message: String, example: String? = nil,
        count: Int = 1
    ) {
        let key = "\(code.rawValue)|\(entity ?? "")|\(property ?? "")|\(message)"
        if let position = index[key] {
            findings[position].count += count
            if let example, findings[position].examples.count < Self.exampleLimit {
                findings[position].examples.append(example)
            }
        } else {
            index[key] = findings.count
            findings.append(
                StoreFinding(
                    code, entity: entity, property: property, count: count, message: message,
                    examples: example.map { [$0] } ?? []))
        }
    }
}
