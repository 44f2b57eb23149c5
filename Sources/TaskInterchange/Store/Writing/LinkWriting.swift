/// How a store writer writes links: where each relationship's links go, the statements of generic relationships, the
/// task–tag join rows and generic row writes queued for the end of a transaction, and the positions of links written
/// from the other side.
struct LinkWriting {
    /// The task–tag join rows to write at the end of the import (`writeTagLinks`).
    var tagLinks = LinkQueue()
    /// `kind.relationship` → where its links go (nil: nowhere in this target).
    var targets: [String: StoreWriter.LinkTarget?] = [:]
    /// Prepared statements per generic relationship (`Entity.property`).
    var entityStatements: [String: StoreWriter.LinkStatements] = [:]
    /// The generic relationships' row writes, run at the end of the import (`writeEntityLinks`).
    var entityRows = RowWriteQueue()
    /// Links written so far to each object through its side of a pair the archive carried from the other side.
    private var inverseCounts: [String: Int] = [:]

    /// The index of the next link written to `object` through the other side of a pair: 0, 1, 2, … per object.
    mutating func nextInverseIndex(of object: String) -> Int {
        defer { inverseCounts[object, default: 0] += 1 }
        return inverseCounts[object, default: 0]
    }
}
