import Foundation
import Testing
@testable import TaskInterchange

@Suite struct JSONScannerTests {
    /// Scans `text` as one document with `skipValue`, returning the error (nil when it is well-formed).
    private func scanError(_ text: String) -> JSONScanError? {
        scanError(Array(text.utf8))
    }

    private func scanError(_ bytes: [UInt8]) -> JSONScanError? {
        bytes.withUnsafeBytes { input -> JSONScanError? in
            var scanner = JSONScanner(input)
            do throws(JSONScanError) {
                try scanner.beginDocument()
                try scanner.skipValue()
                try scanner.endDocument()
                return nil
            } catch {
                return error
            }
        }
    }

    @Test(
        "malformed documents fail at the exact line and column",
        arguments: [
            ("{\"a\": 1,}", JSONScanError.Kind.trailingComma, 1, 8),
            ("[1, 2,\n ]", .trailingComma, 1, 6),
            ("{\n  \"a\": 01\n}", .malformedNumber, 2, 8),
            ("[1.]", .malformedNumber, 1, 4),
            ("[1e]", .malformedNumber, 1, 4),
            ("[-]", .malformedNumber, 1, 3),
            ("[NaN]", .invalidLiteral, 1, 2),
            ("[Infinity]", .invalidLiteral, 1, 2),
            ("[-Infinity]", .invalidLiteral, 1, 2),
            ("[tru]", .invalidLiteral, 1, 2),
            ("[truex]", .invalidLiteral, 1, 6),
            ("{\"a\" 1}", .unexpectedCharacter, 1, 6),
            ("{\"a\":1 \"b\":2}", .unexpectedCharacter, 1, 8),
            ("{a:1}", .unexpectedCharacter, 1, 2),
            ("['a']", .unexpectedCharacter, 1, 2),
            ("[1] // note", .trailingGarbage, 1, 5),
            ("{} {}", .trailingGarbage, 1, 4),
            ("\n\n  [1,\n   2", .unexpectedEndOfInput, 4, 5),
            ("[\"abc", .unexpectedEndOfInput, 1, 2),
            ("[\"a\tb\"]", .controlCharacterInString, 1, 4),
            ("[\"a\\x\"]", .invalidEscape, 1, 4),
            ("[\"\\u12G4\"]", .invalidEscape, 1, 3),
            ("[\"x\\uD83D\"]", .loneSurrogate, 1, 4),
            ("[\"\\uD83Dx\"]", .loneSurrogate, 1, 3),
            ("[\"\\uDE00\"]", .loneSurrogate, 1, 3),
            ("[\"\\uD83D\\u0041\"]", .loneSurrogate, 1, 3),
            ("/* c */ {}", .unexpectedCharacter, 1, 1),
        ])
    func malformed(text: String, kind: JSONScanError.Kind, line: Int, column: Int) throws {
        let error = try #require(scanError(text))
        #expect(error.kind == kind, "\(error)")
        #expect(error.line == line && error.column == column, "\(error)")
    }

    @Test(
        "invalid UTF-8 inside a string is rejected at the offending byte",
        arguments: [
            ([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], 4),
            ([0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], 3),
            ([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], 3),
            ([0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D], 3),
            ([0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], 3),
            ([0x5B, 0x22, 0x80, 0x22, 0x5D], 3),
        ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], column: Int) throws {
        let error = try #require(scanError(bytes))
        #expect(error.kind == .invalidUTF8)
        #expect(error.line == 1 && error.column == column)
    }

    @Test("a byte order mark, empty input and whitespace-only input get their own messages")
    func documentStart() throws {
        let bom = try #require(scanError([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]))
        #expect(bom.kind == .byteOrderMark && bom.line == 1 && bom.column == 1)
        #expect(bom.message.contains("byte order mark"))
        let empty = try #require(scanError(""))
        #expect(empty.kind == .emptyInput && empty.message.contains("empty"))
        let blank = try #require(scanError(" \n\t "))
        #expect(blank.kind == .emptyInput && blank.message.contains("only whitespace"))
    }

    @Test("100,000 nested brackets fail at the depth budget without recursing")
    func depthLimit() throws {
        let error = try #require(scanError([UInt8](repeating: UInt8(ascii: "["), count: 100_000)))
        #expect(error.kind == .tooDeep)
        #expect(error.column == JSONScanner.defaultMaximumDepth + 1)
        let deepButAllowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(scanError(deepButAllowed) == nil)
    }

