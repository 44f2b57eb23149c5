import Foundation
import Testing
@testable import TaskInterchange

/// SHA-1 and the name-based ids built on it, against published digests: every length around a block's edge (where
/// the padding takes one block or two), a message of many blocks, and RFC 9562's version-5 example.
@Suite("SHA-1")
struct SHA1Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test("the FIPS 180 examples and a million bytes")
    func publishedDigests() {
        #expect(Self.hex(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(Self.hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            Self.hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(
            Self.hex(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test(
        "lengths on either side of a block's edge: the bytes 0, 1, 2, … of that length",
        arguments: [
            (55, "8ae2d46729cfe68ff927af5eec9c7d1b66d65ac2"), (56, "636e2ec698dac903498e648bd2f3af641d3c88cb"),
            (63, "6d942da0c4392b123528f2905c713a3ce28364bd"), (64, "c6138d514ffa2135bfce0ed0b8fac65669917ec7"),
            (65, "69bd728ad6e13cd76ff19751fde427b00e395746"), (119, "41c89d06001bab4ab78736b44efe7ce18ce6ae08"),
            (120, "d3dbd653bd8597b7475321b60a36891278e6a04a"),
        ])
    func blockEdges(length: Int, digest: String) {
        #expect(Self.hex(SHA1.hash((0..<length).map { UInt8($0) })) == digest)
    }

    @Test("version-5 ids: RFC 9562's example in the DNS namespace, and a derived Core Data object id")
    func nameBasedIDs() throws {
        let dns = try #require(UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"))
        #expect(UUID(nameBased: "www.example.com", namespace: dns).uuidString == "2ED6657D-E927-568B-95E1-2665A8AEA6A2")
        let derived = UUID.derived(storeUUID: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", entity: "Book", primaryKey: 42)
        #expect(derived.uuidString == "E083751A-36DD-5EA5-8873-AB2C50BB9CD3")
    }

    @Test("one entity's ids, its URI prefix hashed once, for prefixes ending anywhere in a block")
    func derivedIdentityAtEveryPrefixLength() {
        for store in ["B411DBC6-DA25-422C-9741-2C34DEFB7108", ""] {
            // 16 + 13 + store + 1 + entity + 2 bytes of prefix: every remainder modulo 64, and more than one block.
            for length in 0...140 {
                let entity = String(repeating: "E", count: length)
                let identity = DerivedIdentity(storeUUID: store, entity: entity)
                for key: Int64 in [0, 7, 123_456, -45, .max, .min] {
                    #expect(
                        identity.id(of: key) == UUID(nameBased: "x-coredata://\(store)/\(entity)/p\(key)"),
                        "\(store.count) \(length) \(key)")
                }
            }
        }
    }

    @Test("a derived id is the version-5 id of the object URI, for every shape of key")
    func derivedIDsSpellTheURI() {
        let store = "B411DBC6-DA25-422C-9741-2C34DEFB7108"
        for key: Int64 in [0, 1, 9, 10, 99, 100, 12_345, 1_000_000_007, -1, -90, .max, .min] {
            for entity in ["Author", "Ünïcode Entity", ""] {
                #expect(
                    UUID.derived(storeUUID: store, entity: entity, primaryKey: key)
                        == UUID(nameBased: "x-coredata://\(store)/\(entity)/p\(key)"), "\(entity) \(key)")
            }
        }
    }
}
