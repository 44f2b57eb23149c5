extension GraphComparison {
    /// Verifies that `target` holds the records `digests` fingerprinted, reading only `target`: the result
    /// `verify(_:against:detailLimit:)` gives when each of the file's records has its fingerprint's twin in the
    /// target. Under the log's model change, `target` is a store read with the app's model of the change's target
    /// version, as `verify(_:against:versionMapping:)` reads it with that change. Nil when that cannot be told this
    /// way — a record differs or is missing, the fingerprints are not one whole side, the file leaves fields out, the
    /// target is not in order — and then only the full comparison says what differs.
    /// - Throws: as `verify(_:against:detailLimit:)` when the target cannot be read.
    static func verify(
        digests: DigestLog, name: String, against b: GraphSource, detailLimit: Int = 1000
    ) throws -> GraphDiff? {
        guard var header = digests.header, digests.isComplete, !digests.conflicting else { return nil }
        let identity = header.source?.storeUUID
        var target = b.deriving(from: identity)
        if let change = digests.change {
            // The tally counts what the change dropped in one read of the file; a store read by its model cache is
            // not the change's target version.
            guard digests.reads == 1, case .store(_, _, _?) = b.storage else { return nil }
            header.source?.model = change.mapping.targetDeclarations
            target = target.reading(through: change)
        } else if case .store(_, _, _?) = b.storage {
            // Read with its app's model, the store is compared through a model change the log did not follow.
            return nil
        }
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
        var result = builder.result
        if digests.change != nil { result.modelChange = digests.tally }
        return result.isEqual ? result : nil
    }
}
