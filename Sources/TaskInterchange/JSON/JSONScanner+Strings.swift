extension JSONScanner {
    /// The content of a JSON string: borrowed from the input when it had no escapes, decoded otherwise.
    ///
    /// Borrowed bytes are only valid while the scanner's input is.
    enum StringValue {
        /// The string had no escapes: its bytes in the input, without the quotes.
        case borrowed(UnsafeRawBufferPointer)
        /// The string had escapes: its decoded UTF-8 bytes.
        case decoded([UInt8])

        /// Calls `body` with the string's UTF-8 bytes.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            switch self {
            case .borrowed(let bytes): return try body(bytes)
            case .decoded(let bytes): return try bytes.withUnsafeBytes(body)
            }
        }

        /// The string; the scanner has already checked that the bytes are valid UTF-8.
        var string: String {
            withBytes { String(decoding: $0, as: UTF8.self) }
        }

        /// True when the content is exactly `literal`.
        @inline(__always)
        func equals(_ literal: StaticString) -> Bool {
            switch self {
            case .borrowed(let bytes):
                return JSONScanner.StringValue.equal(bytes, literal)
            case .decoded(let bytes):
                return bytes.withUnsafeBytes { JSONScanner.StringValue.equal($0, literal) }
            }
        }

        /// Byte comparison in line: member names are a few bytes, too short to pay for a call to `memcmp`.
        @inline(__always)
        private static func equal(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count == count else { return false }
            let text = literal.utf8Start
            for offset in 0..<count where bytes[offset] != text[offset] { return false }
            return true
        }
    }

    /// Reads a string of at most 32 plain ASCII bytes (no escapes), as member names are, with a simple byte loop;
    /// nil, without moving, for anything else.
    @inline(__always)
    mutating func readShortPlainString() -> StringValue? {
        guard index < input.count, input[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        let end = min(input.count, start + 32)
        var position = start
        while position < end {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return .borrowed(UnsafeRawBufferPointer(rebasing: input[start..<position]))
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            position += 1
        }
        return nil
    }

    /// Reads a string value and returns it as a Swift string.
    ///
    /// - Throws: `JSONScanError` for a malformed string or invalid UTF-8.
    mutating func readString() throws(JSONScanError) -> String {
        try readStringValue().string
    }

    /// Reads a string value, decoding escapes only when there are some.
    ///
    /// - Throws: `JSONScanError` for a missing quote, a raw control character, a bad escape, a lone surrogate or
    ///   invalid UTF-8, located at the offending byte.
    mutating func readStringValue() throws(JSONScanError) -> StringValue {
        skipWhitespace()
        guard index < input.count, input[index] == UInt8(ascii: "\"") else {
            throw error(.unexpectedCharacter, "expected a string, found \(describeValueStart())")
        }
        let start = index + 1
        var position = start
        while true {
            position = skipPlainRun(from: position)
            guard position < input.count else { throw unterminatedString(openedAt: start - 1) }
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return .borrowed(UnsafeRawBufferPointer(rebasing: input[start..<position]))
            }
            if byte == UInt8(ascii: "\\") {
                return .decoded(try readEscapedString(start: start, firstEscape: position))
            }
            position += try checkSpecialByte(at: position)
        }
    }

    /// Moves past a string value, checking it as `readStringValue()` does but keeping nothing.
    ///
    /// - Throws: `JSONScanError` as `readStringValue()` does.
    mutating func skipString() throws(JSONScanError) {
        skipWhitespace()
        guard index < input.count, input[index] == UInt8(ascii: "\"") else {
            throw error(.unexpectedCharacter, "expected a string, found \(describeValueStart())")
        }
        let opening = index
        var position = index + 1
        while true {
            position = skipPlainRun(from: position)
            guard position < input.count else { throw unterminatedString(openedAt: opening) }
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                position += try decodeEscape(at: position).length
            } else {
                position += try checkSpecialByte(at: position)
            }
        }
    }

    /// The rest of a string that has at least one escape, decoded into a new array.
    private mutating func readEscapedString(start: Int, firstEscape: Int) throws(JSONScanError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(firstEscape - start + 32)
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[start..<firstEscape]))
        var position = firstEscape
        while true {
            let runStart = position
            position = skipPlainRun(from: position)
            guard position < input.count else { throw unterminatedString(openedAt: start - 1) }
            let byte = input[position]
            if byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                position += try checkSpecialByte(at: position)
                // Multi-byte characters are copied with the run that follows them.
                if position < input.count { position = skipPlainRun(from: position) }
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[runStart..<position]))
                continue
            }
            if runStart < position {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[runStart..<position]))
            }
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return output
            }
            let (scalar, length) = try decodeEscape(at: position)
            JSONScanner.appendUTF8(scalar, to: &output)
            position += length
        }
    }

    /// The first position at or after `position` holding `"`, `\`, a control character or a non-ASCII byte.
    ///
    /// Looks at eight bytes at a time, so long strings (50 MB notes) cost little even in debug builds.
    private func skipPlainRun(from position: Int) -> Int {
        var position = position
        let count = input.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= count {
            let word = input.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // Classic "has a zero byte" / "has a byte below n" tests; exact about whether, not where.
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                | ((word &- ones &* 0x20) & ~word) | word
            if special & highs != 0 { break }
            position += 8
        }
        while position < count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            position += 1
        }
        return position
    }

    /// Checks a control character or non-ASCII byte inside a string; returns how many bytes the character takes.
    private func checkSpecialByte(at position: Int) throws(JSONScanError) -> Int {
        let byte = input[position]
        if byte < 0x20 {
            throw error(
                .controlCharacterInString,
                "raw control character 0x\(String(byte, radix: 16, uppercase: true)) in a string; "
                    + "control characters must be escaped", at: position)
        }
        return try utf8SequenceLength(at: position)
    }

    /// The length of the well-formed UTF-8 sequence (RFC 3629) starting at `position` with a byte of 0x80 or more.
    private func utf8SequenceLength(at position: Int) throws(JSONScanError) -> Int {
        let lead = input[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xED:
            // Excludes the UTF-16 surrogates U+D800…U+DFFF.
            length = 3
            secondRange = 0x80...0x9F
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3:
            length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default:
            throw invalidUTF8(at: position)
        }
        guard position + length <= input.count, secondRange.contains(input[position + 1]) else {
            throw invalidUTF8(at: position)
        }
        for offset in 2..<length where input[position + offset] & 0xC0 != 0x80 {
            throw invalidUTF8(at: position)
        }
        return length
    }

    /// Decodes the escape whose backslash is at `position`: the Unicode scalar and how many bytes it took.
    private func decodeEscape(at position: Int) throws(JSONScanError) -> (scalar: UInt32, length: Int) {
        guard position + 1 < input.count else { throw unterminatedString(openedAt: position) }
        switch input[position + 1] {
        case UInt8(ascii: "\""): return (0x22, 2)
        case UInt8(ascii: "\\"): return (0x5C, 2)
        case UInt8(ascii: "/"): return (0x2F, 2)
        case UInt8(ascii: "b"): return (0x08, 2)
        case UInt8(ascii: "f"): return (0x0C, 2)
        case UInt8(ascii: "n"): return (0x0A, 2)
        case UInt8(ascii: "r"): return (0x0D, 2)
        case UInt8(ascii: "t"): return (0x09, 2)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(at: position + 2, escapeAt: position)
            switch unit {
            case 0xD800...0xDBFF:
                guard position + 7 < input.count, input[position + 6] == UInt8(ascii: "\\"),
                    input[position + 7] == UInt8(ascii: "u")
                else {
                    throw loneSurrogate(unit, at: position)
                }
                let low = try hexQuad(at: position + 8, escapeAt: position + 6)
                guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(unit, at: position) }
                return (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12)
            case 0xDC00...0xDFFF:
                throw error(
                    .loneSurrogate,
                    "lone low surrogate \\u\(JSONScanner.hex(unit)) in a string; "
                        + "it must follow a high surrogate (\\uD800-\\uDBFF)", at: position)
            default:
                return (unit, 6)
            }
        default:
            throw error(
                .invalidEscape,
                "invalid escape \\\(describeByte(at: position + 1).trimmingQuotes) in a string; "
                    + "JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", at: position)
        }
    }

    /// The value of four hexadecimal digits at `position`.
    private func hexQuad(at position: Int, escapeAt escape: Int) throws(JSONScanError) -> UInt32 {
        guard position + 4 <= input.count else { throw unterminatedString(openedAt: escape) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = input[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw error(.invalidEscape, "\\u must be followed by four hexadecimal digits", at: escape)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func loneSurrogate(_ unit: UInt32, at position: Int) -> JSONScanError {
        error(
            .loneSurrogate,
            "lone high surrogate \\u\(JSONScanner.hex(unit)) in a string; "
                + "it must be followed by a low surrogate escape (\\uDC00-\\uDFFF)", at: position)
    }

    private func invalidUTF8(at position: Int) -> JSONScanError {
        error(
            .invalidUTF8, "invalid UTF-8 in a string (byte 0x\(String(input[position], radix: 16, uppercase: true)))",
            at: position)
    }

    private func unterminatedString(openedAt position: Int) -> JSONScanError {
        error(.unexpectedEndOfInput, "unexpected end of input inside the string that starts here", at: position)
    }

    /// Four uppercase hexadecimal digits.
    private static func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Appends `scalar` (never a surrogate) as UTF-8.
    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

private extension String {
    /// `x` from `'x'`, for quoting a byte inside a message that has its own punctuation.
    var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count == 3 ? String(dropFirst().dropLast()) : self
    }
}
