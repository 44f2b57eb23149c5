import Foundation

/// Attribute values against their model type (a `source.model` type name): the generic section's by the archive's
/// declarations, typed records' `extra` values by the import target's model. A value the store would change on the
/// way in — an integer too wide for its attribute, a boolean other than 0 or 1, a decimal with more digits than a
/// double — is refused: the app would read something else than the archive holds. A stored cell (`StoredCell`) is
/// a misfit the source store held, carried as it was: it fits any attribute, as it did there.
extension Validator {
    /// Checks a value of model type `type`, in the encoding `extra` uses, at `path`.
    mutating func checkAttribute(_ value: ExtraValue, type: String, path: @autoclosure () -> String) {
        checkAttribute(value, type: type, archiveType: ArchiveType(rawValue: type), path: path())
    }

    /// Checks a value of model type `type` (`archiveType`, the type it names, nil when none) at `path`.
    mutating func checkAttribute(
        _ value: ExtraValue, type: String, archiveType: ArchiveType?, path: @autoclosure () -> String
    ) {
        switch (archiveType, value) {
        case (_, .array):
            error(.wrongType, path(), "an array belongs to a relationship; \(type) attributes hold one value")
        case (_, .null), (_, .stored), (.untyped?, _), (.integer64?, .integer), (.boolean?, .bool), (.string?, _),
            (.uri?, _),
            (.double?, .double), (.double?, .integer), (.float?, .integer):
            return
        case (.decimal?, .integer), (.decimal?, .double):
            // A typed record's number (the generic section keeps a decimal's digits as text): a store keeps it as is.
            return
        case (let integer?, .integer(let number)) where integer == .integer16 || integer == .integer32:
            guard let range = integer.integerRange, !range.contains(number) else { return }
            error(
                .valueOutOfRange, path(),
                "\(number) is outside the \(integer.label) range \(range.lowerBound)…\(range.upperBound); "
                    + "the app would read a truncated value")
        case (.boolean?, .integer(let number)):
            if number != 0 && number != 1 {
                error(
                    .valueOutOfRange, path(),
                    "\(number) is not a boolean; a Boolean attribute holds true, false, 0 or 1")
            }
        case (.float?, .double(let number)):
            if number.magnitude > Double(Float.greatestFiniteMagnitude) {
                error(
                    .valueOutOfRange, path(), "\(number) is beyond the Float range (±\(Float.greatestFiniteMagnitude))")
            }
        case (.decimal?, .string(let text)):
            checkDecimal(text, path: path())
        case (.uuid?, .string(let text)):
            checkUUID(text, path: path())
        case (.date?, .string(let text)):
            if (try? LosslessDate.date(from: text)) == nil { wrongType(type, path()) }
        case (.binary?, .string(let text)), (.transformable?, .string(let text)), (.objectID?, .string(let text)):
            if Data(base64Encoded: text) == nil { wrongType(type, path()) }
        case (.binary?, _), (.transformable?, _):
            // SQLite lets a column hold another storage class than its type says; it travels as what it holds.
            return
        default:
            wrongType(type, path())
        }
    }

    private mutating func wrongType(_ type: String, _ path: @autoclosure () -> String) {
        error(.wrongType, path(), "value does not fit the declared type \(type)")
    }

    /// A decimal travels as text; the store keeps it as an integer or a double, so it must be one exactly.
    private mutating func checkDecimal(_ text: String, path: @autoclosure () -> String) {
        let shown = text.count > 60 ? "\(text.prefix(60))…" : text
        guard let decimal = DecimalText(text) else {
            error(.wrongType, path(), "\"\(shown)\" is not a decimal number (such as \"12.5\" or \"-3e-2\")")
            return
        }
        guard decimal.stored == nil else { return }
        let rounded = Double(text).map { $0.isFinite ? " (it would be stored as \($0))" : "" } ?? ""
        error(
            .valueOutOfRange, path(),
            "\(shown) has more digits than a store's decimal keeps\(rounded); a Core Data store holds decimals as "
                + "64-bit integers or doubles (about 17 significant digits)")
    }

    /// A UUID attribute's value: canonical (uppercase) text, or base64 of bytes that are not a UUID. Another spelling
    /// of a UUID is stored as that UUID and exports in uppercase: a warning, so the change is not silent.
    private mutating func checkUUID(_ text: String, path: @autoclosure () -> String) {
        if CanonicalUUID.parse(text) != nil { return }
        if UUID(uuidString: text) != nil {
            visitIssue(
                ValidationIssue(
                    .invalidUUID, severity: .warning, path: path(),
                    message: CanonicalUUID.problem(with: text) + "; stored as that UUID, it exports in uppercase"))
        } else if Data(base64Encoded: text) == nil {
            wrongType("uuid", path())
        }
    }
}
