import Foundation

/// The rows of one kind, ordered by their exchange id: rank → id, and primary key → rank.
///
/// Export writes records sorted by id; SQLite sorts rows by `rank(Z_PK)` so no record is held in memory, only this
/// index (20 bytes a row: the id and a rank).
struct KeyIndex {
    /// Ids in rank order (sorted by their uppercase string form, which is also their byte order).
    private(set) var ids: [UUID] = []
    private var dense: [Int32] = []
    private var denseBase: Int64 = 0
    private var sparse: [Int64: Int32] = [:]
    /// True when primary keys rise with rank, as in a store `tasks import` wrote from an id-sorted archive: then the
    /// table's own key order is id order, and reading in it needs no sort.
    let keysAscend: Bool

    /// Builds the index from rows already sorted by id.
    init(_ entries: [StoreIdentity.Entry]) {
        ids = entries.map(\.id)
        keysAscend = zip(entries, entries.dropFirst()).allSatisfy { $0.key < $1.key }
        guard let minKey = entries.lazy.map(\.key).min(), let maxKey = entries.lazy.map(\.key).max() else { return }
        if maxKey - minKey < Int64(entries.count) * 4 + 1024 {
            denseBase = minKey
            dense = [Int32](repeating: -1, count: Int(maxKey - minKey + 1))
            for (rank, entry) in entries.enumerated() { dense[Int(entry.key - minKey)] = Int32(rank) }
        } else {
            for (rank, entry) in entries.enumerated() { sparse[entry.key] = Int32(rank) }
        }
    }

    var count: Int { ids.count }

    /// The position of a row in id order, or nil when the key is not a row of this kind.
    func rank(of key: Int64) -> Int? {
        if !dense.isEmpty {
            let offset = key &- denseBase
            guard offset >= 0, offset < dense.count else { return nil }
            let rank = dense[Int(offset)]
            return rank < 0 ? nil : Int(rank)
        }
        return sparse[key].map(Int.init)
    }

    /// The exchange id of the row with this primary key.
    func id(of key: Int64) -> UUID? {
        rank(of: key).map { ids[$0] }
    }
}
