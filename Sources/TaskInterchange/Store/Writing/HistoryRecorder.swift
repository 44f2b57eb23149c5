/// What an import changed, per object, until its persistent history rows are written at the end of its transaction
/// (`StoreWriter+History.swift` writes them): inserted keys as runs of consecutive keys, so a bulk load costs a few
/// ranges; objects that existed before the import and changed; deleted ones.
struct HistoryRecorder {
    /// `ACHANGE.ZCHANGETYPE`.
    enum ChangeType: Int64 {
        case insert = 0
        case update = 1
        case delete = 2
    }

    /// One `ACHANGE` row: the object's concrete `Z_ENT` and its key.
    struct Change: Equatable {
        var type: ChangeType
        var entity: Int64
        var key: Int64
    }

    /// Keys as runs of consecutive keys, in the order they were added.
    struct KeyRuns {
        private(set) var runs: [ClosedRange<Int64>] = []

        mutating func append(_ key: Int64) {
            if let last = runs.last, last.upperBound != .max, last.upperBound + 1 == key {
                runs[runs.count - 1] = last.lowerBound...key
            } else {
                runs.append(key...key)
            }
        }

        /// The runs, by their first key.
        var sortedRuns: [ClosedRange<Int64>] { runs.sorted { $0.lowerBound < $1.lowerBound } }
    }

    let entities: StoreWriter.HistoryEntities
    /// Inserted objects per concrete `Z_ENT`.
    private var inserted: [Int64: KeyRuns] = [:]
    /// Objects that existed before the import whose attributes or relationships it changed, per table. Their
    /// concrete `Z_ENT` is read when the rows are written, so objects deleted later in the import drop out.
    private var updated: [String: Set<Int64>] = [:]
    /// Deleted objects per concrete `Z_ENT`, read before the rows went.
    private var deleted: [Int64: KeyRuns] = [:]
    /// Objects inserted and deleted again by the same import: no row at all.
    private var insertedThenDeleted: [Int64: Set<Int64>] = [:]
    /// The first key the import gave out in each table; keys are handed out above every existing one, so every
    /// key below it names an object that existed before the import.
    private var firstNewKey: [String: Int64] = [:]
    /// `kind.relationship` → whether the relationship has an inverse (its destinations change with it).
    var inverses: [String: Bool] = [:]

    init(entities: StoreWriter.HistoryEntities) {
        self.entities = entities
    }

    /// Whether `key` names an object `table` had before the import.
    func existedBefore(_ key: Int64, in table: String) -> Bool {
        key < firstNewKey[table] ?? .max
    }

    /// Forgets everything recorded (after the rows are written, or when the transaction rolls back).
    mutating func clear() {
        self = HistoryRecorder(entities: entities)
    }

    /// Every key of `table` is new: the table was empty and never filled.
    mutating func noteAllNew(in table: String) {
        firstNewKey[table] = 1
    }

    /// A new object of entity `entity` at `key` in `table` (the first such key marks where new keys begin).
    mutating func noteInserted(_ key: Int64, entity: Int64, table: String) {
        if firstNewKey[table] == nil { firstNewKey[table] = key }
        noteInserted(key, entity: entity)
    }

    /// A new object of entity `entity` at `key`, in a table whose new keys are known otherwise.
    mutating func noteInserted(_ key: Int64, entity: Int64) {
        inserted[entity, default: KeyRuns()].append(key)
    }

    /// An object of `table` whose attributes or relationships change; ignored when the import inserted it.
    mutating func noteChanged(_ key: Int64, in table: String) {
        if existedBefore(key, in: table) { updated[table, default: []].insert(key) }
    }

    /// An object about to be deleted; one the import inserted leaves no row at all.
    mutating func noteDeleted(_ key: Int64, entity: Int64, table: String) {
        if existedBefore(key, in: table) {
            deleted[entity, default: KeyRuns()].append(key)
        } else {
            insertedThenDeleted[entity, default: []].insert(key)
        }
    }

    /// Hands `body` the `ACHANGE` rows in the order they are written: inserts by entity then key (less those deleted
    /// again), updates by table then key with the concrete entity `entity(table, key)` reads (nil: the import deleted
    /// the row after changing it, which leaves its delete only), deletes by entity then key.
    func forEachChange(
        entity: (_ table: String, _ key: Int64) throws -> Int64?, _ body: (Change) throws -> Void
    ) rethrows {
        for (number, keys) in inserted.sorted(by: { $0.key < $1.key }) {
            let gone = insertedThenDeleted[number] ?? []
            for run in keys.sortedRuns {
                for key in run where !gone.contains(key) { try body(Change(type: .insert, entity: number, key: key)) }
            }
        }
        for (table, keys) in updated.sorted(by: { $0.key < $1.key }) {
            for key in keys.sorted() {
                guard let number = try entity(table, key) else { continue }
                try body(Change(type: .update, entity: number, key: key))
            }
        }
        for (number, keys) in deleted.sorted(by: { $0.key < $1.key }) {
            for run in keys.sortedRuns {
                for key in run { try body(Change(type: .delete, entity: number, key: key)) }
            }
        }
    }
}
