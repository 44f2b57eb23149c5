import Foundation

/// The shapes a typed record's field comes in, each with the record's property it lives in. A kind's fields are a
/// table of these (`TypedRecord.fields`); the store reader and writer, the archive reader and writer, the validator
/// and the comparison each switch over the shapes once, so a new field of a known shape is one table entry.
///
/// What a shape means everywhere: an archive member that is required unless the shape is optional; a store value of
/// the matching type, where NULL (or an unmapped property) reads as the shape's default.
enum FieldValue<Record> {
    /// Text that is always there; a store's NULL reads as "" and is reported.
    case text(WritableKeyPath<Record, String>)
    /// Text that an archive always has, but a store may leave NULL: that reads as the value a blank record has
    /// (`TypedRecord.init(blank:)`), unreported (a category's colour).
    case textOrDefault(WritableKeyPath<Record, String>)
    /// Text that may be absent (`null` in an archive).
    case optionalText(WritableKeyPath<Record, String?>)
    /// A Boolean (0/1 in a store); a store's NULL reads as false and is reported.
    case flag(WritableKeyPath<Record, Bool>)
    /// A date that is always there (seconds since 2001 in a store, lossless text in an archive); a store's NULL reads
    /// as 2001-01-01T00:00:00Z and is reported.
    case date(WritableKeyPath<Record, Date>)
    /// A date that may be absent.
    case optionalDate(WritableKeyPath<Record, Date?>)
    /// An Int16 whose meaningful values are `range` (`meaning` says what they stand for): a store's NULL reads as 0
    /// and values outside are clamped, each reported; in an archive a value outside is an error.
    case level(WritableKeyPath<Record, Int>, range: ClosedRange<Int>, meaning: String)

    /// The shape without its key path.
    var shape: FieldShape {
        switch self {
        case .text: return .text
        case .textOrDefault: return .textOrDefault
        case .optionalText: return .optionalText
        case .flag: return .flag
        case .date: return .date
        case .optionalDate: return .optionalDate
        case .level: return .level
        }
    }

    /// The key path, type-erased (to find the field's offset).
    var keyPath: PartialKeyPath<Record> {
        switch self {
        case .text(let path), .textOrDefault(let path): return path
        case .optionalText(let path): return path
        case .flag(let path): return path
        case .date(let path): return path
        case .optionalDate(let path): return path
        case .level(let path, _, _): return path
        }
    }
}

/// `FieldValue`'s cases without their payloads: what the per-row loops switch over.
enum FieldShape: UInt8, Sendable {
    case text, textOrDefault, optionalText, flag, date, optionalDate, level

    /// True when the field may be left out of an archive record.
    var isOptional: Bool { self == .optionalText || self == .optionalDate }
}

/// What the per-row loops (store and archive reading and writing, checks, comparisons) need of a field, with nothing
/// reference-counted to copy: its shape, where it is stored in the record, its name as fixed text. Made once per
/// kind from its table (`TypedRecord.layout`); a record's value is read and written at `offset` (see
/// `TypedRecord.subscript(field:)`), which costs what a stored property's access costs, where a key path from a
/// table would go through its run-time projection.
struct FieldLayout: Sendable {
    let shape: FieldShape
    /// The property's offset in the record (`MemoryLayout.offset(of:)`).
    let offset: Int
    let member: StaticString
    /// The field's position in its kind's `fields`.
    let index: Int
    let isModificationDate: Bool
    let inVersion1: Bool
    /// For a level, its meaningful values.
    let range: ClosedRange<Int>

    /// The layouts of a table's fields, in its order.
    static func of<Record>(_ fields: [RecordField<Record>]) -> [FieldLayout] {
        fields.enumerated().map { index, field in
            // Every table entry names a stored property of the record, which has an offset.
            let offset = MemoryLayout<Record>.offset(of: field.value.keyPath)!
            var range = 0...0
            if case .level(_, let levels, _) = field.value { range = levels }
            return FieldLayout(
                shape: field.value.shape, offset: offset, member: field.member, index: index,
                isModificationDate: field.role == .modificationDate, inVersion1: field.inVersion1,
                range: range)
        }
    }

    /// The name as a string, for messages.
    var name: String { "\(member)" }
}

/// One field of a typed record: its interchange name (the archive member and the mapping's field), its shape, and
/// what detection and the version 1 format know about it.
struct RecordField<Record>: @unchecked Sendable {
    // Unchecked: a key path to a stored property is an immutable value.

    /// What a field is for, beyond its value.
    enum Role {
        case plain
        /// The record's modification date (`modifiedAt`): what `--mode merge` compares; a store mapping lists it
        /// last, since it joined the format after the mapping file's field order was fixed.
        case modificationDate
    }

    /// The archive member's name, as fixed text for the writer.
    let member: StaticString
    /// The same name as a string: the mapping's field name, the comparison's and the messages'.
    let name: String
    let value: FieldValue<Record>
    /// Property names the field goes by in apps' models, most specific first (matched case-insensitively by the
    /// mapping detection).
    let synonyms: [String]
    /// True when version 1 (`DataExporter`) files carry the field.
    let inVersion1: Bool
    let role: Role

    init(
        _ member: StaticString, _ value: FieldValue<Record>, synonyms: [String], inVersion1: Bool = false,
        role: Role = .plain
    ) {
        self.member = member
        self.name = "\(member)"
        self.value = value
        self.synonyms = synonyms
        self.inVersion1 = inVersion1
        self.role = role
    }
}

/// Property names the fields go by in apps' models, shared by the kinds whose fields mean the same.
enum FieldSynonyms {
    static let id = ["id", "uuid", "identifier"]
    static let title = ["title", "name", "text", "summary"]
    static let name = ["name", "title"]
    static let notes = ["notes", "note", "details", "detail", "body", "taskDescription", "desc"]
    static let isCompleted = ["isCompleted", "completed", "done", "isDone", "finished", "isFinished", "complete"]
    static let createdAt = ["createdAt", "creationDate", "created", "dateCreated", "createdDate", "timestamp"]
    static let dueDate = ["dueDate", "due", "dueAt", "deadline", "date"]
    static let modifiedAt = ModificationDates.detectedNames + ["dateModified"]
    static let priority = ["priority"]
    static let color = ["color", "colour", "colorName"]
}
