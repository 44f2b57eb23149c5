import Foundation
import Testing
@testable import TaskInterchange

/// The canonical spelling is Foundation's `uuidString`, made without Foundation's formatter, and reads back.
@Suite("Canonical UUID")
struct CanonicalUUIDTests {
    @Test("spells every id as uuidString does and parses it back: random ids and every digit in every place")
    func spellsAsFoundation() {
        var ids = (0..<2_000).map { _ in UUID() }
        for digit in UInt8(0)...15 {
            ids.append(
                UUID(
                    uuid: (
                        digit << 4 | digit, digit, digit << 4, 0xFF, digit, 0, digit, digit,
                        digit, digit, digit << 4, digit, digit, digit, digit << 4 | 0xA, digit
                    )))
        }
        for id in ids {
            let text = CanonicalUUID.string(id)
            #expect(text == id.uuidString)
            #expect(CanonicalUUID.parse(text) == id)
        }
    }
}
