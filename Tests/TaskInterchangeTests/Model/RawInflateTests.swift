import Foundation
import Testing
@testable import TaskInterchange

@Suite("Raw DEFLATE")
struct RawInflateTests {
    /// zlib level 9, window bits −15, of "hello hello hello hello, model cache" (fixed Huffman codes, back references).
    static let compressed = Data([
        203, 72, 205, 201, 201, 87, 200, 64, 39, 117, 20, 114, 243, 83, 82, 115, 20, 146, 19, 147, 51, 82, 1,
    ])
    /// 100 000 zero bytes in 114 compressed bytes: a ratio of almost 900.
    static let zeros = Data(
        base64Encoded:
            "7cExAQAAAMKg9U9tDQ+gAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgFcD"
    )!

    @Test("Huffman-coded and stored blocks inflate to the original bytes")
    func roundTrip() throws {
        #expect(
            String(decoding: try RawInflate.inflate(Self.compressed), as: UTF8.self)
                == "hello hello hello hello, model cache")
        #expect(try RawInflate.inflate(Self.zeros) == Data(count: 100_000))
        let large = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        #expect(try RawInflate.inflate(ModelArchiveBuilder.storedDeflate(large)) == large)
    }

    @Test("every truncation of a stream is an error, and empty input is truncated")
    func truncated() {
        #expect(throws: RawInflateError.truncated) { try RawInflate.inflate(Data()) }
        for length in 1..<Self.compressed.count {
            #expect(throws: RawInflateError.self) { try RawInflate.inflate(Self.compressed.prefix(length)) }
        }
        #expect(throws: RawInflateError.truncated) { try RawInflate.inflate(Self.compressed.dropLast()) }
    }

    @Test("invalid DEFLATE is reported as corrupt with zlib's reason")
    func corrupt() {
        #expect {
            try RawInflate.inflate(Data([0xFF, 0xFF, 0xFF, 0xFF]))
        } throws: { error in
            guard case .corrupt(let reason) = error as? RawInflateError else { return false }
            return !reason.isEmpty
        }
        // A zlib-wrapped stream (78 9C header) is not raw DEFLATE.
        #expect(throws: RawInflateError.self) {
            try RawInflate.inflate(Data([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]))
        }
    }

    @Test("output beyond the limit is refused before it is all produced")
    func limit() {
        #expect(throws: RawInflateError.tooLarge(limit: 50_000)) { try RawInflate.inflate(Self.zeros, limit: 50_000) }
        #expect(throws: Never.self) { try RawInflate.inflate(Self.zeros, limit: 100_000) }
    }

    @Test("bytes after the end of the stream are an error")
    func trailing() {
        #expect(throws: RawInflateError.trailingData(count: 3)) {
            try RawInflate.inflate(Self.compressed + Data([1, 2, 3]))
        }
    }
}
