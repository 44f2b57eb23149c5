/// How a store writer writes rows: the statements its rows go through, each prepared once per writer, and the keys
/// it hands out.
struct RowWriting {
    /// The keys this import hands out and keeps (`StoreWriter+Keys.swift`).
    var keys = KeyAllocator()
    /// Row statements per typed kind.
    var kinds: [StoreMapping.Kind: RowStatements] = [:]
    /// Row statements per generic entity.
    var entities: [String: StoreWriter.EntityStatements] = [:]
    /// Other statements (join rows, subtask removal, entity numbers), by their SQL.
    private var prepared: [String: Statement] = [:]

    /// `sql` prepared in `database` the first time it is asked for; the same statement after that.
    mutating func prepared(_ sql: String, in database: Database) throws -> Statement {
        if let statement = prepared[sql] { return statement }
        let statement = try database.prepare(sql)
        prepared[sql] = statement
        return statement
    }
}
