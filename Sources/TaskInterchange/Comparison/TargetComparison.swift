import Foundation

/// What an import needs to know about its target before writing, found by joining the archive with the target's
/// records in id order: which records the target already holds exactly (upsert and merge leave them unwritten: no
/// `Z_OPT` bump, no history entry, no page), which archive records match a target record by key (`--match`), and the
/// modification dates of target records that differ (`--mode merge`).
struct TargetComparison: Sendable, Hashable {
    /// Unchanged records by kind. A task is listed only when its subtasks are unchanged too; its subtasks are then
    /// listed as well.
    var ids: [StoreMapping.Kind: Set<UUID>] = [:]
    /// Archive id → the id of the target record it matches, for archive records whose id the target lacks.
    var matches: [StoreMapping.Kind: [UUID: UUID]] = [:]
    /// Target records that differ from the archive's (or are matched), by id: their modification date, nil when they
    /// have none.
    var targetDates: [UUID: Date?] = [:]
    /// Generic records: archive id → the target record's id `--match Entity.attribute` paired it with.
    var entityMatches: [UUID: UUID] = [:]
    /// Generic records (archive ids) the target holds exactly, references followed through the matches.
    var unchangedEntities: Set<UUID> = []
    /// `Entity.attribute` → archive records left unmatched because their value is not unique.
    var ambiguousMatches: [String: Ambiguity] = [:]

    /// Archive records a `--match Entity.attribute` key left unmatched, and the first few values that were not unique.
    struct Ambiguity: Sendable, Hashable {
        var records = 0
        /// Each described (`"Inbox" (2 in the target, 1 in the archive)`).
        var values: [String] = []
        /// How many values `values` lists at most.
        static let shown = 5
    }

    init(ids: [StoreMapping.Kind: Set<UUID>] = [:]) {
        self.ids = ids
    }

    /// True when the record of `kind` with `id` is unchanged.
    func contains(_ kind: StoreMapping.Kind, _ id: UUID) -> Bool {
        ids[kind]?.contains(id) ?? false
    }

    /// The target id an archive record matches, if `--match` paired it.
    func match(_ kind: StoreMapping.Kind, _ id: UUID) -> UUID? {
        matches[kind]?[id]
    }

    /// Compares `source` with `target` record by record: the archive is read here, the target on its own thread, and
    /// the two are joined in id order. With `modelChange` (the run's, which the import writes through), the archive's
    /// generic records are compared as the target's model version holds them.
    /// - Returns: nil when the archive's records are not in id order (then nothing is known: every existing record is
    ///   rewritten, as before, and nothing is matched).
    /// - Throws: what reading either side throws.
    static func find(
        _ source: some ArchiveSource, in target: GraphSource, modelChange: ModelChange? = nil, match: MatchRule? = nil,
        dates: ModificationDates = ModificationDates()
    ) throws -> TargetComparison? {
        let target = modelChange.map { target.reading(through: $0) } ?? target
        var finder = Finder(target: GraphComparison.Cursor(source: target, side: 1), match: match, dates: dates)
        finder.modelChange = modelChange
        defer { finder.target.channel.cancel() }
        do {
            try finder.target.advance()
            try source.stream(kinds: nil, into: &finder)
            try finder.finish()
            try finder.finishEntities()
        } catch is GraphComparison.NotSorted {
            return nil
        }
        return finder.result
    }

    /// Joins the archive's records, as they are pushed, with the target's, pulled in step.
    struct Finder: ArchiveVisitor {
        var target: GraphComparison.Cursor
        let match: MatchRule?
        let dates: ModificationDates
        var result = TargetComparison()
        var builder: DiffBuilder?
        var last: GraphComparison.SortKey?
        /// `--match name`: the target's records by name (the first in id order wins), and the archive's records the
        /// target has no id for. Projects, categories and tags only, which are few.
        var targetNames: [StoreMapping.Kind: [String: GraphItem]] = [:]
        var unmatched: [StoreMapping.Kind: [GraphItem]] = [:]
        /// The archive's generic records, held until the target's have been read (see `finishEntities`).
        var entities: [EntityRecord] = []
        /// The run's model change, which the archive's generic records are compared through.
        var modelChange: ModelChange?
        /// What the model change dropped and filled here (the import counts it again as it writes).
        var tally = VersionMapping.Tally()

        init(target: GraphComparison.Cursor, match: MatchRule?, dates: ModificationDates) {
            self.target = target
            self.match = match
            self.dates = dates
        }

