/// A relationship of a kind's store entity that the interchange has no field for, declared in the archive's
/// `source.relationships`: the record's `extra` member of that name holds the id (to-one) or ids (to-many) of
/// `destination` records, and import links them again once every record exists.
public struct ExtraRelationship: Sendable, Hashable, Codable {
    /// The kind of record the ids name.
    public var destination: RecordKind
    /// True when the value is an array of ids, false for a single id.
    public var toMany: Bool
    /// True when the array's order is the relationship's order (an ordered to-many); otherwise ids are sorted.
    public var ordered: Bool
    /// The inverse relationship's name in the source model, when it has one (lets a target without a model cache find
    /// the foreign key on the destination's table).
    public var inverse: String?

    /// Creates a declaration.
    public init(destination: RecordKind, toMany: Bool, ordered: Bool = false, inverse: String? = nil) {
        self.destination = destination
        self.toMany = toMany
        self.ordered = ordered
        self.inverse = inverse
    }

    private enum CodingKeys: String, CodingKey { case destination, toMany, ordered, inverse }

    /// Reads a declaration; `ordered` and `inverse` may be absent.
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        destination = try container.decode(RecordKind.self, forKey: .destination)
        toMany = try container.decode(Bool.self, forKey: .toMany)
        ordered = try container.decodeIfPresent(Bool.self, forKey: .ordered) ?? false
        inverse = try container.decodeIfPresent(String.self, forKey: .inverse)
    }
}
