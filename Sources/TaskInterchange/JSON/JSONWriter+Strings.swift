extension JSONWriter {
    /// Appends `string` as a quoted JSON string, escaped per RFC 8259.
    ///
    /// Only `"`, `\` and control characters below U+0020 are escaped; `/` and non-ASCII characters are written as
    /// UTF-8, which Swift strings always hold validly.
    mutating func appendString(_ string: String) {
        var string = string
        // `withUTF8` only copies when the string is not already contiguous UTF-8 (bridged strings); native ones are.
        string.withUTF8 { appendQuoted(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `string` as `appendString` does; one longer than the flush threshold (an externally stored photo, say)
    /// goes through the buffer a threshold's worth at a time, each piece written to the sink, so the buffer never
    /// grows to hold a second copy of it.
    /// - Throws: whatever the sink throws.
    mutating func appendLongString(_ string: String) throws {
        var string = string
        guard string.utf8.count > flushThreshold else { return appendString(string) }
        try string.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            storage.append(UInt8(ascii: "\""))
            var start = 0
            while start < bytes.count {
                // A piece may end inside a UTF-8 sequence: only ASCII bytes are escaped, the rest copied as they are.
                let end = min(bytes.count, start + flushThreshold)
                appendEscaped(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                try flush()
                start = end
            }
            storage.append(UInt8(ascii: "\""))
        }
    }

    /// Appends valid UTF-8 bytes as a quoted, escaped JSON string.
    mutating func appendQuoted(_ bytes: UnsafeRawBufferPointer) {
        // Room for the common case, no escapes; each escape reserves its own.
        storage.reserve(bytes.count + 2)
        storage.appendReserved(UInt8(ascii: "\""))
        appendEscaped(bytes)
        storage.append(UInt8(ascii: "\""))
    }

    /// Appends bytes escaped, without quotes.
    private mutating func appendEscaped(_ bytes: UnsafeRawBufferPointer) {
        let table = JSONWriter.escapeTable
        table.withUnsafeBufferPointer { table in
            var runStart = 0
            var index = 0
            let count = bytes.count
            while index < count {
                index = JSONWriter.skipUnescaped(bytes, from: index)
                guard index < count else { break }
                let byte = bytes[index]
                let escape = table[Int(byte)]
                if escape == 0 {
                    index += 1
                    continue
                }
                // Copy the unescaped run in one go: most strings are a single run.
                if runStart < index { storage.append(bytes.baseAddress! + runStart, count: index - runStart) }
                storage.reserve(6)
                storage.appendReserved(UInt8(ascii: "\\"))
                if escape == UInt8(ascii: "u") {
                    storage.appendReserved(UInt8(ascii: "u"))
                    storage.appendReserved(UInt8(ascii: "0"))
                    storage.appendReserved(UInt8(ascii: "0"))
                    storage.appendReserved(JSONWriter.hexDigit(byte >> 4))
                    storage.appendReserved(JSONWriter.hexDigit(byte & 0xF))
                } else {
                    storage.appendReserved(escape)
                }
                index += 1
                runStart = index
            }
            if runStart < count { storage.append(bytes.baseAddress! + runStart, count: count - runStart) }
        }
    }

    /// The first position at or after `position` whose 8-byte word may hold `"`, `\` or a control character;
    /// non-ASCII bytes never need escaping and are skipped too.
    private static func skipUnescaped(_ bytes: UnsafeRawBufferPointer, from position: Int) -> Int {
        var position = position
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // "Has a zero byte" and "has a byte below 0x20" tests: exact about whether, not where.
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { break }
            position += 8
        }
        return position
    }

    /// The uppercase hexadecimal digit for 0…15.
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// For each byte: 0 when it is written as is, otherwise the letter after the backslash (`u` for `\u00XX`).
    static let escapeTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in 0..<0x20 { table[byte] = UInt8(ascii: "u") }
        table[0x08] = UInt8(ascii: "b")
        table[0x09] = UInt8(ascii: "t")
        table[0x0A] = UInt8(ascii: "n")
        table[0x0C] = UInt8(ascii: "f")
        table[0x0D] = UInt8(ascii: "r")
        table[Int(UInt8(ascii: "\""))] = UInt8(ascii: "\"")
        table[Int(UInt8(ascii: "\\"))] = UInt8(ascii: "\\")
        return table
    }()
}
