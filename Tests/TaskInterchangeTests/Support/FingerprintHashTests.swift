import Foundation
import Testing
@testable import TaskInterchange

/// The fingerprints' hash tells apart what a comparison must: any one bit changed, at any place and length around
/// its 16-byte steps; trailing zero bytes; many similar records.
@Suite("Fingerprint hash")
struct FingerprintHashTests {
    static func hash(_ bytes: [UInt8]) -> [UInt64] {
        let (high, low) = bytes.withUnsafeBytes { FingerprintHash.hash($0) }
        return [high, low]
    }

    @Test(
        "the same bytes give the same hash; any single bit flipped changes both halves",
        arguments: [1, 15, 16, 17, 40, 64])
    func bitFlips(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let original = Self.hash(bytes)
        #expect(Self.hash(bytes) == original)
        for index in 0..<length {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                let changed = Self.hash(flipped)
                #expect(changed[0] != original[0] && changed[1] != original[1], "byte \(index), bit \(bit)")
            }
        }
    }

    @Test("no 16-byte block erases what came before it: different prefixes stay different after it")
    func noResettingBlock() {
        // Words that once zeroed a lane (the constants themselves), and a few plain ones.
        let words: [UInt64] = [
            0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B, 0x3C6E_F372_FE94_F82B, 0xA54F_F53A_5F1D_36F1, 0, .max, 1,
        ]
        let prefixes: [[UInt8]] = [
            [UInt8](repeating: 0, count: 16), Array("hello, world!!!!".utf8), [UInt8](repeating: 0xFF, count: 16),
        ]
        for first in words {
            for second in words {
                var block: [UInt8] = []
                withUnsafeBytes(of: first.littleEndian) { block.append(contentsOf: $0) }
                withUnsafeBytes(of: second.littleEndian) { block.append(contentsOf: $0) }
                let hashes = prefixes.map { Self.hash($0 + block + Array("common suffix".utf8)) }
                #expect(Set(hashes).count == prefixes.count, "block \(first), \(second)")
            }
        }
    }

    @Test("zero bytes of every length from 0 to 64 all differ")
    func trailingZeros() {
        let hashes = (0...64).map { Self.hash([UInt8](repeating: 0, count: $0)) }
        #expect(Set(hashes).count == hashes.count)
    }

    @Test("200,000 records that differ in one number, one character or one byte's place have 200,000 hashes")
    func similarRecords() {
        var seen = Set<[UInt64]>()
        for number in 0..<100_000 {
            seen.insert(Self.hash(Array("task \(number) title".utf8)))
            // A byte set at one of 32 places, then the number itself: 100,000 different inputs of 36 bytes.
            var bytes = [UInt8](repeating: 0, count: 32)
            bytes[number % 32] = 1
            withUnsafeBytes(of: UInt32(number).littleEndian) { bytes.append(contentsOf: $0) }
            seen.insert(Self.hash(bytes))
        }
        #expect(seen.count == 200_000)
    }
}
