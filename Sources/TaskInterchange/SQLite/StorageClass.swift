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

    /// The integer a value of this class reads as exactly, where an integer key belongs: an integer, its decimal
    /// text (`'7'`, `'+7'`), a whole real within Int64's range; nil for NULL, a blob and anything else, which SQLite's
    /// own conversion would silently turn into another key (`'abc'` → 0, `7.5` → 7).
    func exactInteger(integer: () -> Int64, real: () -> Double, text: () -> String?) -> Int64? {
        switch self {
        case .integer: return integer()
        case .text: return text().flatMap { Int64($0) }
        case .real:
            let value = real()
            return value >= -0x1p63 && value < 0x1p63 && value.rounded(.towardZero) == value ? Int64(value) : nil
        case .blob, .null: return nil
        }
    }
}
