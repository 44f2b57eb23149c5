/// The SQLite schema Core Data creates for a model in a new store (system tables, entity tables, join tables, indexes
/// and the names Core Data gives them). On the real stores we hold that carry a model cache, the schema made from the
/// decoded model alone
/// equals the store's own (see `SchemaFixtureTests`); `schemaCaveats` names what a model uses that no real store has
/// confirmed.
extension ObjectModel {
    /// Entity name → its `Z_ENT`: roots in byte-wise name order, each followed depth-first by its sub-entities in
    /// name order, numbered from 1.
    package var entityNumbers: [String: Int64] {
        SchemaLayout(model: self).entityNumbers
    }

    /// `CREATE TABLE`, `CREATE INDEX` and `CREATE TRIGGER` statements in the order Core Data lists them in
    /// `sqlite_master`: each root entity's table followed by the join tables its entities name, then every table's
    /// indexes, then derived-attribute triggers, then `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`.
    /// Persistent-history and CloudKit tables (`A…`) are not part of it: Core Data adds them only when those are on.
    package func schemaStatements() -> [String] {
        SchemaLayout(model: self).statements
    }

    /// What `schemaStatements()` could not reproduce with confidence for this model, one sentence each; empty for
    /// every model of the real stores we hold except where a many-to-many pair lies on one entity.
    package var schemaCaveats: [String] {
        SchemaLayout(model: self).caveats
    }

    /// The schema of an open database as sorted, normalized statements, for comparing two stores: each `sqlite_master`
    /// entry with SQL (SQLite's automatic indexes have none) with runs of white space made one space and no space
    /// inside parentheses.
    /// - Parameter includingInternalTables: false leaves out Core Data's persistent-history and CloudKit tables
    ///   (names starting with `A`: `ACHANGE`, `ATRANSACTION`, `ANSCK…`) and their indexes and triggers.
    /// - Throws: `SQLiteError` when `sqlite_master` cannot be read.
    static func normalizedSchema(of database: Database, includingInternalTables: Bool = true) throws(SQLiteError)
        -> [String]
    {
        try database.rows("SELECT tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL").compactMap {
            row -> String? in
            guard let table = row[0].string, let sql = row[1].string else { return nil }
            if !includingInternalTables && table.hasPrefix("A") { return nil }
            return normalized(sql)
        }.sorted()
    }

    /// One statement with runs of white space made one space, none just inside parentheses, and one after a comma;
    /// quoted text (`'…'`, `"…"`, `` `…` ``, `[…]`) is kept as it is.
    static func normalized(_ sql: String) -> String {
        var result = ""
        var pendingSpace = false
        var closingQuote: Character?
        for character in sql {
            if let quote = closingQuote {
                result.append(character)
                if character == quote { closingQuote = nil }
                continue
            }
            if character.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace && !result.isEmpty && result.last != "(" && character != ")" && character != "," {
                result.append(" ")
            }
            pendingSpace = character == ","
            result.append(character)
            switch character {
            case "'", "\"", "`": closingQuote = character
            case "[": closingQuote = "]"
            default: break
            }
        }
        return result
    }
}
