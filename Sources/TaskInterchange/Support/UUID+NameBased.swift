import Foundation

extension UUID {
    /// The RFC 4122 URL namespace, used for ids derived from Core Data object URIs.
    static let urlNamespace = UUID(uuidString: "6BA7B811-9DAD-11D1-80B4-00C04FD430C8")!

    /// A version-5 (SHA-1, name-based) UUID: the same name always gives the same id.
    init(nameBased name: String, namespace: UUID = UUID.urlNamespace) {
        let namespaceBytes = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        var digest = SHA1.hash(namespaceBytes + Array(name.utf8))
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        self = UUID(
            uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
            ))
    }

    /// The id `tasks` gives a store row that has no usable UUID: derived from its object URI
    /// `x-coredata://<store UUID>/<Entity>/p<Z_PK>`, so every export of the same store gives the same id.
    static func derived(storeUUID: String, entity: String, primaryKey: Int64) -> UUID {
        UUID(nameBased: "x-coredata://\(storeUUID)/\(entity)/p\(primaryKey)")
    }

    /// Reads a 16-byte blob as a UUID.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        self = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The 16 bytes of this UUID, as Core Data stores it in a BLOB.
    var bytes: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }
}
