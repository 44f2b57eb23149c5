import Foundation

extension ArchiveWriter {
    /// The open objects and arrays as bits, one per level (bit 0 is the outermost), so that writing a separator
    /// touches no array. Archives nest at most five levels deep.
    struct Levels {
        /// How many levels are open.
        var depth = 0
        /// Set for `{`, clear for `[`.
        var isObject: UInt32 = 0
        /// Set when members or elements each start on a new line.
        var breaksLines: UInt32 = 0
        /// Set once a member or element has been written.
        var hasContent: UInt32 = 0
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
        levels.depth -= 1
        let bit: UInt32 = 1 << UInt32(levels.depth)
        if levels.breaksLines & bit != 0 && levels.hasContent & bit != 0 { newline() }
        output.appendByte(levels.isObject & bit != 0 ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        levels.isObject &= ~bit
        levels.breaksLines &= ~bit
        levels.hasContent &= ~bit
    }

    /// Writes a UUID as its uppercase, hyphenated 36-character string, quoted.
    mutating func appendUUID(_ id: UUID) {
        // Formatted on the stack and appended at once: one capacity check instead of 38.
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { text in
            withUnsafeBytes(of: id.uuid) { bytes in
                JSONWriter.hexDigits.withUnsafeBufferPointer { hex in
                    text[0] = UInt8(ascii: "\"")
                    var position = 1
                    for index in 0..<16 {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            text[position] = UInt8(ascii: "-")
                            position += 1
                        }
                        text[position] = hex[Int(bytes[index] >> 4)]
                        text[position + 1] = hex[Int(bytes[index] & 0xF)]
                        position += 2
                    }
                    text[37] = UInt8(ascii: "\"")
                }
            }
        }
        withUnsafeBytes(of: text) { output.appendRaw(UnsafeRawBufferPointer(rebasing: $0[0..<38])) }
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
        let bit: UInt32 = 1 << UInt32(levels.depth)
        if isObject { levels.isObject |= bit }
        if breaks { levels.breaksLines |= bit }
        levels.depth += 1
    }

    private mutating func separate() {
        let bit: UInt32 = 1 << UInt32(levels.depth - 1)
        if levels.hasContent & bit != 0 {
            output.appendByte(UInt8(ascii: ","))
        } else {
            levels.hasContent |= bit
        }
        if levels.breaksLines & bit != 0 { newline() }
    }

    /// A line break, indented two spaces per open level in the pretty layout.
    private mutating func newline() {
        output.appendByte(UInt8(ascii: "\n"))
        if options.layout == .pretty { output.appendSpaces(2 * levels.depth) }
    }
}
