import CSQLite
import Foundation

/// Tables outside the model: the archive's raw tables written back, and the R-tree fetch indexes rebuilt from their
/// entities' rows.
///
/// Into a store that has the table already (a restore's template made it, or an earlier import), rows are appended:
/// a row identical to one the table holds is left alone (importing the same archive twice changes nothing), a row
/// whose key clashes with a different row fails the import (skip mode leaves it out), and replace mode empties the
/// table first. A missing table is created from the archive's statement, which must be exactly one `CREATE TABLE` or
/// `CREATE VIRTUAL TABLE` of that name (SQLite makes a virtual table's shadow tables), and its indexes from theirs.
/// A table the target keeps for Core Data (an entity's, a join table, a derived index) is never written this way.
extension StoreWriter {
    func insert(_ table: RawTable, path: String, mode: ImportMode) throws -> ImportOperations? {
        do {
            return try write(table, path: path, mode: mode)
        } catch let error as SchemaStatementError {
            throw TaskInterchangeError(.invalidData, "\(path): \(error.message); nothing was imported")
        } catch let error as SQLiteError {
            throw TaskInterchangeError(
                .invalidData, "\(path): the target cannot take this table: \(error.message); nothing was imported")
        }
    }

    private func write(_ table: RawTable, path: String, mode: ImportMode) throws -> ImportOperations {
        guard !table.name.lowercased().hasPrefix("sqlite_") else {
            throw SchemaStatementError(message: "\(table.name) is a name SQLite keeps for itself")
        }
        let existing = try database.scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [.text(table.name)])
        if existing == nil {
            try create(table, path: path)
        } else if !schema.rawTables.contains(where: { $0.lowercased() == table.name.lowercased() }) {
            throw SchemaStatementError(
                message: "the target's \(table.name) is a table Core Data keeps (\(kindName(table.name))), not one "
                    + "the app added; an archive's table cannot write into it")
        }
        let quoted = Database.quote(table.name)
        let stored = try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table.name)]).compactMap {
            $0[0].string?.lowercased()
        }
        let carried = table.columns.map { $0.lowercased() }
        guard carried == stored || carried == ["rowid"] + stored else {
            throw SchemaStatementError(
                message: "the archive's columns (\(table.columns.joined(separator: ", "))) are not the target "
                    + "table's (\(stored.joined(separator: ", ")))")
        }
        var done = ImportOperations()
        if mode == .replace && existing != nil {
            try database.execute("DELETE FROM \(quoted)")
            done.deleted = database.changes
        }
        let columns = table.columns.map(Database.quote)
        let insert = try database.prepare(table.insertStatement)
        let holdsRows = try database.scalar("SELECT 1 FROM \(quoted) LIMIT 1") != nil
        let find =
            holdsRows
            ? try database.prepare(
                "SELECT 1 FROM \(quoted) WHERE "
                    + columns.enumerated().map { "\($1) IS ?\($0 + 1)" }.joined(separator: " AND ") + " LIMIT 1")
            : nil
        for (offset, row) in table.rows.enumerated() {
            guard row.count == columns.count else {
                throw SchemaStatementError(
                    message: "rows[\(offset)] has \(row.count) cells for \(columns.count) columns")
            }
            if let find {
                find.reset()
                RawTable.bind(row, to: find)
                if try find.step() {
                    done.unchanged += 1
                    continue
                }
            }
            insert.reset()
            RawTable.bind(row, to: insert)
            if let clash = try Self.run(insert) {
                guard mode == .skip else {
                    throw TaskInterchangeError(
                        .invalidData,
                        "\(path).rows[\(offset)]: the row clashes with a different row the target's \(table.name) "
                            + "holds (\(clash)); nothing was imported")
                }
                done.skipped += 1
            } else {
                done.inserted += 1
            }
            if offset % 4_096 == 4_095 { try Cancellation.checkpoint() }
        }
        return done
    }

    /// Creates the table and its indexes from the archive's statements, each checked by SQLite's parser first.
    private func create(_ table: RawTable, path: String) throws {
        do {
            try database.executeSchemaStatement(
                table.statement, type: table.isVirtual ? .virtualTable : .table, name: table.name)
        } catch let error as SchemaStatementError {
            throw SchemaStatementError(message: "statement: \(error.message)")
        }
        for (offset, index) in table.indexes.enumerated() {
            do {
                try database.executeSchemaStatement(index, type: .index, on: table.name)
            } catch let error as SchemaStatementError {
                throw SchemaStatementError(message: "indexes[\(offset)]: \(error.message)")
            }
        }
        schema.tableKinds[table.name] = table.isVirtual ? .virtual(module: "") : .app
    }

    private func kindName(_ table: String) -> String {
        switch schema.kind(of: table) {
        case .entity?: return "an entity's table"
        case .join?: return "a many-to-many join table"
        case .system?, .internalEntity?: return "its own bookkeeping"
        case .rtreeIndex?: return "an R-tree fetch index, rebuilt from its entity's rows"
        case .shadow(let owner)?: return "storage of the virtual table \(owner)"
        case .app?, .virtual?, nil: return "a table"
        }
    }

    /// Runs an insert; a constraint it breaks is returned as SQLite's message, not thrown.
    private static func run(_ insert: Statement) throws(SQLiteError) -> String? {
        do {
            try insert.run()
            return nil
        } catch {
            guard error.code & 0xFF == SQLITE_CONSTRAINT else { throw error }
            return error.message
        }
    }

    /// Fills every R-tree fetch index from its entity's table, as Core Data's triggers would have on each insert:
    /// the triggers never fire on this connection (the store's triggers call functions only Core Data registers).
    func rebuildFetchIndexes() throws {
        for index in schema.tables(of: .rtreeIndex) {
            guard let source = schema.fetchIndexSource(of: index) else { continue }
            let quoted = Database.quote(index)
            try database.execute("DELETE FROM \(quoted)")
            try database.execute(
                "INSERT INTO \(quoted) (\(source.columns.map(Database.quote).joined(separator: ", "))) SELECT "
                    + source.sources.map(Database.quote).joined(separator: ", ")
                    + " FROM \(Database.quote(source.table)) ORDER BY \(CoreDataNames.primaryKey)")
        }
    }
}
