/// A raw table's rows as SQL: how an import appends them, and how validation runs them the same way.
extension RawTable {
    /// `INSERT INTO "name" ("a", "b") VALUES (?, ?)`: one row of `columns`.
    var insertStatement: String {
        let columns = columns.map(Database.quote)
        return "INSERT INTO \(Database.quote(name)) (\(columns.joined(separator: ", "))) VALUES "
            + "(\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }

    /// Binds one row's cells, in order, to `statement`'s parameters.
    static func bind(_ row: [Cell], to statement: Statement) {
        for (offset, cell) in row.enumerated() {
            let index = Int32(offset + 1)
            switch cell {
            case .null: statement.bindNull(at: index)
            case .integer(let value): statement.bind(value, at: index)
            case .real(let value): statement.bind(value, at: index)
            case .text(let text): statement.bind(text, at: index)
            case .textBytes(let bytes): bytes.withUnsafeBytes { statement.bind(textBytes: $0, at: index) }
            case .blob(let bytes): bytes.withUnsafeBytes { statement.bind(blob: $0, at: index) }
            }
        }
    }
}
