import Foundation

/// A typed record (project, category, tag, task, subtask): its kind and its fields, described once in its table
/// and used by every reader, writer, check and comparison. Adding a field of a known shape to a kind is a property
/// and one entry in its `fields`.
///
/// Besides its fields every record has its `id` and `extra`; relationships between the kinds (a task's project,
/// category, tags and subtasks; a subtask's task) are the kinds' own members, not fields.
protocol TypedRecord: ExtraCarrying, Sendable, Hashable {
    static var kind: RecordKind { get }
    /// The fields after `id`, in the order an archive writes them.
    static var fields: [RecordField<Self>] { get }
    /// `FieldLayout.of(fields)`, made once.
    static var layout: [FieldLayout<Self>] { get }
    /// A record with `id` and every field at the value a reader gives an absent one.
    init(blank id: UUID)
    /// Its primary key in the store it was read from.
    var key: Int64? { get set }
    /// Required fields its store held NULL (see the records' own documentation).
    var nulls: [String]? { get set }
}

extension TypedRecord {
    /// Whether the store this record came from held NULL for `field` and the field still holds the value a reader
    /// gives an absent one (an edit of the value wins over the NULL).
    func holdsStoredNull(_ field: FieldLayout<Self>) -> Bool {
        guard let nulls, nulls.contains(field.name) else { return false }
        let blank = Self(blank: id)
        switch field.access {
        case .text(let slot), .textOrDefault(let slot): return self[slot] == blank[slot]
        case .flag(let slot): return self[slot] == blank[slot]
        case .date(let slot):
            return self[slot].timeIntervalSinceReferenceDate.bitPattern
                == blank[slot].timeIntervalSinceReferenceDate.bitPattern
        case .level(let slot, _): return self[slot] == blank[slot]
        case .optionalText, .optionalDate, .optionalInteger: return false
        }
    }

    /// The layout of the kind's modification date, if it has one.
    static var modificationDate: FieldLayout<Self>? {
        layout.first { $0.isModificationDate }
    }

    /// Where the kind's modification date is, if it has one.
    static var modificationDateSlot: FieldSlot<Self, Date?>? {
        modificationDate?.modificationDateSlot
    }
}

extension RecordKind {
    /// The interchange fields of this kind that come from attributes, in mapping order: `id`, the table's fields,
    /// the modification date last.
    public var fields: [String] {
        ["id"] + mappingFields.map(\.name)
    }

    /// The fields (after `id`) in mapping order, with their synonyms: the kind's table with the modification date
    /// moved last.
    var mappingFields: [(name: String, synonyms: [String])] {
        func ordered<Record: TypedRecord>(_: Record.Type) -> [(name: String, synonyms: [String])] {
            let fields =
                Record.fields.filter { $0.role != .modificationDate }
                + Record.fields.filter { $0.role == .modificationDate }
            return fields.map { ($0.name, $0.synonyms) }
        }
        switch self {
        case .project: return ordered(ProjectRecord.self)
        case .category: return ordered(CategoryRecord.self)
        case .tag: return ordered(TagRecord.self)
        case .task: return ordered(TaskRecord.self)
        case .subtask: return ordered(SubtaskRecord.self)
        }
    }

    /// Property names `field` goes by in apps' models (detection).
    func synonyms(of field: String) -> [String] {
        if field == "id" { return FieldSynonyms.id }
        return mappingFields.first { $0.name == field }?.synonyms ?? [field]
    }

    /// Interchange references of this kind that come from relationships.
    public var relationships: [String] {
        switch self {
        case .task: return ["project", "category", "tags"]
        case .subtask: return ["task"]
        case .project, .category, .tag: return []
        }
    }
}
