import Foundation

extension KeyedArchive {
    /// One property-list value of an archive, with `CF$UID` references kept as `.reference`.
    enum Value: Sendable, Hashable {
        /// A string.
        case string(String)
        /// An integer (unsigned values beyond `Int64.max` become `.real`).
        case integer(Int64)
        /// A floating-point number.
        case real(Double)
        /// A boolean.
        case bool(Bool)
        /// Bytes.
        case data(Data)
        /// A date.
        case date(Date)
        /// An array.
        case array([Value])
        /// A dictionary (property-list keys are strings).
        case dictionary([String: Value])
        /// A reference to `$objects[index]`.
        case reference(Int)

        /// The string, when this is one.
        var string: String? {
            if case .string(let value) = self { return value }
            return nil
        }

        /// The value as an integer: integers, booleans (0/1) and integral reals.
        var integer: Int64? {
            switch self {
            case .integer(let value): return value
            case .bool(let value): return value ? 1 : 0
            case .real(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
            default: return nil
            }
        }

        /// The value as a boolean: booleans and integers (non-zero is true).
        var bool: Bool? {
            switch self {
            case .bool(let value): return value
            case .integer(let value): return value != 0
            default: return nil
            }
        }

        /// The dictionary, when this is one.
        var dictionary: [String: Value]? {
            if case .dictionary(let value) = self { return value }
            return nil
        }

        /// The array, when this is one.
        var array: [Value]? {
            if case .array(let value) = self { return value }
            return nil
        }

        /// A short name of the kind of value, for error messages.
        var kindName: String {
            switch self {
            case .string: return "a string"
            case .integer: return "an integer"
            case .real: return "a real"
            case .bool: return "a boolean"
            case .data: return "data"
            case .date: return "a date"
            case .array: return "an array"
            case .dictionary: return "a dictionary"
            case .reference(let index): return "a reference to object \(index)"
            }
        }
    }
}

extension KeyedArchive.Value {
    /// Converts what `PropertyListSerialization` returned, recognizing `CF$UID` references in every form Foundation
    /// produces: the private UID class of the binary reader (`_NSKeyedArchiverUID` on Linux, `CFKeyedArchiverUID` on
    /// Darwin) and the `{"CF$UID": n}` dictionary of XML plists and of writers that do not know UIDs.
    init(foundation value: Any, depth: Int, limit: Int) throws(KeyedArchiveError) {
        guard depth <= limit else { throw .tooDeep(limit: limit) }
        switch value {
        case let string as String:
            self = .string(string)
        case let data as Data:
            self = .data(data)
        case let date as Date:
            self = .date(date)
        case let array as [Any]:
            var converted: [KeyedArchive.Value] = []
            converted.reserveCapacity(array.count)
            for element in array {
                converted.append(try KeyedArchive.Value(foundation: element, depth: depth + 1, limit: limit))
            }
            self = .array(converted)
        case let dictionary as [AnyHashable: Any]:
            var converted: [String: KeyedArchive.Value] = [:]
            converted.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let key = key.base as? String else {
                    throw .malformed("a dictionary key is \(type(of: key.base)), not a string")
                }
                converted[key] = try KeyedArchive.Value(foundation: element, depth: depth + 1, limit: limit)
            }
            if converted.count == 1, let uid = converted["CF$UID"]?.integer {
                guard uid >= 0, uid <= Int64(Int32.max) else { throw .malformed("a CF$UID of \(uid)") }
                self = .reference(Int(uid))
            } else {
                self = .dictionary(converted)
            }
        default:
            if let uid = Self.uid(value) {
                self = .reference(uid)
            } else if type(of: value) == Bool.self, let flag = value as? Bool {
                // swift-corelibs-foundation returns plist booleans as Swift `Bool`, Darwin as a CFBoolean NSNumber.
                self = .bool(flag)
            } else if let number = value as? NSNumber {
                self = Self.number(number)
            } else {
                throw .malformed("an unexpected property-list value of type \(type(of: value))")
            }
        }
    }

    private static func number(_ number: NSNumber) -> KeyedArchive.Value {
        switch String(cString: number.objCType) {
        case "c", "B":
            // Property lists have no 8-bit integers: a char-typed number is a boolean.
            return .bool(number.boolValue)
        case "d", "f":
            return .real(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            let unsigned = number.uint64Value
            return unsigned <= UInt64(Int64.max) ? .integer(Int64(unsigned)) : .real(Double(unsigned))
        default:
            return .integer(number.int64Value)
        }
    }

    /// The index of a Foundation UID object, or nil when `value` is not one. The UID class is private on both
    /// platforms, so it is recognized by name and read by reflection (Linux) or from its description (Darwin).
    private static func uid(_ value: Any) -> Int? {
        let typeName = String(describing: type(of: value))
        if typeName.contains("KeyedArchiverUID") {
            for child in Mirror(reflecting: value).children where child.label == "value" {
                if let index = child.value as? UInt32 { return Int(index) }
                if let index = child.value as? Int { return index }
            }
        }
        guard typeName.hasPrefix("__NSCF") || typeName.contains("KeyedArchiverUID") else { return nil }
        // Darwin: "<CFKeyedArchiverUID 0x…>{value = 12}".
        let text = String(describing: value)
        guard text.hasPrefix("<CFKeyedArchiverUID"), let range = text.range(of: "value = ") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }
}
