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

    /// The integer a value of this class reads as exactly, where an integer key belongs: an integer, a whole real
    /// within Int64's range, or text that SQLite's numeric conversion makes one of those (`'7'`, `' 7 '`, `'+7'`,
    /// `'7.0'`, so a key compares equal to it in SQL too); nil for NULL, a blob and anything else, which SQLite's
    /// integer reading would silently turn into another key (`'abc'` → 0, `7.5` → 7).
    func exactInteger(integer: () -> Int64, real: () -> Double, text: () -> String?) -> Int64? {
        switch self {
        case .integer: return integer()
        case .real: return Self.wholeNumber(real())
        case .text:
            // SQLite's conversion skips ASCII white space around the number.
            let space: (Character) -> Bool = { " \t\n\r\u{0B}\u{0C}".contains($0) }
            guard let stored = text() else { return nil }
            let text = stored.drop(while: space).reversed().drop(while: space).reversed()
            guard !text.isEmpty else { return nil }
            if let value = Int64(String(text)) { return value }
            // A decimal number only (Swift would also read hexadecimal, `inf` and `nan`, which SQLite does not).
            guard text.allSatisfy({ "+-0123456789.eE".contains($0) }), let value = Double(String(text)) else {
                return nil
            }
            return Self.wholeNumber(value)
        case .blob, .null: return nil
        }
    }

    private static func wholeNumber(_ value: Double) -> Int64? {
        value >= -0x1p63 && value < 0x1p63 && value.rounded(.towardZero) == value ? Int64(value) : nil
    }
}
