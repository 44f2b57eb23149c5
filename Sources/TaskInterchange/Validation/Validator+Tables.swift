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
        return issues
    }

    private static func reason(_ error: any Error) -> String {
        let text = (error as? SchemaStatementError)?.message ?? (error as? SQLiteError)?.message ?? "\(error)"
        return "an import refuses to run it: \(text)"
    }
}