    @Test("a 50 MB string is read and skipped in linear time")
    func hugeString() throws {
        // Built with Array(repeating:), which is fast even in debug builds (appending a sequence is not).
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 50_000_003)
        bytes[0] = UInt8(ascii: "\"")
        bytes[25_000_000] = UInt8(ascii: "\\")
        bytes[25_000_001] = UInt8(ascii: "n")
        bytes[50_000_002] = UInt8(ascii: "\"")
        let clock = ContinuousClock()
        let start = clock.now
        let string = try bytes.withUnsafeBytes { input in
            var scanner = JSONScanner(input)
            return try scanner.readString()
        }
        #expect(string.utf8.count == 50_000_000)
        #expect(scanError(bytes) == nil)
        #expect(clock.now - start < .seconds(5))
    }

    @Test("escapes decode, including surrogate pairs; unescaped strings are borrowed from the input")
    func escapes() throws {
        let text = #"["\uD83D\uDE00 \u00e9\"\\\/\b\f\n\r\t", "plain"]"#
        try Array(text.utf8).withUnsafeBytes { input in
            var scanner = JSONScanner(input)
            try scanner.beginArray()
            #expect(try scanner.nextElement())
            #expect(try scanner.readString() == "😀 é\"\\/\u{8}\u{C}\n\r\t")
            #expect(try scanner.nextElement())
            guard case .borrowed(let bytes) = try scanner.readStringValue() else {
                Issue.record("an unescaped string should be borrowed")
                return
            }
            #expect(String(decoding: bytes, as: UTF8.self) == "plain")
            #expect(try !scanner.nextElement())
        }
    }

    @Test("integers are exact in Int64; huge integers and 1e400 are out of range, not wrapped")
    func numbers() throws {
        func scan<T>(_ text: String, _ body: (inout JSONScanner) throws -> T) throws -> T {
            try Array(text.utf8).withUnsafeBytes { input in
                var scanner = JSONScanner(input)
                return try body(&scanner)
            }
        }
        #expect(try scan("9223372036854775807") { try $0.readInt64() } == Int64.max)
        #expect(try scan("-9223372036854775808") { try $0.readInt64() } == Int64.min)
        #expect(try scan("  -0.0") { try $0.readDouble() }.sign == .minus)
        #expect(try scan("5e-324") { try $0.readDouble() } == .leastNonzeroMagnitude)
        #expect(try scan("0.30000000000000004") { try $0.readDouble() } == 0.1 + 0.2)
        #expect(try scan("123456789012345678901234567890e-20") { try $0.readDouble() } == 1234567890.1234567)
        for huge in ["9223372036854775808", "-9223372036854775809", "123456789012345678901234567890"] {
            #expect {
                try scan(huge) { try $0.readInt64() }
            } throws: { ($0 as? JSONScanError)?.kind == .numberOutOfRange }
        }
        #expect {
            try scan("[1, 1e400]") { scanner in
                try scanner.beginArray()
                _ = try scanner.nextElement()
                _ = try scanner.readDouble()
                _ = try scanner.nextElement()
                return try scanner.readDouble()
            }
        } throws: { error in
            guard let error = error as? JSONScanError else { return false }
            return error.kind == .numberOutOfRange && error.line == 1 && error.column == 5
        }
        #expect(try scan("1.5") { try $0.readNumber().int64Value } == nil)
    }

    @Test("the fast double path agrees with Foundation's parser on random numbers")
    func doubleParsing() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<5_000 {
            let value =
                round % 2 == 0
                ? Double(bitPattern: generator.next())
                : Double.random(in: -1e10...1e10, using: &generator) / Double([1, 1e3, 1e9][round % 3])
            guard value.isFinite else { continue }
            let texts = [
                value.description, String(format: "%.15g", value), String(format: "%.3f", value.magnitude),
                String(format: "%.19g", value), String(format: "%.18e", value), String(format: "%.12f", value),
            ]
            for text in texts {
                let parsed = Array(text.utf8).withUnsafeBytes { DoubleParsing.parse($0) }
                #expect(parsed?.bitPattern == Double(text)?.bitPattern, "\(text)")
            }
        }
    }

    @Test("skipValue walks a mixed document and leaves the scanner after it")
    func skipping() throws {
        let text = #"{"a": [1, {"b": [true, false, null, "x\"y"]}, -2.5e3], "c": {}} , 7"#
        try Array(text.utf8).withUnsafeBytes { input in
            var scanner = JSONScanner(input)
            try scanner.skipValue()
            #expect(scanner.depth == 0)
            scanner.skipWhitespace()
            #expect(scanner.input[scanner.index] == UInt8(ascii: ","))
        }
    }
}
