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
