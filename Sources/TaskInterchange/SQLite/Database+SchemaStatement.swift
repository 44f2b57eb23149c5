import CSQLite

/// Schema statements taken from a store's `sqlite_master` or from an archive are data, not code of ours: each is run
/// only when SQLite itself parses it as one statement that creates one object of the expected type and name in the
/// main schema and does nothing else (no `AS SELECT`, no `ATTACH`, no temporary object, no second statement).
extension Database {
    /// What a schema statement may create.
    enum SchemaObjectType: String, Sendable {
        case table = "CREATE TABLE"
        case virtualTable = "CREATE VIRTUAL TABLE"
        case index = "CREATE INDEX"
        case trigger = "CREATE TRIGGER"
    }

    /// Runs `sql` when SQLite's parser finds it creates exactly one `type` object named `name` (any name when nil)
    /// and nothing else; an index must be on `table` when it is given.
    /// - Throws: `SchemaStatementError` saying what the statement is instead; `SQLiteError` when it fails to run.
    func executeSchemaStatement(_ sql: String, type: SchemaObjectType, name: String? = nil, on table: String? = nil)
        throws
    {
        let check = SchemaStatementCheck()
        sqlite3_set_authorizer(
            handle,
            { context, action, first, second, database, _ in
                guard let context else { return SQLITE_DENY }
                return Unmanaged<SchemaStatementCheck>.fromOpaque(context).takeUnretainedValue().authorize(
                    action, first.map { String(cString: $0) }, second.map { String(cString: $0) },
                    database.map { String(cString: $0) })
            }, Unmanaged.passUnretained(check).toOpaque())
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sql.withCString { text in
            let code = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            if code == SQLITE_OK, let tail, !String(cString: tail).allSatisfy({ $0.isWhitespace || $0 == ";" }) {
                check.refused.append("a second statement")
            }
            return code
        }
        sqlite3_set_authorizer(handle, nil, nil)
        defer { sqlite3_finalize(statement) }
        if let refused = check.refused.first {
            throw SchemaStatementError(message: "not a single \(type.rawValue) statement: it has \(refused)")
        }
        guard code == SQLITE_OK, let statement else {
            throw SchemaStatementError(
                message: "SQLite cannot read it as \(type.rawValue): \(String(cString: sqlite3_errmsg(handle)))")
        }
        guard check.created.count == 1, let created = check.created.first, created.type == type else {
            let found = check.created.map(\.type.rawValue).joined(separator: ", ")
            throw SchemaStatementError(
                message: "not a \(type.rawValue) statement (it creates \(found.isEmpty ? "nothing" : found))")
        }
        if let name, created.name.lowercased() != name.lowercased() {
            throw SchemaStatementError(message: "it creates \(created.name), not \(name)")
        }
        if let table, type == .index || type == .trigger, created.table?.lowercased() != table.lowercased() {
            throw SchemaStatementError(message: "it is on \(created.table ?? "no table"), not on \(table)")
        }
        let result = sqlite3_step(statement)
        guard result == SQLITE_DONE else { throw error(code: result, sql: sql) }
    }
}

/// A schema statement that is not what its place says it is.
struct SchemaStatementError: Error, Sendable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// What SQLite's authorizer reported while one schema statement was prepared.
private final class SchemaStatementCheck {
    var created: [(type: Database.SchemaObjectType, name: String, table: String?)] = []
    var refused: [String] = []

    /// Allows the creation itself, SQLite's bookkeeping in its schema table, reads of the object's own table (a
    /// `CHECK` constraint, an index's columns) and functions (an index expression); refuses everything else.
    func authorize(_ action: Int32, _ first: String?, _ second: String?, _ database: String?) -> Int32 {
        let schemaTables: Set<String> = ["sqlite_master", "sqlite_schema"]
        switch action {
        case SQLITE_CREATE_INDEX where first?.hasPrefix("sqlite_autoindex_") == true:
            break  // a table's own PRIMARY KEY or UNIQUE constraint
        case SQLITE_CREATE_TABLE where database == "main":
            created.append((.table, first ?? "", first))
        case SQLITE_CREATE_VTABLE where database == "main":
            created.append((.virtualTable, first ?? "", first))
        case SQLITE_CREATE_INDEX where database == "main":
            created.append((.index, first ?? "", second))
        case SQLITE_CREATE_TRIGGER where database == "main":
            created.append((.trigger, first ?? "", second))
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_READ,
            SQLITE_DELETE
        where schemaTables.contains(first?.lowercased() ?? ""):
            break
        case SQLITE_READ where created.contains { $0.table?.lowercased() == first?.lowercased() }:
            break
        case SQLITE_FUNCTION, SQLITE_REINDEX:
            break
        default:
            refused.append(Self.describe(action, first))
            return SQLITE_DENY
        }
        return SQLITE_OK
    }

    private static func describe(_ action: Int32, _ first: String?) -> String {
        switch action {
        case SQLITE_SELECT: return "a SELECT"
        case SQLITE_READ: return "a read of \(first ?? "a table")"
        case SQLITE_ATTACH: return "an ATTACH"
        case SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW:
            return "a temporary object"
        case SQLITE_CREATE_VIEW: return "a view"
        case SQLITE_PRAGMA: return "a PRAGMA"
        default: return "an action SQLite numbers \(action)"
        }
    }
}