        mutating func visitHeader(_ header: ArchiveHeader) {
            var header = header
            if let modelChange { header.source?.model = modelChange.mapping.targetDeclarations }
            builder = DiffBuilder(
                nameA: "archive", nameB: "target", options: GraphComparison.Options(detailLimit: 0),
                headerA: header, headerB: target.header)
        }

        /// Moves the target past `key`, noting the names of what it passes; returns its record with the same kind
        /// and id, if it has one.
        mutating func counterpart(_ key: GraphComparison.SortKey) throws -> GraphItem? {
            if let last, !(last < key) { throw GraphComparison.NotSorted(side: 0, message: "") }
            last = key
            while let current = target.key, current < key { try passTarget() }
            guard let current = target.key, !(key < current) else { return nil }
            let item = target.current
            if let item { note(item) }
            return item
        }

        mutating func passTarget() throws {
            if let item = target.current { note(item) }
            try target.advance()
        }

        mutating func note(_ item: GraphItem) {
            guard let match, match.kinds.contains(item.kind), targetNames[item.kind]?[item.label] == nil else { return }
            targetNames[item.kind, default: [:]][item.label] = item
        }

        /// Pairs the archive's unmatched records by name once every target project, category and tag has been seen.
        mutating func finish() throws {
            guard let match else { return }
            while let current = target.key, current.kind != .task { try passTarget() }
            for kind in match.kinds {
                for item in unmatched[kind] ?? [] {
                    guard let other = targetNames[kind]?[item.label] else { continue }
                    result.matches[kind, default: [:]][item.id] = other.id
                    // Under the target's id, is the archive's record the same? Then the match writes nothing.
                    let same: Bool
                    switch (item, other) {
                    case (.project(var record), .project(let target)):
                        record.id = target.id
                        same = builder?.compare(record, target).isEmpty == true
                        result.targetDates[target.id] = dates.date(of: target)
                    case (.category(var record), .category(let target)):
                        record.id = target.id
                        same = builder?.compare(record, target).isEmpty == true
                    case (.tag(var record), .tag(let target)):
                        record.id = target.id
                        same = builder?.compare(record, target).isEmpty == true
                    default: same = false
                    }
                    if same { result.ids[kind, default: []].insert(item.id) }
                }
            }
        }

        mutating func visitProject(_ project: ProjectRecord, index: Int) throws {
            try visitRecord(project, GraphItem.project)
        }

        mutating func visitCategory(_ category: CategoryRecord, index: Int) throws {
            try visitRecord(category, GraphItem.category)
        }

        mutating func visitTag(_ tag: TagRecord, index: Int) throws { try visitRecord(tag, GraphItem.tag) }

        /// A project, category or tag (`item` wraps it): unchanged when the target's record with its id has the
        /// same fields; otherwise the target's modification date is noted, if its kind has one.
        mutating func visitRecord<Record: TypedRecord>(_ record: Record, _ item: (Record) -> GraphItem) throws {
            var record = record
            if let slot = Record.modificationDateSlot {
                (record[slot], record.extra) = dates.asStored(record[slot], record.extra)
            }
            let kind = Record.kind
            guard let counterpart = try counterpart(.init(kind: kind, id: GraphKey(record.id))),
                let other = counterpart.record(as: Record.self)
            else {
                if match?.kinds.contains(kind) == true { unmatched[kind, default: []].append(item(record)) }
                return
            }
            if builder?.compare(record, other).isEmpty == true {
                result.ids[kind, default: []].insert(record.id)
            } else if Record.modificationDate != nil {
                result.targetDates[other.id] = dates.date(of: other)
            }
        }

        mutating func visitTask(_ task: TaskRecord, index: Int) throws {
            var task = task
            (task.modifiedAt, task.extra) = dates.asStored(task.modifiedAt, task.extra)
            guard case .task(let other)? = try counterpart(.init(kind: .task, id: GraphKey(task.id))), builder != nil
            else { return }
            let before = builder!.differenceCount
            // Subtask changes are counted by the builder, not returned with the task's own fields.
            guard builder!.compareTask(task, other).isEmpty, builder!.differenceCount == before else {
                result.targetDates[other.id] = dates.date(of: other)
                return
            }
            result.ids[.task, default: []].insert(task.id)
            for subtask in task.subtasks { result.ids[.subtask, default: []].insert(subtask.id) }
        }

        mutating func visitIssue(_ issue: ValidationIssue) throws {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws {}
    }
}
