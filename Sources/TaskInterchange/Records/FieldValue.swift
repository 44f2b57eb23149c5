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
    /// An integer that may be absent (an Integer 16, 32 or 64 attribute in a store; `null` and absent are nil in an
    /// archive); a store value that is not an integer reads rounded, reported.
    case optionalInteger(WritableKeyPath<Record, Int?>)

    /// What a level's values stand for ("" for the other shapes).
    var meaning: String {
        switch self {
        case .level(_, _, let meaning): return meaning
        case .text, .textOrDefault, .optionalText, .flag, .date, .optionalDate, .optionalInteger: return ""
        }
    }

    /// The field's place in the record, typed as its property is.
    var access: FieldAccess<Record> {
        switch self {
        case .text(let path): return .text(FieldSlot(path))
        case .textOrDefault(let path): return .textOrDefault(FieldSlot(path))
        case .optionalText(let path): return .optionalText(FieldSlot(path))
        case .flag(let path): return .flag(FieldSlot(path))
        case .date(let path): return .date(FieldSlot(path))
        case .optionalDate(let path): return .optionalDate(FieldSlot(path))
        case .level(let path, let range, _): return .level(FieldSlot(path), range: range)
        case .optionalInteger(let path): return .optionalInteger(FieldSlot(path))
        }
    }
}

/// Where a stored property of type `Value` is in a `Record`: its offset. Made only from a key path to that property,
/// so a value read or written through it (`TypedRecord.subscript(slot:)`) has the property's type by construction,
/// which the compiler checks, at the cost of a stored property's access (a key path from a table would go through
/// its run-time projection).
struct FieldSlot<Record, Value>: Sendable {
    fileprivate let offset: Int

    init(_ path: WritableKeyPath<Record, Value>) {
        // Every table entry names a stored property of the record, which has an offset.
        offset = MemoryLayout<Record>.offset(of: path)!
    }
}

extension TypedRecord {
    /// The value of the property `slot` was made from.
    subscript<Value>(slot: FieldSlot<Self, Value>) -> Value {
        get {
            withUnsafePointer(to: self) { UnsafeRawPointer($0).load(fromByteOffset: slot.offset, as: Value.self) }
        }
        set {
            withUnsafeMutablePointer(to: &self) { record in
                UnsafeMutableRawPointer(record).advanced(by: slot.offset).assumingMemoryBound(to: Value.self).pointee =
                    newValue
            }
        }
    }
}

/// `FieldValue`'s cases with a typed slot in place of the key path: what the per-row loops (store and archive
/// reading and writing, checks, comparisons) switch over, with no `default`, so a new shape is a compile error in
/// each of them until it is handled.
enum FieldAccess<Record>: Sendable {
    case text(FieldSlot<Record, String>)
    case textOrDefault(FieldSlot<Record, String>)
    case optionalText(FieldSlot<Record, String?>)
    case flag(FieldSlot<Record, Bool>)
    case date(FieldSlot<Record, Date>)
    case optionalDate(FieldSlot<Record, Date?>)
    case level(FieldSlot<Record, Int>, range: ClosedRange<Int>)
    case optionalInteger(FieldSlot<Record, Int?>)

    /// True when the field may be left out of an archive record.
    var isOptional: Bool {
        switch self {
        case .optionalText, .optionalDate, .optionalInteger: return true
        case .text, .textOrDefault, .flag, .date, .level: return false
        }
    }
}

/// What the per-row loops need of a field, with nothing reference-counted to copy: its typed slot in the record, its
/// name as fixed text. Made once per kind from its table (`TypedRecord.layout`).
struct FieldLayout<Record>: Sendable {
    let access: FieldAccess<Record>
    let member: StaticString
    /// The field's position in its kind's `fields`.
    let index: Int
    /// For the kind's modification date, its slot.
    let modificationDateSlot: FieldSlot<Record, Date?>?
    let inVersion1: Bool

    var isModificationDate: Bool { modificationDateSlot != nil }

    /// The layouts of a table's fields, in its order.
    static func of(_ fields: [RecordField<Record>]) -> [FieldLayout] {
        fields.enumerated().map { index, field in
            FieldLayout(
                access: field.value.access, member: field.member, index: index,
                modificationDateSlot: field.modificationDatePath.map(FieldSlot.init), inVersion1: field.inVersion1)
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
    /// The modification date's property (`modificationDate(_:_:synonyms:)`), typed as every reader of it needs.
    let modificationDatePath: WritableKeyPath<Record, Date?>?

    var role: Role { modificationDatePath == nil ? .plain : .modificationDate }

    init(_ member: StaticString, _ value: FieldValue<Record>, synonyms: [String], inVersion1: Bool = false) {
        self.init(member, value, synonyms: synonyms, inVersion1: inVersion1, modificationDate: nil)
    }

    private init(
        _ member: StaticString, _ value: FieldValue<Record>, synonyms: [String], inVersion1: Bool,
        modificationDate: WritableKeyPath<Record, Date?>?
    ) {
        self.member = member
        self.name = "\(member)"
        self.value = value
        self.synonyms = synonyms
        self.inVersion1 = inVersion1
        self.modificationDatePath = modificationDate
    }

    /// The record's modification date: an optional date (not in version 1 files).
    static func modificationDate(
        _ member: StaticString, _ path: WritableKeyPath<Record, Date?>, synonyms: [String]
    ) -> RecordField {
        RecordField(member, .optionalDate(path), synonyms: synonyms, inVersion1: false, modificationDate: path)
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
