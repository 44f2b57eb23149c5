/// A date that cannot be written as a lossless ISO-8601 string, or a string that is not one.
package enum LosslessDateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// NaN or an infinity.
    case notFinite(Double)
    /// More than `LosslessDate.maximumMagnitude` seconds from 2001-01-01.
    case outOfRange(Double)
    /// The text is not a valid date; the reason says what is wrong.
    case malformed(String)

    /// What is wrong, for people.
    package var description: String {
        switch self {
        case .notFinite(let seconds):
            return "\(seconds) is not a point in time"
        case .outOfRange(let seconds):
            return "\(seconds) seconds from 2001-01-01 is beyond the ±1e17 seconds that archives can hold"
        case .malformed(let reason):
            return reason
        }
    }
}
