import Foundation
import Testing
@testable import TaskInterchange

/// The order export writes records in: `sortByID` (bucketed by the ids' first bits) gives exactly the order of one
/// comparison sort by id then key, whether the ids are random, share their first bits, or repeat.
@Suite("Store identity")
struct StoreIdentityTests {
    private static func entries(_ count: Int, sharedPrefix: Bool) -> [StoreIdentity.Entry] {
        (0..<count).map { key in
            var id = UUID().uuid
            // Ids that share their first two bytes all fall in one bucket.
            if sharedPrefix { (id.0, id.1) = (0xAB, 0xCD) }
            return StoreIdentity.Entry(id: UUID(uuid: id), key: Int64(key))
        }
    }

    @Test(
        "the same order as a comparison sort, for random ids and for ids sharing their first bits",
        arguments: [false, true])
    func sameOrder(sharedPrefix: Bool) {
        var entries = Self.entries(20_000, sharedPrefix: sharedPrefix)
        // Repeated ids with other keys sort by key.
        entries += entries.prefix(500).map { StoreIdentity.Entry(id: $0.id, key: $0.key + 1_000_000) }
        entries.shuffle()
        var bucketed = entries
        StoreIdentity.sortByID(&bucketed)
        let sorted = entries.sorted(by: <)
        #expect(bucketed.map(\.id) == sorted.map(\.id))
        #expect(bucketed.map(\.key) == sorted.map(\.key))
        #expect(zip(bucketed, bucketed.dropFirst()).allSatisfy { !($1 < $0) })
    }

    @Test("short lists take the plain sort")
    func short() {
        var entries = Self.entries(100, sharedPrefix: false)
        StoreIdentity.sortByID(&entries)
        #expect(entries.map(\.id) == entries.sorted(by: <).map(\.id))
        #expect(entries.map(\.id).map(\.uuidString) == entries.map(\.id).map(\.uuidString).sorted())
    }
}
