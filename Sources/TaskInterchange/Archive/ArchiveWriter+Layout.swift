import Foundation

extension ArchiveWriter {
    /// The open objects and arrays as bits, one per level (bit 0 is the outermost), so that writing a separator
    /// touches no array. Archives nest at most six levels deep (a table's blob cell).
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

    /// Writes the separator and `"name":` for a member whose name is data (an `extra` property), escaped.
    mutating func key(dynamic name: String) {
        separate()
        output.appendString(name)
        output.appendRaw(options.layout == .pretty ? ": " : ":")
    }

    /// Writes a record's `extra` object (keys sorted, so the output is deterministic); nothing when it has none.
    mutating func writeExtra(_ extra: [String: ExtraValue]?) throws {
        guard let extra, !extra.isEmpty else { return }
        key("extra")
        try writeValues(extra)
    }

    /// Writes an object of property values, keys sorted: an `extra` object or a generic record's `values`.
    /// - Throws: what the sink throws (a long value is written through to it).
    mutating func writeValues(_ extra: [String: ExtraValue]) throws {
        openObject(breaksLines: false)
        for name in extra.keys.sorted() {
            key(dynamic: name)
            switch extra[name]! {
            case .null: output.appendNull()
            case .bool(let value): output.appendBool(value)
            case .integer(let value): output.appendInteger(Int(value))
            // Non-finite values never reach an `extra` (the store reader reports them instead).
            case .double(let value): (try? output.appendDouble(value)) ?? output.appendNull()
            case .string(let value): try output.appendLongString(value)
            case .array(let ids):
                openArray(breaksLines: false)
                for id in ids {
                    element()
                    output.appendString(id)
                }
                close()
            case .stored(let cell): try writeCell(cell)
            }
        }
        close()
    }

    /// Writes a misfit cell as `{"storedAs": …, "value": …}` (see `StoredCell`).
    private mutating func writeCell(_ cell: StoredCell) throws {
        openObject(breaksLines: false)
        key("storedAs")
        output.appendString(cell.storageClass)
        key("value")
        switch cell {
        case .integer(let value): output.appendInteger(Int(value))
        case .real(let value):
            if let text = StoredCell.nonFinite(value) {
                output.appendString(text)
            } else {
                try output.appendDouble(value)
            }
        case .text(let value): try output.appendLongString(value)
        case .blob(let value): try output.appendLongString(Data(value).base64EncodedString())
        }
        close()
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
        let storage = output.storage
        storage.reserve(38)
        let text = UnsafeMutableRawPointer(storage.base + storage.count)
        text.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        CanonicalUUID.spell(id, at: text + 1)
        text.storeBytes(of: UInt8(ascii: "\""), toByteOffset: 37, as: UInt8.self)
        storage.count += 38
    }

    /// Writes a date as quoted `LosslessDate` text; the caller has checked that it is representable.
    mutating func appendLosslessDate(_ date: Date) {
        var storage = output.storage
        storage.append(UInt8(ascii: "\""))
        // Checked by the package methods before anything of the record was written.
        try? LosslessDate.append(date.timeIntervalSinceReferenceDate, to: &storage)
        storage.append(UInt8(ascii: "\""))
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
