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
        var digest = SHA1.hash(message)
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
    ///
    /// An export derives one per generic record and per link, so the URI's bytes are laid out in a scratch buffer
    /// rather than built as a string.
    static func derived(storeUUID: String, entity: String, primaryKey: Int64) -> UUID {
        var store = storeUUID
        var entity = entity
        return store.withUTF8 { store in
            entity.withUTF8 { entity in
                // The namespace, `x-coredata://`, the store, `/`, the entity, `/p`, and at most 20 characters of key.
                let capacity = 16 + 13 + store.count + 1 + entity.count + 2 + 20
                return withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
                    var end = 0
                    func append(_ bytes: UnsafeRawBufferPointer) {
                        guard let base = bytes.baseAddress else { return }
                        (buffer.baseAddress! + end).copyMemory(from: base, byteCount: bytes.count)
                        end += bytes.count
                    }
                    func append(_ text: StaticString) {
                        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
                    }
                    withUnsafeBytes(of: urlNamespace.uuid) { append($0) }
                    append("x-coredata://")
                    append(UnsafeRawBufferPointer(store))
                    append("/")
                    append(UnsafeRawBufferPointer(entity))
                    append("/p")
                    // The key in decimal as string interpolation spells it, most significant digit first.
                    if primaryKey < 0 { append("-") }
                    var magnitude = primaryKey.magnitude
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
                    return UUID(version5Of: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
                }
            }
        }
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
