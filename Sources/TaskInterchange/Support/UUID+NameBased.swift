import Foundation

extension UUID {
    /// The RFC 4122 URL namespace, used for ids derived from Core Data object URIs.
    static let urlNamespace = UUID(uuidString: "6BA7B811-9DAD-11D1-80B4-00C04FD430C8")!

    /// A version-5 (SHA-1, name-based) UUID: the same name always gives the same id.
    init(nameBased name: String, namespace: UUID = UUID.urlNamespace) {
        var name = name
        // The namespace and the name side by side in one scratch buffer: no arrays per id.
        self = name.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(byteCount: 16 + utf8.count, alignment: 1) { buffer in
                withUnsafeBytes(of: namespace.uuid) { buffer.copyMemory(from: $0) }
                if let base = utf8.baseAddress {
                    (buffer.baseAddress! + 16).copyMemory(from: base, byteCount: utf8.count)
                }
                return UUID(version5Of: UnsafeRawBufferPointer(buffer))
            }
        }
    }

    /// The version-5 UUID of a namespace's 16 bytes followed by a name's.
    private init(version5Of message: UnsafeRawBufferPointer) {
        var sha = SHA1()
        let absorbed = sha.absorbBlocks(of: message)
        self.init(
            version5Digest: sha.finish(
                rest: UnsafeRawBufferPointer(rebasing: message[absorbed...]), length: message.count))
    }

    /// The version-5 UUID whose name hashed to `digest`: its first 16 bytes, version and variant bits set.
    init(version5Digest digest: SHA1.Digest) {
        let words = (digest.0.bigEndian, digest.1.bigEndian, digest.2.bigEndian, digest.3.bigEndian)
        var uuid = withUnsafeBytes(of: words) { $0.loadUnaligned(as: uuid_t.self) }
        uuid.6 = (uuid.6 & 0x0F) | 0x50
        uuid.8 = (uuid.8 & 0x3F) | 0x80
        self.init(uuid: uuid)
    }

    /// The id `tasks` gives a store row that has no usable UUID: derived from its object URI
    /// `x-coredata://<store UUID>/<Entity>/p<Z_PK>`, so every export of the same store gives the same id. Readers that
    /// derive many ids of one entity keep a ``DerivedIdentity``.
    static func derived(storeUUID: String, entity: String, primaryKey: Int64) -> UUID {
        DerivedIdentity(storeUUID: storeUUID, entity: entity).id(of: primaryKey)
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
