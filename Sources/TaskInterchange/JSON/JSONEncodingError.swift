/// A value that JSON text cannot represent.
enum JSONEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// NaN or an infinity: JSON numbers are finite.
    case nonFiniteNumber(Double)

    /// `cannot write nan as a JSON number: JSON numbers must be finite`
    var description: String {
        switch self {
        case .nonFiniteNumber(let value):
            return "cannot write \(value) as a JSON number: JSON numbers must be finite"
        }
    }
}
