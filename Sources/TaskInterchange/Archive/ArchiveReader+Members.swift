extension ArchiveReader {
    /// The member names an object of one kind may have, as an enum whose raw values are bit positions.
    protocol Member: RawRepresentable<Int>, CaseIterable {
        /// The names, indexed by raw value.
        static var names: [StaticString] { get }
        /// The names packed for matching, indexed by raw value.
        static var packedNames: [PackedName] { get }
    }

    /// Members of the top-level object (and of the NDJSON header line).
    enum DocumentMember: Int, Member {
        case format, version, exportDate, generator, source, projects, categories, tags, tasks, counts, type
        static let names: [StaticString] = [
            "format", "version", "exportDate", "generator", "source", "projects", "categories", "tags", "tasks",
            "counts", "type",
        ]
        static let packedNames = ArchiveReader.packedTable(DocumentMember.self)

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
        static let packedNames = ArchiveReader.packedTable(GeneratorMember.self)
    }

    /// Members of `source`.
    enum SourceMember: Int, Member {
        case store, storeUUID, entities, relationships, selection
        static let names: [StaticString] = ["store", "storeUUID", "entities", "relationships", "selection"]
        static let packedNames = ArchiveReader.packedTable(SourceMember.self)
    }

    /// Members of one declaration in `source.relationships`.
    enum RelationshipMember: Int, Member {
        case destination, toMany, ordered, inverse
        static let names: [StaticString] = ["destination", "toMany", "ordered", "inverse"]
        static let packedNames = ArchiveReader.packedTable(RelationshipMember.self)
    }

    /// Members of `counts`, in `ArchiveCounts` order.
    enum CountsMember: Int, Member {
        case projects, categories, tags, tasks, subtasks
        static let names: [StaticString] = ["projects", "categories", "tags", "tasks", "subtasks"]
        static let packedNames = ArchiveReader.packedTable(CountsMember.self)
    }

    /// Members of the NDJSON trailer line.
    enum TrailerMember: Int, Member {
        case type, counts
        static let names: [StaticString] = ["type", "counts"]
        static let packedNames = ArchiveReader.packedTable(TrailerMember.self)
    }

    /// Members of a project.
    enum ProjectMember: Int, Member {
        case id, name, createdAt, type, extra, modifiedAt
        static let names: [StaticString] = ["id", "name", "createdAt", "type", "extra", "modifiedAt"]
        static let packedNames = ArchiveReader.packedTable(ProjectMember.self)
    }

    /// Members of a category.
    enum CategoryMember: Int, Member {
        case id, name, color, type, extra
        static let names: [StaticString] = ["id", "name", "color", "type", "extra"]
        static let packedNames = ArchiveReader.packedTable(CategoryMember.self)
    }

    /// Members of a tag.
    enum TagMember: Int, Member {
        case id, name, type, extra
        static let names: [StaticString] = ["id", "name", "type", "extra"]
        static let packedNames = ArchiveReader.packedTable(TagMember.self)
    }

    /// Members of a task.
    enum TaskMember: Int, Member {
        case id, title, notes, isCompleted, createdAt, dueDate, priority, projectId, categoryId, tagIds, subtasks, type, extra,
             modifiedAt
        static let names: [StaticString] = [
            "id", "title", "notes", "isCompleted", "createdAt", "dueDate", "priority", "projectId", "categoryId",
            "tagIds", "subtasks", "type", "extra", "modifiedAt",
        ]
        static let packedNames = ArchiveReader.packedTable(TaskMember.self)
    }

    /// Members of a subtask.
    enum SubtaskMember: Int, Member {
        case id, title, isCompleted, extra
        static let names: [StaticString] = ["id", "title", "isCompleted", "extra"]
        static let packedNames = ArchiveReader.packedTable(SubtaskMember.self)
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

    /// A member name packed for matching.
    typealias PackedName = JSONScanner.PackedKey

    /// The packed names of `M`, by raw value.
    static func packedTable<M: Member>(_: M.Type) -> [PackedName] {
        M.names.map { name in
            PackedName(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))!
        }
    }

    /// The members met so far in one object, to report duplicates.
    struct MemberTracker {
        /// The packed names of the object's members, fetched once per object rather than once per member.
        let names: [PackedName]
        /// Known members met.
        var seen = MemberSet()
        /// Unknown member names met; nil until there is one (rare, and records should not pay for an array).
        var unknown: [String]?
        /// The member expected next (writers keep a fixed order), tried first.
        var hint = 0

        /// A tracker for an object whose members are `M`.
        init<M: Member>(_: M.Type) {
            names = M.packedNames
        }
    }
}

// Member sets used for every record, computed once: building them per record would allocate (variadic arguments).
extension ArchiveReader.ProjectMember {
    static let version1 = ArchiveReader.MemberSet(Self.id, .name)
    static let required = version1
}

extension ArchiveReader.CategoryMember {
    static let required = ArchiveReader.MemberSet(Self.id, .name, .color)
}

extension ArchiveReader.TagMember {
    static let version1 = ArchiveReader.MemberSet(Self.id, .name)
    static let required = version1
}

extension ArchiveReader.TaskMember {
    static let version1 = ArchiveReader.MemberSet(Self.id, .title, .isCompleted, .createdAt, .priority, .projectId,
                                                  .tagIds)
    static let requiredInVersion1 = ArchiveReader.MemberSet(Self.id, .title, .isCompleted, .createdAt, .priority,
                                                            .tagIds)
    static let required = requiredInVersion1.union(ArchiveReader.MemberSet(Self.subtasks))
}

extension ArchiveReader.SubtaskMember {
    static let required = ArchiveReader.MemberSet(Self.id, .title, .isCompleted)
}
