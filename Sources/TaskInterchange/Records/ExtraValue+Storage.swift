import Foundation

extension ExtraValue {
    /// The cell a store column declared `declaredType` holds for this value, as a writer stores it: dates from their
    /// lossless text into seconds since 2001 (a whole number into a REAL column as a real), UUIDs and base64 into
    /// bytes, decimal text into the integer or double that holds it exactly; text that is none of these stays text,
    /// and a stored cell stays as the store held it. Nil for no value, and for a relationship's ids.
    ///
    /// Records compared with a store's rows (a uniqueness constraint's values, a match rule's) are compared as these
    /// cells, so that a date or a UUID matches what the store holds for it.
    package func storedCell(declaredType: String) -> StoredCell? {
        switch self {
        case .null, .array: return nil
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .integer(let number):
            return declaredType == "FLOAT" || declaredType == "TIMESTAMP" ? .real(Double(number)) : .integer(number)
        case .double(let number): return .real(number)
        case .stored(let cell): return cell
        case .string(let text):
            switch declaredType {
            case "TIMESTAMP":
                guard let date = try? LosslessDate.date(from: text) else { return .text(text) }
                return .real(date.timeIntervalSinceReferenceDate)
            case "DECIMAL":
                // Validation refused any number no integer or double holds exactly; text that is no number stays.
                switch DecimalText(text)?.stored {
                case .integer(let integer)?: return .integer(integer)
                case .double(let number)?: return .real(number)
                case nil: return .text(text)
                }
            case "BLOB":
                if text.utf8.count == 36, let id = CanonicalUUID.parse(text) ?? UUID(uuidString: text) {
                    return .blob(withUnsafeBytes(of: id.uuid) { Array($0) })
                }
                if let data = Data(base64Encoded: text) { return .blob(Array(data)) }
                return .text(text)
            default:
                return .text(text)
            }
        }
    }
}
