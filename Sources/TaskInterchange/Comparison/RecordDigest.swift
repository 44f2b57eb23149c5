import Foundation

/// A record's fingerprint over exactly what a comparison compares of it (`DiffBuilder`): a typed record's fields in
/// its table's order and its `extra` members; a task's references, tag links in their order and subtasks in their
/// order, each with its fields; a generic record's entity and property values. Equal fingerprints mean a comparison
/// would find nothing to report; a record's key, stored NULLs and link positions, which it does not compare, are
/// left out. `FingerprintHash` over an unambiguous encoding (every value typed and sized).
struct RecordDigest: Hashable {
    let high: UInt64
    let low: UInt64

    /// A placeholder where a fingerprint is not looked at (a lookup's probe).
    static let none = RecordDigest(high: 0, low: 0)

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The fingerprint of `item` (a header has none worth taking: it is never compared record by record).
    init(_ item: GraphItem, buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        var writer = Writer(bytes: buffer)
        switch item {
        case .header: writer.tag(0)
        case .project(let record): writer.typed(record)
        case .category(let record): writer.typed(record)
        case .tag(let record): writer.typed(record)
        case .task(let record): writer.task(record)
        case .entity(let record):
            writer.tag(5)
            writer.text(record.entity)
            writer.values(record.values)
        }
        buffer = writer.bytes
        (high, low) = buffer.withUnsafeBytes { FingerprintHash.hash($0) }
    }

    /// The encoding: a tag before every value, lengths before every variable-sized one.
    private struct Writer {
        var bytes: [UInt8]

        mutating func tag(_ value: UInt8) { bytes.append(value) }

        mutating func integer(_ value: Int64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func double(_ value: Double) { integer(Int64(bitPattern: value.bitPattern)) }

        mutating func text(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                integer(Int64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        /// Absent as 0; present as 1, then the value.
        mutating func optional<Value>(_ value: Value?, _ write: (inout Writer, Value) -> Void) {
            guard let value else { return tag(0) }
            tag(1)
            write(&self, value)
        }

        mutating func id(_ value: UUID?) {
            optional(value) { writer, id in withUnsafeBytes(of: id.uuid) { writer.bytes.append(contentsOf: $0) } }
        }

        mutating func date(_ value: Date?) {
            optional(value) { $0.double($1.timeIntervalSinceReferenceDate) }
        }

        /// A project, category, tag or subtask: its id, its fields in table order, its `extra`.
        mutating func typed<Record: TypedRecord>(_ record: Record) {
            tag(Self.kindTag(Record.kind))
            id(record.id)
            for field in Record.layout {
                switch field.access {
                case .text(let slot), .textOrDefault(let slot): text(record[slot])
                case .optionalText(let slot): optional(record[slot]) { $0.text($1) }
                case .flag(let slot): tag(record[slot] ? 1 : 0)
                case .date(let slot): date(record[slot])
                case .optionalDate(let slot): date(record[slot])
                case .level(let slot, _): integer(Int64(record[slot]))
                case .optionalInteger(let slot): optional(record[slot]) { $0.integer(Int64($1)) }
                }
            }
            extra(record.extra)
        }

        mutating func task(_ record: TaskRecord) {
            typed(record)
            id(record.projectId)
            id(record.categoryId)
            integer(Int64(record.tagIds.count))
            for tagId in record.tagIds { id(tagId) }
            integer(Int64(record.subtasks.count))
            for subtask in record.subtasks { typed(subtask) }
        }

        /// `extra`: absent and empty alike, as the comparison takes them.
        mutating func extra(_ members: [String: ExtraValue]?) {
            values(members ?? [:])
        }

        /// Members in name order, each name then its value.
        mutating func values(_ members: [String: ExtraValue]) {
            integer(Int64(members.count))
            for name in members.keys.sorted() {
                text(name)
                value(members[name]!)
            }
        }

        mutating func value(_ value: ExtraValue) {
            switch value {
            case .null: tag(0)
            case .bool(let flag): tag(flag ? 2 : 1)
            case .integer(let number):
                tag(3)
                integer(number)
            case .double(let number):
                tag(4)
                double(number)
            case .string(let string):
                tag(5)
                text(string)
            case .array(let strings):
                tag(6)
                integer(Int64(strings.count))
                for string in strings { text(string) }
            case .stored(let cell):
                tag(7)
                switch cell {
                case .integer(let number):
                    tag(1)
                    integer(number)
                case .real(let number):
                    tag(2)
                    double(number)
                case .text(let string):
                    tag(3)
                    text(string)
                case .blob(let blob):
                    tag(4)
                    integer(Int64(blob.count))
                    bytes.append(contentsOf: blob)
                }
            }
        }

        static func kindTag(_ kind: RecordKind) -> UInt8 {
            switch kind {
            case .project: return 1
            case .category: return 2
            case .tag: return 3
            case .task: return 4
            case .subtask: return 6
            }
        }
    }
}
