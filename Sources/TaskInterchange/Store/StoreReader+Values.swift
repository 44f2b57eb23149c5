import Foundation

/// Reading typed values from a row, with a finding for every value that was not what the interchange needs.
extension StoreReader {
    /// Where a value came from, for findings.
    struct Origin {
        /// The names, shared by the origins of every row (one reference to count per copy, not three strings).
        private final class Names {
            let entity: String
            let field: String
            let column: String?
            let property: String
            init(entity: String, field: String, column: String?, property: String) {
                self.entity = entity
                self.field = field
                self.column = column
                self.property = property
            }
        }

        private let names: Names
        var key: Int64
        var entity: String { names.entity }
        var field: String { names.field }
        var column: String? { names.column }
        var property: String { names.property }

        /// `property` names what `column` holds in messages: by default the name the column spells, or the field's
        /// name when the store has no column for it.
        init(entity: String, field: String, column: String?, property: String? = nil, key: Int64) {
            names = Names(
                entity: entity, field: field, column: column,
                property: property ?? column.map(CoreDataNames.property(ofColumn:)) ?? field)
            self.key = key
        }

        /// The origin of `field` of `kind`, read from `column`, named as the locator names the column's property.
        init(kind: ResolvedMapping.ResolvedKind, field: String, column: String?, key: Int64) {
            self.init(
                entity: kind.entity.name, field: field, column: column,
                property: column.map(kind.property(ofColumn:)), key: key)
        }
    }

    /// A required string; NULL (or an absent attribute) becomes "" with a finding.
    func requiredString(_ statement: Statement, _ column: Int32, _ origin: Origin) -> String {
        if let value = optionalString(statement, column, origin) { return value }
        log.add(
            .missingRequiredValue, entity: origin.entity, property: origin.property,
            message: origin.column == nil
                ? "the entity has no '\(origin.field)' attribute; exported as \"\""
                : "NULL \(origin.field); exported as \"\"",
            example: origin.column == nil ? nil : "p\(origin.key)")
        return ""
    }

    /// An optional string; numbers and blobs are converted with a finding.
    func optionalString(_ statement: Statement, _ column: Int32, _ origin: Origin) -> String? {
        switch statement.columnType(at: column) {
        case .text:
            // Invalid UTF-8 decodes with U+FFFD in place of the bad bytes, so the text's bytes differ from the value's.
            let (text, isExact) = statement.checkedText(at: column) ?? ("", true)
            if !isExact {
                log.add(
                    .invalidValue, entity: origin.entity, property: origin.property,
                    message: "text that is not valid UTF-8; exported with U+FFFD in place of the bad bytes",
                    example: "p\(origin.key)")
            }
            return text
        case .null: return nil
        case .blob:
            let bytes = statement.blob(at: column) ?? []
            let text = String(decoding: bytes, as: UTF8.self)
            log.add(
                .invalidValue, entity: origin.entity, property: origin.property,
                message:
                    "binary value in a text attribute; exported as UTF-8 text"
                    + (Array(text.utf8) == bytes ? "" : " with invalid bytes replaced"),
                example: "p\(origin.key)")
            return text
        case .integer, .real:
            let text = statement.value(at: column)
            log.add(
                .invalidValue, entity: origin.entity, property: origin.property,
                message: "number in a text attribute; exported as its decimal text", example: "p\(origin.key)")
            switch text {
            case .integer(let value): return String(value)
            case .real(let value): return String(value)
            default: return nil
            }
        }
    }

    /// A Boolean stored as 0/1 (any non-zero is true, as Core Data reads it); NULL becomes false with a finding.
    func requiredBool(_ statement: Statement, _ column: Int32, _ origin: Origin) -> Bool {
        switch statement.columnType(at: column) {
        case .integer: return statement.int64(at: column) != 0
        case .real: return statement.double(at: column) != 0
        case .null:
            log.add(
                .missingRequiredValue, entity: origin.entity, property: origin.property,
                message: origin.column == nil
                    ? "the entity has no '\(origin.field)' attribute; exported as false"
                    : "NULL \(origin.field); exported as false",
                example: origin.column == nil ? nil : "p\(origin.key)")
            return false
        case .text, .blob:
            let text = statement.text(at: column) ?? ""
            let value = ["1", "true", "yes", "YES"].contains(text)
            log.add(
                .invalidValue, entity: origin.entity, property: origin.property,
                message: "text in a Boolean attribute; exported as \(value)", example: "p\(origin.key)")
            return value
        }
    }

