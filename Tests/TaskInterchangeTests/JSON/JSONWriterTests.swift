import Foundation
import Testing
@testable import TaskInterchange

@Suite struct JSONWriterTests {
    private func written(_ body: (inout JSONWriter) throws -> Void) throws -> String {
        let buffer = ByteBuffer()
        var writer = JSONWriter(sink: buffer)
        try body(&writer)
        try writer.flush()
        return buffer.string
    }

    @Test("strings are escaped by the RFC 8259 rules and nothing more")
    func escaping() throws {
        let text = try written { $0.appendString("a\"b\\c/d\u{8}\u{C}\n\r\t\u{0}\u{1F}é😀\u{7F}") }
        #expect(text == #""a\"b\\c/d\b\f\n\r\t\u0000\u001Fé😀\#u{7F}""#)
    }

    @Test("every control character, emoji and non-ASCII text survive a write and a scan")
    func escapingRoundTrip() throws {
        var samples = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        samples += ["", "plain", "quote \" backslash \\ slash /", "😀👩‍👩‍👧 family", "日本語のテキスト", "\u{10FFFF}", "tab\tend"]
        samples.append(String(repeating: "long run of ascii text ", count: 500) + "\n")
        for sample in samples {
            let buffer = ByteBuffer()
            var writer = JSONWriter(sink: buffer)
            writer.appendString(sample)
            try writer.flush()
            let read = try buffer.bytes.withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes)
                return try scanner.readString()
            }
            #expect(read == sample)
            #expect(try JSONDecoder().decode(String.self, from: Data(buffer.bytes)) == sample)
        }
    }

    @Test("a string longer than the flush threshold goes to the sink in pieces, escaped as a short one is")
    func longString() throws {
        // Escapes and multi-byte characters on both sides of every 16-byte piece boundary.
        let sample = String(repeating: "ab\"c\\é😀\n日\u{1}x", count: 40)
        let whole = ByteBuffer()
        var reference = JSONWriter(sink: whole)
        reference.appendString(sample)
        try reference.flush()
        let pieces = ByteBuffer()
        var writer = JSONWriter(sink: pieces, flushThreshold: 16)
        writer.appendRaw("[")
        try writer.appendLongString(sample)
        // Everything up to the last piece has reached the sink; the buffer never held more than a piece.
        #expect(writer.bufferedByteCount <= 16 + 6 * 16 + 1)
        writer.appendRaw("]")
        try writer.flush()
        #expect(pieces.bytes == Array("[".utf8) + whole.bytes + Array("]".utf8))
        #expect(try JSONDecoder().decode([String].self, from: Data(pieces.bytes)) == [sample])
    }

    @Test("integers are formatted by hand, including the extremes")
    func integers() throws {
        let text = try written { writer in
            for value in [0, 7, -7, 10, 1_234_567_890, Int.max, Int.min] {
                writer.appendInteger(value)
                writer.appendByte(UInt8(ascii: ","))
            }
        }
        #expect(text == "0,7,-7,10,1234567890,9223372036854775807,-9223372036854775808,")
    }

    @Test("doubles use the shortest round-trip text; non-finite values are refused and write nothing")
    func doubles() throws {
        let text = try written { writer in
            for value in [0.1, 1e-7, 1e20, -0.0, 757_382_400] {
                try writer.appendDouble(value)
                writer.appendByte(UInt8(ascii: " "))
            }
        }
        #expect(text == "0.1 1e-07 1e+20 -0.0 757382400.0 ")
        var writer = JSONWriter(sink: ByteBuffer())
        #expect(throws: JSONEncodingError.nonFiniteNumber(.infinity)) { try writer.appendDouble(.infinity) }
        #expect(throws: JSONEncodingError.self) { try writer.appendDouble(.nan) }
        #expect(writer.bufferedByteCount == 0)
    }

    @Test("the buffer goes to the sink once it passes the threshold, and not before")
    func flushing() throws {
        let buffer = ByteBuffer()
        var writer = JSONWriter(sink: buffer, flushThreshold: 16)
        writer.appendRaw("0123456789")
        try writer.flushIfNeeded()
        #expect(buffer.bytes.isEmpty)
        writer.appendRaw("0123456789")
        try writer.flushIfNeeded()
        #expect(buffer.bytes.count == 20)
        #expect(writer.bufferedByteCount == 0)
    }

    @Test("a file descriptor sink writes everything, and a closed pipe becomes EPIPE with its errno")
    func fileDescriptorSink() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        try payload.withUnsafeBytes { try FileDescriptorSink(fileDescriptor: descriptors[1]).write($0) }
        var received = [UInt8](repeating: 0, count: 2000)
        let count = read(descriptors[0], &received, 2000)
        #expect(count == 1000)
        close(descriptors[0])
        // Without SIGPIPE ignored, the write would end the test process instead of returning EPIPE.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer {
            signal(SIGPIPE, previous)
            close(descriptors[1])
        }
        #expect {
            try payload.withUnsafeBytes { try FileDescriptorSink(fileDescriptor: descriptors[1]).write($0) }
        } throws: { error in
            guard let error = error as? ByteSinkError else { return false }
            return error.isBrokenPipe && error.code == EPIPE && error.description.contains("errno \(EPIPE)")
        }
    }
}
