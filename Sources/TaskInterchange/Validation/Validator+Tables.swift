import CSQLite

extension Validator {
    /// A raw table's statement and indexes go through the check an import runs them through, on a database in
    /// memory: a statement an import would refuse is refused here, so validation and import agree.
    public mutating func visitTable(_ table: RawTable, index: Int) {
        for issue in Self.issues(of: table) { visitIssue(issue) }
    }

    /// What an import's schema check says of `table`'s statement and indexes (a statement that does not start as a
    /// table's is the reader's to report).
    static func issues(of table: RawTable) -> [ValidationIssue] {
        guard table.startsAsTable else { return [] }
        let path = JSONPath.member("$.tables", table.name)
        let database: Database
        do {
            database = try Database(path: ":memory:", mode: .memory)
        } catch {
            return [ValidationIssue(.refusedStatement, path: path + ".statement", message: "cannot check it: \(error)")]
        }
        do {
            try database.executeSchemaStatement(
                table.statement, type: table.isVirtual ? .virtualTable : .table, name: table.name)
        } catch {
            return [ValidationIssue(.refusedStatement, path: path + ".statement", message: Self.reason(error))]
        }
        var issues: [ValidationIssue] = []
        for (offset, index) in table.indexes.enumerated() {
            do {
                try database.executeSchemaStatement(index, type: .index, on: table.name)
            } catch {
                issues.append(
                    ValidationIssue(.refusedStatement, path: "\(path).indexes[\(offset)]", message: Self.reason(error)))
            }
        }
        if let issue = rowIssue(of: table, in: database, path: path) { issues.append(issue) }
        return issues
    }

    /// The rows appended as an import appends them: a function the statement's constraints call that fails a row (an
    /// extension loader, say) fails the import too. A constraint a row breaks is left out: whether that fails the
    /// import depends on its mode (skip leaves the row out).
    private static func rowIssue(of table: RawTable, in database: Database, path: String) -> ValidationIssue? {
        guard !table.rows.isEmpty, !table.isVirtual else { return nil }
        do {
            let insert = try database.prepare(table.insertStatement)
            for (offset, row) in table.rows.enumerated() where row.count == table.columns.count {
                insert.reset()
                RawTable.bind(row, to: insert)
                do {
                    try insert.run()
                } catch  where error.code & 0xFF == SQLITE_CONSTRAINT {
                    continue
                } catch {
                    return ValidationIssue(
                        .refusedStatement, path: "\(path).rows[\(offset)]",
                        message: "an import cannot write this row into the table its statement makes: \(error.message)")
                }
            }
        } catch {
            return ValidationIssue(.refusedStatement, path: path + ".statement", message: Self.reason(error))
        }
        return nil
    }

    private static func reason(_ error: any Error) -> String {
        let text = (error as? SchemaStatementError)?.message ?? (error as? SQLiteError)?.message ?? "\(error)"
        return "an import refuses to run it: \(text)"
    }
}
