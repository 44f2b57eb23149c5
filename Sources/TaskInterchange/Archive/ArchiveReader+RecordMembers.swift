extension ArchiveReader {
    /// The members a typed record may have, laid out from its kind's field table: `type` (NDJSON lines only), `id`,
    /// the fields in table order, the kind's own members (a task's references and subtasks), then `key`, `nulls`
    /// and `extra` (how its store held it, and what the interchange has no field for). A member's position is its
    /// bit in a `MemberSet`. Built once per kind.
    struct RecordMembers: Sendable {
        /// A member the kind has besides `id`, its fields and `extra`.
        struct Own {
            var name: String
            var isRequired: Bool
            var inVersion1: Bool
        }

        static let type = 0
        static let id = 1
        static let firstField = 2

        /// The names, by position.
        let names: [String]
        let packedNames: [PackedName]
        /// One past the last field.
        let fieldsEnd: Int
        let key: Int
        let nulls: Int
        let extra: Int
        /// Every member (without `type` for a kind that has no lines of its own).
        let all: MemberSet
        /// The members version 1 files have.
        let version1: MemberSet
        let required: MemberSet
        let requiredInVersion1: MemberSet
        let typeBit: MemberSet

        init<Record: TypedRecord>(_: Record.Type, own: [Own] = [], inVersion1: Bool) {
            names = ["type", "id"] + Record.fields.map(\.name) + own.map(\.name) + ["key", "nulls", "extra"]
            packedNames = names.map { name in
                var name = name
                return name.withUTF8 { PackedName(UnsafeRawBufferPointer($0))! }
            }
            fieldsEnd = Self.firstField + Record.fields.count
            key = names.count - 3
            nulls = names.count - 2
            extra = names.count - 1
            typeBit = MemberSet(bits: 1 << UInt32(Self.type))
            let hasLines = Record.kind != .subtask
            var all = MemberSet(bits: UInt32.max >> UInt32(32 - names.count))
            if !hasLines { all = all.subtracting(typeBit) }
            self.all = all
            var version1 = MemberSet()
            var required = MemberSet()
            func add(_ position: Int, required isRequired: Bool, inVersion1 isInVersion1: Bool) {
                if isRequired { required.insert(rawValue: position) }
                if inVersion1 && isInVersion1 { version1.insert(rawValue: position) }
            }
            add(Self.id, required: true, inVersion1: true)
            for (offset, field) in Record.fields.enumerated() {
                add(Self.firstField + offset, required: !field.value.access.isOptional, inVersion1: field.inVersion1)
            }
            for (offset, member) in own.enumerated() {
                add(fieldsEnd + offset, required: member.isRequired, inVersion1: member.inVersion1)
            }
            self.version1 = version1
            self.required = required
            // A kind version 1 has requires there only what version 1 has.
            requiredInVersion1 = inVersion1 ? MemberSet(bits: required.bits & version1.bits) : required
        }

        static let project = RecordMembers(ProjectRecord.self, inVersion1: true)
        static let category = RecordMembers(CategoryRecord.self, inVersion1: false)
        static let tag = RecordMembers(TagRecord.self, inVersion1: true)
        static let task = RecordMembers(
            TaskRecord.self,
            own: [
                Own(name: "projectId", isRequired: false, inVersion1: true),
                Own(name: "categoryId", isRequired: false, inVersion1: false),
                Own(name: "tagIds", isRequired: true, inVersion1: true),
                Own(name: "subtasks", isRequired: true, inVersion1: false),
            ], inVersion1: true)
        static let subtask = RecordMembers(
            SubtaskRecord.self, own: [Own(name: "position", isRequired: false, inVersion1: false)], inVersion1: false)

        /// A task's own members, by position.
        enum TaskMember: Int {
            case projectId, categoryId, tagIds, subtasks
        }
    }
}
