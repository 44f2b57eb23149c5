import Foundation

/// A value as SQLite held it, carried when it does not fit its attribute's type (text in a Boolean attribute, a
/// number beyond an Integer 16's range, a blob in a Date attribute, …), so an export never turns it into something
/// else and a restore writes the same cell back. In an archive it is an object, `{"storedAs": "text", "value":
/// "yes"}`: `integer` and `real` values are JSON numbers (a real that is not finite is the string `"Infinity"` or
/// `"-Infinity"`), `text` a string, `blob` base64.
public enum StoredCell: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// SQLite's name of the storage class: the archive's `storedAs`.
    public var storageClass: String {
        switch self {
        case .integer: return "integer"
        case .real: return "real"
        case .text: return "text"
        case .blob: return "blob"
        }
    }

    /// The cell for a message (long text cut at 40 characters, a blob by its size).
    package var described: String {
        switch self {
        case .integer(let value): return "\(value) (stored as integer)"
        case .real(let value): return "\(value) (stored as real)"
        case .text(let value): return "\"" + (value.count > 40 ? value.prefix(40) + "…" : value) + "\" (stored as text)"
        case .blob(let value): return "\(value.count) bytes (stored as blob)"
        }
    }

    /// A real's archive spelling when JSON has no number for it.
    static func nonFinite(_ value: Double) -> String? {
        value.isFinite ? nil : value < 0 ? "-Infinity" : "Infinity"
    }

    /// The cell of storage class `storageClass` whose archive value is `value` (a number, or text); nil when they do
    /// not go together.
    static func decoding(_ storageClass: String, number: (integer: Int64?, double: Double?)?, text: String?)
        -> StoredCell?
    {
        switch (storageClass, number, text) {
        case ("integer", let number?, nil): return number.integer.map(StoredCell.integer)
        case ("real", let number?, nil): return number.double.flatMap { $0.isFinite ? .real($0) : nil }
        case ("real", nil, "Infinity"): return .real(.infinity)
        case ("real", nil, "-Infinity"): return .real(-.infinity)
        case ("text", nil, let text?): return .text(text)
        case ("blob", nil, let text?): return Data(base64Encoded: text).map { .blob([UInt8]($0)) }
        default: return nil
        }
    }
}

extension StoredCell: Codable {
    private enum CodingKeys: String, CodingKey {
        case storedAs, value
    }

    /// Decodes `{"storedAs": …, "value": …}`.
    /// - Throws: `DecodingError` when the storage class and value do not go together.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let storageClass = try container.decode(String.self, forKey: .storedAs)
        let number =
            (try? container.decode(Int64.self, forKey: .value)).map { (integer: $0, double: Double($0)) }
            ?? (try? container.decode(Double.self, forKey: .value)).map { (integer: nil, double: $0) }
        let text = number == nil ? try? container.decode(String.self, forKey: .value) : nil
        guard let cell = Self.decoding(storageClass, number: number, text: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .value, in: container, debugDescription: "not a value of SQLite's \(storageClass) class")
        }
        self = cell
    }

    /// Encodes `{"storedAs": …, "value": …}`.
    /// - Throws: the encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storageClass, forKey: .storedAs)
        switch self {
        case .integer(let value): try container.encode(value, forKey: .value)
        case .real(let value):
            if let text = Self.nonFinite(value) {
                try container.encode(text, forKey: .value)
            } else {
                try container.encode(value, forKey: .value)
            }
        case .text(let value): try container.encode(value, forKey: .value)
        case .blob(let value): try container.encode(Data(value).base64EncodedString(), forKey: .value)
        }
    }
}