    /// A Core Data date (seconds since 2001 as a Double, bit for bit); nil for NULL.
    func optionalDate(_ statement: Statement, _ column: Int32, _ origin: Origin) -> Date? {
        switch statement.columnType(at: column) {
        case .integer, .real:
            let seconds =
                statement.columnType(at: column) == .real
                ? statement.double(at: column) : Double(statement.int64(at: column))
            guard seconds.magnitude <= LosslessDate.maximumMagnitude else {
                log.add(
                    .invalidValue, entity: origin.entity, property: origin.property,
                    message: "date \(seconds) s from 2001 is beyond what an archive holds (±1e17 s); not exported",
                    example: "p\(origin.key)")
                return nil
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        case .null: return nil
        case .text, .blob:
            if let text = statement.text(at: column), let seconds = Double(text), seconds.isFinite {
                log.add(
                    .invalidValue, entity: origin.entity, property: origin.property,
                    message: "date stored as text; exported as its number", example: "p\(origin.key)")
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            log.add(
                .invalidValue, entity: origin.entity, property: origin.property,
                message: "unreadable date; not exported", example: "p\(origin.key)")
            return nil
        }
    }

    /// A required date; NULL becomes 2001-01-01T00:00:00Z (0) with a finding.
    func requiredDate(_ statement: Statement, _ column: Int32, _ origin: Origin) -> Date {
        if let date = optionalDate(statement, column, origin) { return date }
        if statement.columnType(at: column) != .null {
            // optionalDate reported the unusable value.
            return Date(timeIntervalSinceReferenceDate: 0)
        }
        log.add(
            .missingRequiredValue, entity: origin.entity, property: origin.property,
            message: origin.column == nil
                ? "the entity has no '\(origin.field)' attribute; exported as 2001-01-01T00:00:00Z"
                : "NULL \(origin.field); exported as 2001-01-01T00:00:00Z",
            example: origin.column == nil ? nil : "p\(origin.key)")
        return Date(timeIntervalSinceReferenceDate: 0)
    }

    /// An optional integer; NULL is nil, and a value that is not an integer reads rounded (nil when not a finite
    /// number), with a finding.
    func optionalInteger(_ statement: Statement, _ column: Int32, _ origin: Origin) -> Int? {
        switch statement.columnType(at: column) {
        case .integer: return Int(statement.int64(at: column))
        case .null: return nil
        case .real, .text, .blob:
            let value = statement.double(at: column)
            log.add(
                .invalidValue, entity: origin.entity, property: origin.property,
                message: "non-integer \(origin.field); exported rounded", example: "p\(origin.key)")
            return value.isFinite ? Int(max(min(value.rounded(), 9e18), -9e18)) : nil
        }
    }

    /// An Int16 level in `range` (a task's priority); NULL becomes 0 and out-of-range values are clamped, each with a
    /// finding.
    func level(_ statement: Statement, _ column: Int32, _ origin: Origin, in range: ClosedRange<Int>) -> Int {
        guard origin.column != nil else { return 0 }
        let raw: Int64
        switch statement.columnType(at: column) {
        case .integer: raw = statement.int64(at: column)
        case .null:
            log.add(
                .missingRequiredValue, entity: origin.entity, property: origin.property,
                message: "NULL \(origin.field); exported as 0", example: "p\(origin.key)")
            return 0
        case .real, .text, .blob:
            let value = statement.double(at: column)
            raw = value.isFinite ? Int64(max(min(value.rounded(), 1e18), -1e18)) : 0
            log.add(
                .invalidValue, entity: origin.entity, property: origin.property,
                message: "non-integer \(origin.field); exported rounded", example: "p\(origin.key)")
        }
        if raw < Int64(range.lowerBound) || raw > Int64(range.upperBound) {
            let clamped = raw < Int64(range.lowerBound) ? range.lowerBound : range.upperBound
            log.add(
                .invalidValue, entity: origin.entity, property: origin.property,
                message: "\(origin.field) outside \(range.lowerBound)…\(range.upperBound); exported clamped",
                example: "p\(origin.key)=\(raw)")
            return clamped
        }
        return Int(raw)
    }
}
