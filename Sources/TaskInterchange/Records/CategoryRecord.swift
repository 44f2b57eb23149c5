import Foundation

/// A category: classifies tasks; deleting it deletes its tasks (cascade).
public struct CategoryRecord: Sendable, Hashable, Codable {
    /// The colour a category gets when the store has none.
    public static let defaultColor = "blue"

    /// The category's stable identity.
    public var id: UUID
    /// The display name.
    public var name: String
    /// A colour name, `"blue"` by default.
    public var color: String
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

    /// Creates a category record.
    public init(id: UUID, name: String, color: String = CategoryRecord.defaultColor) {
        self.id = id
        self.name = name
        self.color = color
    }
}

extension CategoryRecord: TypedRecord {
    static let kind = RecordKind.category
    static let fields: [RecordField<CategoryRecord>] = [
        RecordField("name", .text(\.name), synonyms: FieldSynonyms.name),
        RecordField("color", .textOrDefault(\.color), synonyms: FieldSynonyms.color),
    ]

    static let layout = FieldLayout.of(fields)

    init(blank id: UUID) {
        self.init(id: id, name: "")
    }
}
