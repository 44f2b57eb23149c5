extension ArchiveReader {
    /// The member names an object of one kind may have, as an enum whose raw values are bit positions.
    protocol Member: RawRepresentable<Int>, CaseIterable {
        /// The names, indexed by raw value.
        static var names: [StaticString] { get }
    }

    /// Members of the top-level object (and of the NDJSON header line).
    enum DocumentMember: Int, Member {
        case format, version, exportDate, generator, source, projects, categories, tags, tasks, counts, type
        static let names: [StaticString] = [
            "format", "version", "exportDate", "generator", "source", "projects", "categories", "tags", "tasks",
            "counts", "type",
        ]

        /// The kind listed by a section member.
        var sectionKind: RecordKind? {
            switch self {
            case .projects: return .project
            case .categories: return .category
            case .tags: return .tag
            case .tasks: return .task
            default: return nil
            }
        }
    }

    /// Members of `generator`.
    enum GeneratorMember: Int, Member {
        case name, version
        static let names: [StaticString] = ["name", "version"]
    }

    /// Members of `source`.
    enum SourceMember: Int, Member {
        case store, storeUUID, entities
        static let names: [StaticString] = ["store", "storeUUID", "entities"]
    }

    /// Members of `counts`, in `ArchiveCounts` order.
    enum CountsMember: Int, Member {
        case projects, categories, tags, tasks, subtasks
        static let names: [StaticString] = ["projects", "categories", "tags", "tasks", "subtasks"]
    }

    /// Members of the NDJSON trailer line.
    enum TrailerMember: Int, Member {
        case type, counts
        static let names: [StaticString] = ["type", "counts"]
    }

    /// Members of a project.
    enum ProjectMember: Int, Member {
        case id, name, createdAt, type
        static let names: [StaticString] = ["id", "name", "createdAt", "type"]
    }

    /// Members of a category.
    enum CategoryMember: Int, Member {
        case id, name, color, type
        static let names: [StaticString] = ["id", "name", "color", "type"]
    }

    /// Members of a tag.
    enum TagMember: Int, Member {
        case id, name, type
        static let names: [StaticString] = ["id", "name", "type"]
    }

    /// Members of a task.
    enum TaskMember: Int, Member {
        case id, title, notes, isCompleted, createdAt, dueDate, priority, projectId, categoryId, tagIds, subtasks, type
        static let names: [StaticString] = [
            "id", "title", "notes", "isCompleted", "createdAt", "dueDate", "priority", "projectId", "categoryId",
            "tagIds", "subtasks", "type",
        ]
    }

    /// Members of a subtask.
    enum SubtaskMember: Int, Member {
        case id, title, isCompleted
        static let names: [StaticString] = ["id", "title", "isCompleted"]
    }

    /// A set of members as bits.
    struct MemberSet {
        /// One bit per raw value.
        var bits: UInt32 = 0

        init(bits: UInt32 = 0) {
            self.bits = bits
        }

        init<M: Member>(_ members: M...) {
            for member in members { bits |= 1 << UInt32(member.rawValue) }
        }

        /// All members of `M`.
        static func all<M: Member>(_: M.Type) -> MemberSet {
            MemberSet(bits: UInt32.max >> UInt32(32 - M.names.count))
        }

        func contains<M: Member>(_ member: M) -> Bool {
            bits & 1 << UInt32(member.rawValue) != 0
        }

        func contains(rawValue: Int) -> Bool {
            bits & 1 << UInt32(rawValue) != 0
        }

        mutating func insert(rawValue: Int) {
            bits |= 1 << UInt32(rawValue)
        }

        func union(_ other: MemberSet) -> MemberSet {
            MemberSet(bits: bits | other.bits)
        }

        func subtracting(_ other: MemberSet) -> MemberSet {
            MemberSet(bits: bits & ~other.bits)
        }
    }

    /// The members met so far in one object, to report duplicates.
    struct MemberTracker {
        /// Known members met.
        var seen = MemberSet()
        /// Unknown member names met (rare, so a plain array).
        var unknown: [String] = []
        /// The member expected next (writers keep a fixed order), tried first.
        var hint = 0
    }
}
