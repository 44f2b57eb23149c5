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
        case format, version, exportDate, generator, source, projects, categories, tags, tasks, counts, type, entities
        case tables
        static let names: [StaticString] = [
            "format", "version", "exportDate", "generator", "source", "projects", "categories", "tags", "tasks",
            "counts", "type", "entities", "tables",
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
        case store, storeUUID, entities, relationships, model, maxKeys, selection
        static let names: [StaticString] = [
            "store", "storeUUID", "entities", "relationships", "model", "maxKeys", "selection",
        ]
        static let packedNames = ArchiveReader.packedTable(SourceMember.self)
    }

    /// Members of `source.selection`.
    enum SelectionMember: Int, Member {
        case kinds, entities, excludedEntities, project, completion, since
        static let names: [StaticString] = ["kinds", "entities", "excludedEntities", "project", "completion", "since"]
        static let packedNames = ArchiveReader.packedTable(SelectionMember.self)

        /// The name as a string, for paths.
        var name: String { "\(Self.names[rawValue])" }
    }

    /// Members of one declaration in `source.relationships`.
    enum RelationshipMember: Int, Member {
        case destination, toMany, ordered, inverse
        static let names: [StaticString] = ["destination", "toMany", "ordered", "inverse"]
        static let packedNames = ArchiveReader.packedTable(RelationshipMember.self)
    }

    /// Members of one entity's declaration in `source.model`.
    enum DeclarationMember: Int, Member {
        case superentity, abstract, attributes, relationships, externalStorage
        static let names: [StaticString] = [
            "superentity", "abstract", "attributes", "relationships", "externalStorage",
        ]
        static let packedNames = ArchiveReader.packedTable(DeclarationMember.self)
    }

    /// Members of a generic record (`type` and `entity` on NDJSON lines only).
    enum EntityMember: Int, Member {
        case id, key, values, positions, external, type, entity, dangling
        static let names: [StaticString] = [
            "id", "key", "values", "positions", "external", "type", "entity", "dangling",
        ]
        static let packedNames = ArchiveReader.packedTable(EntityMember.self)
    }

    /// Members of a table of the `tables` section (`type` and `name` only on an NDJSON line).
    enum TableMember: Int, Member {
        case statement, indexes, columns, rows, type, name
        static let names: [StaticString] = ["statement", "indexes", "columns", "rows", "type", "name"]
        static let packedNames = ArchiveReader.packedTable(TableMember.self)
    }

    /// Members of one dangling key of a generic record.
    enum DanglingMember: Int, Member {
        case key, entity
        static let names: [StaticString] = ["key", "entity"]
        static let packedNames = ArchiveReader.packedTable(DanglingMember.self)
    }

    /// Members of `counts`, in ``ArchiveCounts`` order (`entities` is optional: files without generic records leave
    /// it out).
    enum CountsMember: Int, Member {
        case projects, categories, tags, tasks, subtasks, entities
        static let names: [StaticString] = ["projects", "categories", "tags", "tasks", "subtasks", "entities"]
        static let packedNames = ArchiveReader.packedTable(CountsMember.self)
    }

    /// Members of the NDJSON trailer line.
    enum TrailerMember: Int, Member {
        case type, counts
        static let names: [StaticString] = ["type", "counts"]
        static let packedNames = ArchiveReader.packedTable(TrailerMember.self)
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

        /// A tracker for an object whose members are `names`.
        init(names: [PackedName]) {
            self.names = names
        }
    }
}
