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
