/// A value of a store property the interchange has no field for, carried under a record's `extra` object so nothing is
/// left behind: JSON's own types, with dates as the same lossless ISO-8601 strings, binary data as base64 and UUIDs
/// as uppercase strings. A relationship is the id of the record it points at (to-one) or an array of ids (to-many);
/// the archive's `source.relationships` says which properties are relationships. A target store's columns say how to
/// write attribute values back.
public enum ExtraValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    /// The ids of a to-many relationship's destinations, as strings.
    case array([String])
    /// An attribute's cell that does not fit the attribute's type, as the store held it.
    case stored(StoredCell)
}

extension ExtraValue: Codable {
    /// Decodes a JSON value: null, a boolean, an integer, a double, a string, an array of strings, or a stored cell.
    /// - Throws: `DecodingError` for any other JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode([String].self) {
            self = .array(value)
        } else if let value = try? container.decode(StoredCell.self) {
            self = .stored(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the value as the JSON value it stands for.
    /// - Throws: the encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .stored(let value): try container.encode(value)
        }
    }
}
