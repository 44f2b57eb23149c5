extension GraphComparison {
    /// Verifies that `target` holds the records `digests` fingerprinted, reading only `target`: the result
    /// `verify(_:against:detailLimit:)` gives when each of the file's records has its fingerprint's twin in the
    /// target. Nil when that cannot be told this way — a record differs or is missing, the fingerprints are not a
    /// whole side, the file is read through a model change or leaves fields out, the target is not in order — and
    /// then only the full comparison says what differs.
    /// - Throws: as `verify(_:against:detailLimit:)` when the target cannot be read.
    static func verify(
        digests: DigestLog, name: String, against b: GraphSource, detailLimit: Int = 1000
    ) throws -> GraphDiff? {
        guard let header = digests.header, digests.isComplete, !digests.conflicting else { return nil }
        // A store read with its app's model is compared through a model change: only the full comparison reads the
        // file that way.
        if case .store(_, _, _?) = b.storage { return nil }
        let identity = header.source?.storeUUID
        let target = b.deriving(from: identity)
        var cursor = Cursor(source: target, side: 1)
        cursor.identityNames = target.identityNames
        defer { cursor.channel.cancel() }
        try cursor.readHeader()
        let storeB = identity ?? cursor.header.source?.storeUUID ?? ""
        if storeB == header.source?.storeUUID ?? "" { cursor.keyedBy = storeB }
        let options = Options(detailLimit: detailLimit, bMayHoldMore: true)
        var builder = DiffBuilder(
            nameA: name, nameB: b.name, options: options, headerA: header, headerB: cursor.header)
        guard builder.ignoredFields.isEmpty else { return nil }
        var buffer: [UInt8] = []
        var found = 0
        do {
            try cursor.advance()
            while let item = cursor.current {
                if let digest = digests.digest(of: item) {
                    guard digest == RecordDigest(item, buffer: &buffer) else { return nil }
                    // The twins are alike in everything compared: counted for both sides, nothing to compare.
                    builder.alike(item)
                    found += 1
                } else {
                    builder.onlyInB(item)
                }
                try cursor.advance()
            }
        } catch is KeyOrderUnavailable {
            return nil
        } catch is NotSorted {
            return nil
        }
        guard found == digests.count else { return nil }
        let result = builder.result
        return result.isEqual ? result : nil
    }
}
