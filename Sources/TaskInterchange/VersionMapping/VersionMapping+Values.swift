import Foundation

/// Type changes between versions: which the mapping converts (every value unchanged, or each value checked to fit)
/// and which it refuses, and default values as the archive spells values.
extension VersionMapping {
    /// How values of `from` become values of `to`.
    static func change(from: String, to: String, property: String) -> Change {
        if from == to { return .kept }
        if let source = ArchiveType(rawValue: from), let target = ArchiveType(rawValue: to), source.converts(to: target)
        {
            return .converted(from: from, to: to)
        }
        return .refused(
            "\(property) is \(ArchiveType.label(of: to)) in the target model and \(ArchiveType.label(of: from)) in the archive: no conversion "
                + "keeps every value; name another target property (or none) in the mapping's modelChange.properties")
    }

    /// `value` (of type `from`) as a value of type `to`, or an error when it would change.
    static func convert(_ value: ExtraValue, from: String, to: String, at path: String, property: String)
        throws(TaskInterchangeError) -> ExtraValue
    {
        if value == .null { return value }
        if let converted = converted(value, to: to) { return converted }
        throw TaskInterchangeError(
            .invalidData,
            "\(path): \(describe(value)) cannot be held unchanged by \(property), \(ArchiveType.label(of: to)) in the target "
                + "model (\(ArchiveType.label(of: from)) in the archive)")
    }

    static func converted(_ value: ExtraValue, to type: String) -> ExtraValue? {
        switch (type, value) {
        case (_, .array): return nil
        // A misfit number the source held becomes a plain value where the target's type takes it (a wider integer);
        // any other misfit stays the same cell.
        case (_, .stored(let cell)):
            switch cell {
            case .integer(let number): return converted(.integer(number), to: type) ?? value
            case .real(let number): return converted(.double(number), to: type) ?? value
            case .text, .blob: return value
            }
        case ("integer16", _), ("integer32", _), ("integer64", _):
            guard let range = ArchiveType(rawValue: type)?.integerRange else { return nil }
            switch value {
            case .integer(let number): return range.contains(number) ? value : nil
            case .bool(let flag): return .integer(flag ? 1 : 0)
            case .double(let number):
                guard let exact = Int64(exactly: number), range.contains(exact) else { return nil }
                return .integer(exact)
            default: return nil
            }
        case ("double", .integer(let number)):
            guard let exact = Double(exactly: number) else { return nil }
            return .double(exact)
        case ("double", .double): return value
        case ("float", .integer(let number)):
            guard let exact = Float(exactly: number) else { return nil }
            return .double(Double(exact))
        case ("float", .double(let number)):
            return Float(exactly: number) != nil || number.isNaN ? value : nil
        case ("decimal", .integer(let number)): return .string(String(number))
        case ("decimal", .string(let text)): return DecimalText(text) != nil ? value : nil
        case ("boolean", .bool): return value
        case ("boolean", .integer(let number)): return number == 0 || number == 1 ? .bool(number == 1) : nil
        case ("string", .integer(let number)): return .string(String(number))
        case ("string", .string), ("binary", .string), ("transformable", .string): return value
        case ("uri", .string(let text)):
            // Text with spaces or control characters is no URI, however leniently a URL parser takes it.
            let plain = text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
            return plain && URL(string: text) != nil ? value : nil
        case ("uuid", .string(let text)):
            if let id = UUID(uuidString: text) { return .string(id.uuidString) }
            guard let bytes = Data(base64Encoded: text), bytes.count == 16 else { return nil }
            return .string(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString)
        case ("date", .string(let text)): return (try? LosslessDate.date(from: text)) != nil ? value : nil
        default: return nil
        }
    }

    /// A model's default value (as the model editor writes it: `YES`/`NO`, numbers, ISO dates or seconds since
    /// 2001, text) as the archive spells values of `type`; nil when it does not read as one.
    static func defaultValue(_ text: String, type: String) -> ExtraValue? {
        switch type {
        case "integer16", "integer32", "integer64":
            if let number = Int64(text) { return converted(.integer(number), to: type) }
            return Double(text).flatMap { converted(.double($0), to: type) }
        case "double", "float":
            return Double(text).flatMap { converted(.double($0), to: type) }
        case "decimal":
            return DecimalText(text) != nil ? .string(text) : nil
        case "boolean":
            switch text.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: return nil
            }
        case "date":
            if let seconds = Double(text) {
                return (try? LosslessDate.string(from: Date(timeIntervalSinceReferenceDate: seconds))).map {
                    .string($0)
                }
            }
            return (try? LosslessDate.date(from: text)) != nil ? .string(text) : nil
        case "uuid":
            return UUID(uuidString: text).map { .string($0.uuidString) }
        case "string", "uri", "binary":
            return .string(text)
        default:
            return nil
        }
    }

    /// A value for a message (long text cut at 40 characters).
    package static func describe(_ value: ExtraValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return String(flag)
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
        case .array(let ids): return "\(ids.count) links"
        case .stored(let cell): return cell.described
        }
    }
}
