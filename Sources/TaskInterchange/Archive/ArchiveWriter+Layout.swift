import Foundation

extension ArchiveWriter {
    /// One open object or array.
    struct Level {
        /// `{` rather than `[`.
        var isObject: Bool
        /// Members or elements each start on a new line.
        var breaksLines: Bool
        /// How many members or elements have been written.
        var count = 0
    }

    /// Opens an object; `breaksLines` applies to the compact layout (pretty always breaks, NDJSON never does).
    mutating func openObject(breaksLines: Bool) {
        open(UInt8(ascii: "{"), isObject: true, breaksLines: breaksLines)
    }

    /// Opens an array; `breaksLines` as for `openObject`.
    mutating func openArray(breaksLines: Bool) {
        open(UInt8(ascii: "["), isObject: false, breaksLines: breaksLines)
    }

    /// Writes the separator and `"name":` of the next member of the open object.
    mutating func key(_ name: StaticString) {
        separate()
        output.appendByte(UInt8(ascii: "\""))
        output.appendRaw(name)
        output.appendRaw(options.layout == .pretty ? "\": " : "\":")
    }

    /// Writes the separator before the next element of the open array.
    mutating func element() {
        separate()
    }

    /// Closes the innermost object or array.
    mutating func close() {
        let level = levels.removeLast()
        if level.breaksLines && level.count > 0 { newline() }
        output.appendByte(level.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// Writes a UUID as its uppercase, hyphenated 36-character string, quoted.
    mutating func appendUUID(_ id: UUID) {
        output.withBuffer { buffer in
            buffer.append(UInt8(ascii: "\""))
            withUnsafeBytes(of: id.uuid) { bytes in
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 { buffer.append(UInt8(ascii: "-")) }
                    buffer.append(JSONWriter.hexDigits[Int(bytes[index] >> 4)])
                    buffer.append(JSONWriter.hexDigits[Int(bytes[index] & 0xF)])
                }
            }
            buffer.append(UInt8(ascii: "\""))
        }
    }

    /// Writes a date as quoted `LosslessDate` text; the caller has checked that it is representable.
    mutating func appendLosslessDate(_ date: Date) {
        output.withBuffer { buffer in
            buffer.append(UInt8(ascii: "\""))
            // Checked by the public methods before anything of the record was written.
            try? LosslessDate.append(date.timeIntervalSinceReferenceDate, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
    }

    private mutating func open(_ opener: UInt8, isObject: Bool, breaksLines: Bool) {
        output.appendByte(opener)
        let breaks: Bool
        switch options.layout {
        case .pretty: breaks = true
        case .compact: breaks = breaksLines
        case .ndjson: breaks = false
        }
        levels.append(Level(isObject: isObject, breaksLines: breaks))
    }

    private mutating func separate() {
        let top = levels.count - 1
        if levels[top].count > 0 { output.appendByte(UInt8(ascii: ",")) }
        levels[top].count += 1
        if levels[top].breaksLines { newline() }
    }

    /// A line break, indented two spaces per open level in the pretty layout.
    private mutating func newline() {
        output.appendByte(UInt8(ascii: "\n"))
        if options.layout == .pretty { output.appendSpaces(2 * levels.count) }
    }
}
