extension JSONWriter {
    /// Appends `string` as a quoted JSON string, escaped per RFC 8259.
    ///
    /// Only `"`, `\` and control characters below U+0020 are escaped; `/` and non-ASCII characters are written as
    /// UTF-8, which Swift strings always hold validly.
    public mutating func appendString(_ string: String) {
        var string = string
        // `withUTF8` only copies when the string is not already contiguous UTF-8 (bridged strings); native ones are.
        string.withUTF8 { appendQuoted(UnsafeRawBufferPointer($0)) }
    }

    /// Appends valid UTF-8 bytes as a quoted, escaped JSON string.
    mutating func appendQuoted(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            let escape = JSONWriter.escapeTable[Int(byte)]
            if escape == 0 {
                index += 1
                continue
            }
            // Copy the unescaped run in one go: most strings are a single run.
            if runStart < index {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
            }
            buffer.append(UInt8(ascii: "\\"))
            if escape == UInt8(ascii: "u") {
                buffer.append(UInt8(ascii: "u"))
                buffer.append(UInt8(ascii: "0"))
                buffer.append(UInt8(ascii: "0"))
                buffer.append(JSONWriter.hexDigits[Int(byte >> 4)])
                buffer.append(JSONWriter.hexDigits[Int(byte & 0xF)])
            } else {
                buffer.append(escape)
            }
            index += 1
            runStart = index
        }
        if runStart < count {
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<count]))
        }
        buffer.append(UInt8(ascii: "\""))
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

    /// Uppercase hexadecimal digits, by value.
    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
