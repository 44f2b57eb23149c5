import Foundation

/// Reading a kind's fields from a row, as its table (`TypedRecord.fields`) describes them.
extension StoreReader {
    /// Where a kind's fields are in a `SELECT`, worked out once per read: the fields in mapping order (the
    /// modification date last, read after the kind's references), each with its column and its origin for findings.
    struct FieldColumns<Record: TypedRecord> {
        struct Entry {
            var field: FieldLayout<Record>
            var column: Int32
            var origin: Origin
        }

        /// Every field but the modification date.
        let plain: [Entry]
        let modificationDate: Entry?
        /// The `SELECT` list of the fields (NULL for a field the store does not map), in `column` order.
        let selectList: String
        /// The first column after the fields.
        let end: Int32

        init(_ kind: ResolvedMapping.ResolvedKind, from first: Int32) {
            var plain: [Entry] = []
            var modificationDate: Entry?
            var columns: [String] = []
            var next = first
            let order = Record.layout.filter { !$0.isModificationDate } + Record.layout.filter(\.isModificationDate)
            for field in order {
                let column = kind.columns[field.name]
                let entry = Entry(
                    field: field, column: next,
                    origin: Origin(kind: kind, field: field.name, column: column, key: 0))
                if field.isModificationDate { modificationDate = entry } else { plain.append(entry) }
                columns.append(column.map(Database.quote) ?? "NULL")
                next += 1
            }
            self.plain = plain
            self.modificationDate = modificationDate
            selectList = columns.joined(separator: ", ")
            end = next
        }
    }

    /// Reads the fields of `entries` from the current row into `record`.
    func readFields<Record: TypedRecord>(
        _ entries: [FieldColumns<Record>.Entry], into record: inout Record,
        _ statement: Statement, key: Int64
    ) {
        for entry in entries { readField(entry, into: &record, statement, key: key) }
    }

    /// Reads one field, reporting a value that is not what the field needs.
    func readField<Record: TypedRecord>(
        _ entry: FieldColumns<Record>.Entry, into record: inout Record,
        _ statement: Statement, key: Int64
    ) {
        var origin = entry.origin
        origin.key = key
        let column = entry.column
        let field = entry.field
        // A required field's NULL is noted, so a restore can write it back.
        if !field.access.isOptional, origin.column != nil, statement.columnType(at: column) == .null {
            record.nulls = (record.nulls ?? []) + [field.name]
        }
        switch field.access {
        case .text(let slot): record[slot] = requiredString(statement, column, origin)
        case .textOrDefault(let slot):
            // NULL keeps the blank record's default.
            if let text = optionalString(statement, column, origin) { record[slot] = text }
        case .optionalText(let slot): record[slot] = optionalString(statement, column, origin)
        case .flag(let slot): record[slot] = requiredBool(statement, column, origin)
        case .date(let slot): record[slot] = requiredDate(statement, column, origin)
        case .optionalDate(let slot): record[slot] = optionalDate(statement, column, origin)
        case .level(let slot, let range): record[slot] = level(statement, column, origin, in: range)
        case .optionalInteger(let slot): record[slot] = optionalInteger(statement, column, origin)
        }
    }
}
