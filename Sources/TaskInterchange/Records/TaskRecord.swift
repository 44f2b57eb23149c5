import Foundation

/// A task with its references (by id) and its ordered subtasks.
public struct TaskRecord: Sendable, Hashable, Codable {
    /// Allowed priorities: 0 low, 1 medium, 2 high, 3 urgent.
    public static let priorityRange: ClosedRange<Int> = 0...3

    /// The task's stable identity.
    public var id: UUID
    /// What to do.
    public var title: String
    /// Free-form notes.
    public var notes: String?
    /// Whether it is done.
    public var isCompleted: Bool
    /// When it was created.
    public var createdAt: Date
    /// When it is due.
    public var dueDate: Date?
    /// 0 low, 1 medium, 2 high, 3 urgent (stored as Int16).
    public var priority: Int
    /// The project it belongs to.
    public var projectId: UUID?
    /// The category it belongs to.
    public var categoryId: UUID?
    /// Its tags, in the order the archive lists them.
    public var tagIds: [UUID]
    /// Its subtasks, in order.
    public var subtasks: [SubtaskRecord]
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

    /// Creates a task record.
    public init(
        id: UUID, title: String, notes: String? = nil, isCompleted: Bool = false, createdAt: Date,
        dueDate: Date? = nil, priority: Int = 0, projectId: UUID? = nil, categoryId: UUID? = nil,
        tagIds: [UUID] = [], subtasks: [SubtaskRecord] = []
    ) {
        self.id = id
        self.title = title
        self.notes = notes
        self.isCompleted = isCompleted
        self.createdAt = createdAt
        self.dueDate = dueDate
        self.priority = priority
        self.projectId = projectId
        self.categoryId = categoryId
        self.tagIds = tagIds
        self.subtasks = subtasks
    }
}

extension TaskRecord: TypedRecord {
    static let kind = RecordKind.task
    static let fields: [RecordField<TaskRecord>] = [
        RecordField("title", .text(\.title), synonyms: FieldSynonyms.title, inVersion1: true),
        RecordField("notes", .optionalText(\.notes), synonyms: FieldSynonyms.notes),
        RecordField("isCompleted", .flag(\.isCompleted), synonyms: FieldSynonyms.isCompleted, inVersion1: true),
        RecordField("createdAt", .date(\.createdAt), synonyms: FieldSynonyms.createdAt, inVersion1: true),
        RecordField("dueDate", .optionalDate(\.dueDate), synonyms: FieldSynonyms.dueDate),
        .modificationDate("modifiedAt", \.modifiedAt, synonyms: FieldSynonyms.modifiedAt),
        RecordField(
            "priority", .level(\.priority, range: priorityRange, meaning: "0 low, 1 medium, 2 high, 3 urgent"),
            synonyms: FieldSynonyms.priority, inVersion1: true),
    ]

    static let layout = FieldLayout.of(fields)

    init(blank id: UUID) {
        self.init(id: id, title: "", createdAt: Date(timeIntervalSinceReferenceDate: 0))
    }
}

extension TaskRecord {
    /// Clears the subtasks' stored positions unless `StoredPositions` can keep them.
    mutating func forgetPositionsOutOfOrder() {
        guard !subtasks.isEmpty, !StoredPositions.areUsable(subtasks.map(\.position), count: subtasks.count) else {
            return
        }
        for index in subtasks.indices { subtasks[index].position = nil }
    }
}
