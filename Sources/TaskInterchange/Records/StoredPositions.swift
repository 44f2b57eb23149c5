/// The stored positions of an ordered relationship (`Z_FOK_` values), as an archive carries them beside the list's ids.
/// An import keeps them only while they follow the list's order — ties allowed, which a store breaks by key as its
/// readers do — so a list reordered or extended by hand is numbered afresh rather than stored in an order it does not
/// have.
enum StoredPositions {
    /// Whether `positions` can be written as they are for a list of `count` elements.
    static func areUsable(_ positions: [Int64?], count: Int) -> Bool {
        guard positions.count == count else { return false }
        var previous = Int64.min
        for position in positions {
            guard let position, position >= previous else { return false }
            previous = position
        }
        return true
    }

    /// The position Core Data gives the element at `index` of a list numbered afresh: spaced by 1024 from 2048 (as in
    /// the Apple-written Bookmarks fixture).
    static func fresh(at index: Int) -> Int64 {
        Int64(index + 2) * 1024
    }
}
