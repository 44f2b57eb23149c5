import Foundation

/// Replace mode: the objects an import removed before writing the archive's records. A record whose id is one of
/// them is the same object written again: it takes its old key back (so object URIs, the ids derived from keys and
/// Core Data's own rows that name the object stay valid) with `Z_OPT` one above its old one, and counts in persistent
/// history as an update. Every other record takes a new key above every key the store had, and the objects no
/// record took back are the ones deleted.
struct ReplacedObjects {
    /// A removed row: its concrete entity and its `Z_OPT`.
    struct Row {
        var entity: Int64
        var version: Int64
    }

    /// Removed rows by table, then key; a row leaves when its object is written again.
    private var rows: [String: [Int64: Row]] = [:]
    /// Typed kinds' removed objects: id → key.
    private var typed: [StoreMapping.Kind: [UUIDKey: Int64]] = [:]
    /// Generic entities' removed objects: entity → id → key.
    private var generic: [String: [UUID: Int64]] = [:]

    mutating func noteRow(_ key: Int64, _ row: Row, in table: String) {
        rows[table, default: [:]][key] = row
    }

    mutating func noteIDs(_ ids: [UUIDKey: Int64], of kind: StoreMapping.Kind) {
        typed[kind] = ids
    }

    mutating func noteIDs(_ ids: [UUID: Int64], ofEntity entity: String) {
        generic[entity] = ids
    }

    /// The key and row of the removed object of `kind` with `id`, taken back (nil when there is none, or it was taken).
    mutating func takeBack(_ kind: StoreMapping.Kind, id: UUID, in table: String) -> (key: Int64, row: Row)? {
        guard let key = typed[kind]?[UUIDKey(id)] else { return nil }
        return takeBack(key, in: table)
    }

    /// As `takeBack(_:id:in:)`, for a generic entity's object.
    mutating func takeBack(entity: String, id: UUID, in table: String) -> (key: Int64, row: Row)? {
        guard let key = generic[entity]?[id] else { return nil }
        return takeBack(key, in: table)
    }

    private mutating func takeBack(_ key: Int64, in table: String) -> (key: Int64, row: Row)? {
        guard let row = rows[table]?.removeValue(forKey: key) else { return nil }
        return (key, row)
    }

    /// The removed rows no record took back, by table then key: the objects the import deleted.
    var deleted: [(table: String, key: Int64, entity: Int64)] {
        rows.sorted { $0.key < $1.key }.flatMap { table, rows in
            rows.keys.sorted().map { (table, $0, rows[$0]!.entity) }
        }
    }
}
