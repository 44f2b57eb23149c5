import CSQLite

/// SQLite's storage classes: what a value of a row is (`sqlite3_column_type`, `sqlite3_value_type`), whatever the
/// column's declared type.
package enum StorageClass: Sendable {
    case integer, real, text, blob, null

    /// The class SQLite's code (`SQLITE_INTEGER` … `SQLITE_NULL`) names.
    init(_ code: Int32) {
        switch code {
        case SQLITE_INTEGER: self = .integer
        case SQLITE_FLOAT: self = .real
        case SQLITE_TEXT: self = .text
        case SQLITE_BLOB: self = .blob
        // SQLITE_NULL, the only other code SQLite gives.
        default: self = .null
        }
    }
}
