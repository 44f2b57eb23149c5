import Foundation

/// A project: groups tasks; deleting it leaves its tasks without a project.
public struct ProjectRecord: Sendable, Hashable, Codable {
    /// The project's stable identity.
    public var id: UUID
    /// The display name.
    public var name: String
    /// When it was created, if the store recorded it.
    public var createdAt: Date?
    /// When it was last changed, if the writer knew (optional, additive in version 2): what `--mode merge` compares.
    public var modifiedAt: Date?
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

    /// Creates a project record.
    public init(id: UUID, name: String, createdAt: Date? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}

extension ProjectRecord: TypedRecord {
    static let kind = RecordKind.project
    static let fields: [RecordField<ProjectRecord>] = [
        RecordField("name", .text(\.name), synonyms: FieldSynonyms.name, inVersion1: true),
        RecordField("createdAt", .optionalDate(\.createdAt), synonyms: FieldSynonyms.createdAt),
        .modificationDate("modifiedAt", \.modifiedAt, synonyms: FieldSynonyms.modifiedAt),
    ]

    static let layout = FieldLayout.of(fields)

    init(blank id: UUID) {
        self.init(id: id, name: "")
    }
}
