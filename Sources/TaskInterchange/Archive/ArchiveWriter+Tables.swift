import Foundation

/// The `tables` section (after the generic entities, before the counts): tables the app added outside its model,
/// `{"<name>": {"statement": …, "indexes": […], "columns": […], "rows": [[cell, …], …]}}`, names in ascending order;
/// an NDJSON line per table (`"type": "table"`, with its `name`). A cell is `null`, an integer, a real written with a
/// fraction or an exponent (so it never reads back as an integer; `{"real": "Infinity"}` for the infinities), a
/// string for text, `{"blob": base64}`, or `{"textBytes": base64}` for text that is not valid UTF-8.
extension ArchiveWriter {
    /// Writes a table. Version 1 has no place for it: it is counted in `droppedFields["tables"]`.
    /// - Throws: `ArchiveWritingError.outOfOrder` (before `begin(header:)`, after `finish()`, or a name that does
    ///   not sort after the previous table's), or the sink's error.
    mutating func write(table: RawTable) throws {
        guard case .writing = stage else {
            throw ArchiveWritingError.outOfOrder(
                stage == .ready
                    ? "begin(header:) must be called before writing tables" : "no tables can be written after finish()")
        }
        guard options.formatVersion == 2 else {
            droppedFields["tables", default: 0] += 1
            return
        }
        if let last = tableGroup {
            guard last < table.name else {
                throw ArchiveWritingError.outOfOrder(
                    "table \(table.name) cannot follow \(last): tables are written in ascending name order")
            }
        } else if options.layout != .ndjson {
            try closeRecordSections()
            key("tables")
            openObject(breaksLines: true)
        }
        tableGroup = table.name
        if options.layout == .ndjson {
            beginRecord(type: "\"table\"")
            key("name")
            output.appendString(table.name)
        } else {
            key(dynamic: table.name)
            openObject(breaksLines: false)
        }
        key("statement")
        output.appendString(table.statement)
        if !table.indexes.isEmpty {
            key("indexes")
            openArray(breaksLines: false)
            for index in table.indexes {
                element()
                output.appendString(index)
            }
            close()
        }
        key("columns")
        openArray(breaksLines: false)
        for column in table.columns {
            element()
            output.appendString(column)
        }
        close()
        key("rows")
        openArray(breaksLines: options.layout != .ndjson)
        for row in table.rows {
            element()
            openArray(breaksLines: false)
            for cell in row {
                element()
                try write(cell)
            }
            close()
            try output.flushIfNeeded()
        }
        close()
        close()
        if options.layout == .ndjson { output.appendByte(UInt8(ascii: "\n")) }
        try output.flushIfNeeded()
    }

    private mutating func write(_ cell: RawTable.Cell) throws {
        switch cell {
        case .null: output.appendNull()
        case .integer(let value): output.appendInteger(Int(value))
        case .real(let value) where value.isFinite:
            // Swift's shortest round-trip form always has a fraction or an exponent (`1.0`, `-0.0`, `1e-05`).
            try output.appendDouble(value)
        case .real(let value):
            openObject(breaksLines: false)
            key("real")
            output.appendString(value < 0 ? "-Infinity" : "Infinity")
            close()
        case .text(let text): try output.appendLongString(text)
        case .textBytes(let bytes): try writeTagged("textBytes", bytes)
        case .blob(let bytes): try writeTagged("blob", bytes)
        }
    }

    private mutating func writeTagged(_ tag: StaticString, _ bytes: [UInt8]) throws {
        openObject(breaksLines: false)
        key(tag)
        try output.appendLongString(Data(bytes).base64EncodedString())
        close()
    }

    /// Writes what the record sections still owe before another top-level member: empty sections up to `tasks`,
    /// the open section or the generic section closed.
    mutating func closeRecordSections() throws {
        if entityGroup == nil {
            // Every section before the tables is written, empty when nothing was.
            try enterSection(.task)
            if sectionIsOpen { close() }
            sectionIsOpen = false
        } else {
            closeEntities()
        }
    }
}
