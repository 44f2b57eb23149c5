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
    static var layout: [FieldLayout] { get }
    /// A record with `id` and every field at the value a reader gives an absent one.
    init(blank id: UUID)
    /// Its primary key in the store it was read from.
    var key: Int64? { get set }
    /// Required fields its store held NULL (see the records' own documentation).
    var nulls: [String]? { get set }
}

extension TypedRecord {
    /// The value of the field laid out as `field`, whose property is a `Value` (`String` for text, `String?`,
    /// `Bool`, `Date`, `Date?`, `Int` for a level).
    subscript<Value>(field: FieldLayout, as _: Value.Type = Value.self) -> Value {
        get {
            withUnsafePointer(to: self) { UnsafeRawPointer($0).load(fromByteOffset: field.offset, as: Value.self) }
        }
        set {
            withUnsafeMutablePointer(to: &self) { record in
                UnsafeMutableRawPointer(record).advanced(by: field.offset).assumingMemoryBound(to: Value.self).pointee =
                    newValue
            }
        }
    }

    /// Whether the store this record came from held NULL for `field` and the field still holds the value a reader
    /// gives an absent one (an edit of the value wins over the NULL).
    func holdsStoredNull(_ field: FieldLayout) -> Bool {
        guard let nulls, nulls.contains(field.name) else { return false }
        let blank = Self(blank: id)
        switch field.shape {
        case .text, .textOrDefault: return self[field, as: String.self] == blank[field, as: String.self]
        case .flag: return self[field, as: Bool.self] == blank[field, as: Bool.self]
        case .date:
            return self[field, as: Date.self].timeIntervalSinceReferenceDate.bitPattern
                == blank[field, as: Date.self].timeIntervalSinceReferenceDate.bitPattern
        case .level: return self[field, as: Int.self] == blank[field, as: Int.self]
        case .optionalText, .optionalDate: return false
        }
    }

    /// The layout of the kind's modification date, if it has one.
    static var modificationDate: FieldLayout? {
        layout.first { $0.isModificationDate }
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
