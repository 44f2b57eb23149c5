import Foundation

/// A tag: many-to-many with tasks.
public struct TagRecord: Sendable, Hashable, Codable {
    /// The tag's stable identity.
    public var id: UUID
    /// The display name.
    public var name: String
    /// Store properties the interchange has no field for, by the model's property name (`extra` in the archive);
    /// nil when there are none.
    public var extra: [String: ExtraValue]?
    /// Its primary key (`Z_PK`) in the store it was read from (`key` in the archive): what a restore with
    /// `--keep-identity` gives it again. Nil for a record no store wrote.
    public var key: Int64?
    /// Fields the store held NULL where the interchange needs a value (`nulls` in the archive): the record gives them
    /// the value a reader gives an absent one, and a writer whose target allows NULL there writes NULL back while they
    /// still hold it. Nil when there are none.
    public var nulls: [String]?

    /// Creates a tag record.
    public init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }
}

extension TagRecord: TypedRecord {
    static let kind = RecordKind.tag
    static let fields: [RecordField<TagRecord>] = [
        RecordField("name", .text(\.name), synonyms: FieldSynonyms.name, inVersion1: true)
    ]

    static let layout = FieldLayout.of(fields)

    init(blank id: UUID) {
        self.init(id: id, name: "")
    }
}
