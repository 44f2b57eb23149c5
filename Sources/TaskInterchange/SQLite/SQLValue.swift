import Foundation

/// A value stored in or bound to an SQLite column.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as an integer, when it is one (or a real with an integral value).
    package var int64: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    /// The value as a Double, when it is numeric.
    package var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The value as text, when it is text.
    package var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// True for SQL NULL.
    package var isNull: Bool { self == .null }
}
