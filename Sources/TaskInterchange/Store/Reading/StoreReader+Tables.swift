import Foundation

/// Tables outside the model, read raw for the archive's `tables` section after the generic entities: each one's
/// statement, the indexes on it and every row, cells as SQLite stores them. A virtual table is read through itself,
/// never through its shadow tables. What cannot be carried is named with its row count (`uncarried-table`).
extension StoreReader {
    /// Hands every raw table of a whole-store export to `visitor`, in name order.
    func emitTables(into visitor: inout some ArchiveVisitor) throws {
        guard requested.isEverything && carriesEverything else { return }
        var index = 0
        for name in schema.rawTables {
            try Cancellation.checkpoint()
            guard let table = try readRawTable(name) else { continue }
            try visitor.visitTable(table, index: index)
            index += 1
        }
    }

    /// The table's statement, indexes and rows, or nil (with a finding) when it cannot be carried.
    private func readRawTable(_ name: String) throws -> RawTable? {
        let quoted = Database.quote(name)
        guard
            let statement = try database.scalar(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)])?.string
        else { return nil }
        let columns = (schema.columns(of: name) ?? []).map(\.name)
        let isVirtual = schema.kind(of: name) != .app
        if columns.isEmpty || (try? database.prepare("SELECT * FROM \(quoted) LIMIT 0")) == nil {
            try reportUncarried(
                name, "a virtual table whose module this SQLite does not have; its rows cannot be read")
            return nil
        }
        if isVirtual && Self.keepsNoContent(statement) {
            try reportUncarried(
                name, "a full-text index that keeps no content (content=''); its rows cannot be read back")
            return nil
        }
        let withRowid = try hasUnaliasedRowid(name, statement: statement, columns: columns, isVirtual: isVirtual)
        let names = (withRowid ? ["rowid"] : []) + columns
        let select = try database.prepare(
            "SELECT \(names.map(Database.quote).joined(separator: ", ")) FROM \(quoted)"
                + (withRowid ? " ORDER BY rowid" : ""))
        var rows: [[RawTable.Cell]] = []
        let count = Int32(names.count)
        while try select.step() {
            rows.append((0..<count).map { Self.cell(select, at: $0) })
            if rows.count % 4_096 == 0 { try Cancellation.checkpoint() }
        }
        let indexes = try database.rows(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY rowid",
            [.text(name)]
        ).compactMap { $0[0].string }
        return RawTable(name: name, statement: statement, indexes: indexes, columns: names, rows: rows)
    }

    /// Whether the table keeps a rowid no column names: a virtual table's (but an R-tree's key is its first column),
    /// or a plain table's without an `INTEGER PRIMARY KEY` (not `WITHOUT ROWID`).
    private func hasUnaliasedRowid(_ name: String, statement: String, columns: [String], isVirtual: Bool) throws
        -> Bool
    {
        let reserved: Set<String> = ["ROWID", "OID", "_ROWID_"]
        guard !columns.contains(where: { reserved.contains($0.uppercased()) }),
            (try? database.prepare("SELECT rowid FROM \(Database.quote(name)) LIMIT 0")) != nil
        else { return false }
        if isVirtual { return StoreSchema.module(ofVirtualTable: statement) != "rtree" }
        let keys = try database.rows("SELECT type FROM pragma_table_info(?) WHERE pk > 0", [.text(name)])
        return !(keys.count == 1 && keys[0][0].string?.uppercased() == "INTEGER")
    }

    /// `content=''`: a full-text index of text it does not keep.
    static func keepsNoContent(_ statement: String) -> Bool {
        let compact = statement.lowercased().filter { !$0.isWhitespace }
        return compact.contains("content=''") || compact.contains("content=\"\"")
    }

    /// One cell as stored: text that is not valid UTF-8 keeps its bytes.
    static func cell(_ statement: Statement, at index: Int32) -> RawTable.Cell {
        switch statement.columnType(at: index) {
        case .null: return .null
        case .integer: return .integer(statement.int64(at: index))
        case .real: return .real(statement.double(at: index))
        case .blob: return .blob(statement.blob(at: index) ?? [])
        case .text:
            guard let (text, isExact) = statement.checkedText(at: index) else { return .null }
            return isExact ? .text(text) : .textBytes(statement.blob(at: index) ?? [])
        }
    }

    /// Names a table that cannot be carried, with the rows SQLite can count (through the table, else through the
    /// shadow table that keeps one row per row).
    private func reportUncarried(_ name: String, _ reason: String) throws {
        var rows: Int64?
        for table in [name, name + "_content", name + "_docsize", name + "_rowid"] {
            guard table == name || schema.kind(of: table) != nil else { continue }
            if let count = try? database.scalar("SELECT count(*) FROM \(Database.quote(table))")?.int64 {
                rows = count
                break
            }
        }
        log.add(
            .uncarriedTable, entity: name,
            message: "\(reason); not exported" + (rows == nil ? " (its rows cannot be counted)" : ""),
            count: Int(rows ?? 0))
    }
}
