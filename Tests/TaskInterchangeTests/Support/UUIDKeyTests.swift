import Foundation
import Testing
@testable import TaskInterchange

/// The id key with a cheap hash: it stands for its UUID exactly, and sets and dictionaries of it find what they hold
/// and nothing else, for random ids and for ids that differ in a few bits only.
@Suite("UUID key")
struct UUIDKeyTests {
    @Test("a key gives its UUID back, and keys are equal exactly when their UUIDs are")
    func roundTrip() throws {
        let id = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
        #expect(UUIDKey(id).id == id)
        #expect(UUIDKey(id) == UUIDKey(try #require(UUID(uuidString: "00112233-4455-6677-8899-aabbccddeeff"))))
        #expect(UUIDKey(id) != UUIDKey(try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFE"))))
        #expect(UUIDKey(id) != UUIDKey(try #require(UUID(uuidString: "10112233-4455-6677-8899-AABBCCDDEEFF"))))
    }

    @Test("a set holds each of many ids once, finds them all, and finds no other", arguments: [false, true])
    func sets(sequential: Bool) {
        // Sequential ids differ only in their last bytes: the hash must still spread them.
        let ids = (0..<50_000).map { number -> UUID in
            guard sequential else { return UUID() }
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes[14] = UInt8(number >> 8)
            bytes[15] = UInt8(number & 0xFF)
            return UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
        }
        var set = Set(ids.map(UUIDKey.init))
        #expect(set.count == ids.count)
        #expect(ids.allSatisfy { set.contains(UUIDKey($0)) })
        #expect(ids.prefix(1_000).allSatisfy { !set.insert(UUIDKey($0)).inserted })
        #expect(set.count == ids.count)
        let others = (0..<1_000).map { _ in UUID() }
        #expect(!others.contains { set.contains(UUIDKey($0)) })
        let map = Dictionary(uniqueKeysWithValues: ids.enumerated().map { (UUIDKey($0.element), $0.offset) })
        #expect(ids.enumerated().allSatisfy { map[UUIDKey($0.element)] == $0.offset })
    }
}
