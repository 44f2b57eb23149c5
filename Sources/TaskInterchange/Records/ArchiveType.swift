/// An attribute's type as an archive's `source.model` names it (`integer16`, `binary`, …), the one vocabulary that
/// validation, a model change's conversions, the comparison and a store's layout speak: its name, its label in
/// Xcode's model editor, the range of an integer type, the column type a store without a model cache declares for
/// it, and the types its values convert to.
package enum ArchiveType: String, CaseIterable, Sendable {
    case string, integer16, integer32, integer64, decimal, double, float, boolean, date, binary, uuid, uri
    case transformable, objectID
    /// A column of a store without a model cache whose declared type says nothing more.
    case untyped

    /// The name `source.model` uses.
    package var name: String { rawValue }

    /// The type as Xcode's model editor names it ("Integer 16", "Binary Data").
    package var label: String {
        switch self {
        case .integer16: return "Integer 16"
        case .integer32: return "Integer 32"
        case .integer64: return "Integer 64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Boolean"
        case .date: return "Date"
        case .binary: return "Binary Data"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .transformable: return "Transformable"
        case .objectID: return "Object ID"
        case .untyped: return "untyped"
        }
    }

    /// The label of a type named `name`; "untyped" for a name no type has.
    package static func label(of name: String) -> String {
        (ArchiveType(rawValue: name) ?? .untyped).label
    }

    /// The values an integer type holds; nil for the other types.
    package var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }

    /// The type a store without a model cache gives a column it declares as `declared` (`INTEGER`, `TIMESTAMP`, …):
    /// all such a store says of it.
    package init(declaredColumnType declared: String) {
        switch declared {
        case "INTEGER": self = .integer64
        case "FLOAT": self = .double
        case "TIMESTAMP": self = .date
        case "BLOB": self = .binary
        case "VARCHAR": self = .string
        case "DECIMAL": self = .decimal
        default: self = .untyped
        }
    }

    /// The types a model change may turn this type's values into: every value unchanged (widening), or each value
    /// checked to fit (a narrower integer, text as a URI). An untyped value converts to any type, checked.
    package func converts(to target: ArchiveType) -> Bool {
        self == .untyped || self == target || conversions.contains(target)
    }

    private var conversions: Set<ArchiveType> {
        switch self {
        case .integer16, .integer32, .integer64:
            let integers: Set<ArchiveType> = [.integer16, .integer32, .integer64]
            return integers.union([.double, .float, .decimal, .boolean, .string])
        case .float: return [.double]
        case .double: return [.float]
        case .boolean: return [.integer16, .integer32, .integer64]
        case .uuid: return [.string]
        case .uri: return [.string]
        case .string: return [.uri]
        case .binary:
            // A store without a model cache declares a UUID's column as a BLOB: its 16 bytes are the UUID.
            return [.transformable, .uuid]
        case .transformable: return [.binary]
        case .decimal, .date, .objectID, .untyped: return []
        }
    }
}
