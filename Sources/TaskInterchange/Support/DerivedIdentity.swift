import Foundation

/// The derived ids (`UUID.derived`) of one entity's rows in one store: version-5 UUIDs of the object URIs
/// `x-coredata://<store UUID>/<Entity>/p<Z_PK>`.
///
/// Every URI of an entity starts with the same bytes (the namespace, the store UUID, the entity), which fill at
/// least one SHA-1 block for a store with a UUID: that part is hashed once, and each id hashes only its key's block.
/// An export derives one id per generic record and per link.
struct DerivedIdentity: Sendable {
    /// The hash after the prefix's whole blocks.
    private let prefixHash: SHA1
    /// The prefix's bytes after them (fewer than 64).
    private let prefixRest: [UInt8]
    /// How many bytes the whole blocks held.
    private let absorbed: Int

    init(storeUUID: String, entity: String) {
        var prefix: [UInt8] = withUnsafeBytes(of: UUID.urlNamespace.uuid) { Array($0) }
        prefix += Array("x-coredata://".utf8) + Array(storeUUID.utf8) + [UInt8(ascii: "/")] + Array(entity.utf8)
        prefix += Array("/p".utf8)
        var hash = SHA1()
        absorbed = prefix.withUnsafeBytes { hash.absorbBlocks(of: $0) }
        prefixHash = hash
        prefixRest = Array(prefix[absorbed...])
    }

    /// The id of the row whose primary key is `key`.
    func id(of key: Int64) -> UUID {
        // The prefix's rest, then the key in decimal as string interpolation spells it (a sign and up to 19 digits).
        withUnsafeTemporaryAllocation(byteCount: 64 + 20, alignment: 8) { buffer in
            prefixRest.withUnsafeBytes { rest in
                if let base = rest.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: rest.count) }
            }
            var end = prefixRest.count
            if key < 0 {
                buffer[end] = UInt8(ascii: "-")
                end += 1
            }
            var magnitude = key.magnitude
            var digits = 1
            var rest = magnitude / 10
            while rest != 0 {
                digits += 1
                rest /= 10
            }
            for index in stride(from: end + digits - 1, through: end, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            end += digits
            var hash = prefixHash
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<end])
            let whole = hash.absorbBlocks(of: bytes)
            return UUID(
                version5Digest: hash.finish(
                    rest: UnsafeRawBufferPointer(rebasing: bytes[whole...]), length: absorbed + end))
        }
    }
}
