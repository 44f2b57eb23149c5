import Foundation

/// An attribute's minimum and maximum as archived: comparison predicates in `NSValidationPredicates` (`SELF >= 0`,
/// `length <= 40`), each paired with the error code in `NSValidationWarnings` that says which bound it is.
extension ModelCacheDecoder {
    /// Foundation's validation error codes for a value below its minimum (number, date, string length) and above
    /// its maximum.
    static let minimumCodes: Set<Int64> = [1620, 1640, 1670]
    static let maximumCodes: Set<Int64> = [1610, 1630, 1660]

    /// The bounds as text (numbers as the model editor writes them; dates as seconds since 2001); nil where absent
    /// or in another form. Models built in code put any predicate and any warning (a message string) here, and
    /// bounds take no part in the model's identity, so nothing here is an error.
    func validationBounds(_ fields: Fields, _ context: String) -> (min: String?, max: String?) {
        let predicates = (try? elements(fields["NSValidationPredicates"], context)) ?? []
        let warnings = (try? elements(fields["NSValidationWarnings"], context)) ?? []
        var bounds: (min: String?, max: String?) = (nil, nil)
        for (predicate, warning) in zip(predicates, warnings) {
            guard let code = (try? integer(warning, context)) ?? nil,
                let comparison = (try? self.fields(predicate, context)) ?? nil,
                let right = (try? self.fields(comparison["NSRightExpression"], context)) ?? nil,
                let constant = right["NSConstantValue"],
                let value = (try? archive.resolve(constant)) ?? nil
            else { continue }
            let text: String?
            switch value {
            case .integer(let number): text = String(number)
            case .real(let number): text = Self.numberText(number)
            case .dictionary(let object):
                if case .real(let seconds)? = object["NS.time"] { text = Self.numberText(seconds) } else { text = nil }
            default: text = nil
            }
            if Self.minimumCodes.contains(code) { bounds.min = text ?? bounds.min }
            if Self.maximumCodes.contains(code) { bounds.max = text ?? bounds.max }
        }
        return bounds
    }
}
