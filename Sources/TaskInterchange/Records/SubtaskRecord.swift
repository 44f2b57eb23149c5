import Foundation

/// A subtask: belongs to one task, kept in the task's order.
public struct SubtaskRecord: Sendable, Hashable, Codable {
    /// The subtask's stable identity.
    public var id: UUID
    /// What to do.
    public var title: String
    /// Whether it is done.
    public var isCompleted: Bool
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
    /// Its stored position among its task's subtasks (the `Z_FOK_` value, `position` in the archive), kept by a
    /// restore while the positions still ascend in the task's order; nil when not known.
    public var position: Int64?

    /// Creates a subtask record.
    public init(id: UUID, title: String, isCompleted: Bool = false) {
        self.id = id
        self.title = title
        self.isCompleted = isCompleted
    }
}

extension SubtaskRecord: TypedRecord {
    static let kind = RecordKind.subtask
    static let fields: [RecordField<SubtaskRecord>] = [
        RecordField("title", .text(\.title), synonyms: FieldSynonyms.title),
        RecordField("isCompleted", .flag(\.isCompleted), synonyms: FieldSynonyms.isCompleted),
    ]

    static let layout = FieldLayout.of(fields)

    init(blank id: UUID) {
        self.init(id: id, title: "")
    }
}
