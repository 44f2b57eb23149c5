import Foundation

/// Rebuilds an archive's object graph in a destination, in two passes through ID maps: projects, categories and tags
/// first (recording id → key), then tasks with their links and ordered subtasks resolved through those maps. A source
/// that lists them in that order anyway (every export) is read once for both.
///
/// The archive must already have passed validation; the importer still refuses a reference it cannot resolve, so a
/// destination that wraps the import in a transaction rolls everything back.
public struct Importer: Sendable {
    /// What to do with ids that already exist.
    public var mode: ImportMode
    /// When true, only existence is looked up and counted; the destination is not written.
    public var dryRun: Bool
    /// Called after every 10,000 tasks with the number done so far (for progress display).
    public var progress: (@Sendable (Int) -> Void)?
    /// What the target already holds (see `TargetComparison.find`): upsert and merge count unchanged records and do
    /// not write them; `--match` pairs; merge's target dates. Nil: every existing record is rewritten.
    var baseline: TargetComparison?
    /// Pair archive records whose id the target lacks with target records by key (needs `baseline`).
    public var match: MatchRule?
    /// Where merge finds modification dates.
    public var modificationDates = ModificationDates()
    /// Load only these kinds (subtasks travel with tasks); nil for all. Records of other kinds are counted as not
    /// loaded (and still validated); a reference from a loaded record to one of them links to the target's object
    /// with that id when there is one, and is dropped (counted in `ImportPlan.droppedReferences`) otherwise — so part
    /// of an archive loads into a target that lacks the rest.
    public var kinds: Set<RecordKind>?
    /// Load only the kinds the archive's `source.entities` reads from these store entities; nil for all.
    public var entities: Set<String>?
    /// How the archive's generic records become records of the destination's model version (see `VersionMapping`);
    /// nil to write them as the archive has them.
    public var versionMapping: VersionMapping?

    /// Creates an importer.
    public init(mode: ImportMode = .insert, dryRun: Bool = false, progress: (@Sendable (Int) -> Void)? = nil) {
        self.mode = mode
        self.dryRun = dryRun
        self.progress = progress
    }

    /// An importer configured as a store import's options say.
    init(_ options: StoreImportOptions) {
        self.init(mode: options.mode, progress: options.progress)
        kinds = options.kinds
        entities = options.entities
    }

    /// Imports `source` into `destination` and returns what was done.
    /// - Throws: `TaskInterchangeError.invalidData` for an id or reference the archive cannot satisfy; destination and
    ///   source errors unchanged.
    public func run<Destination: ImportDestination>(_ source: some ArchiveSource, into destination: inout Destination)
        throws -> ImportPlan
    {
        var validator: Validator?
        return try run(source, into: &destination, validator: &validator)
    }

    /// Imports and, in the same passes, feeds every record to `validator` (saving a separate validation pass). The
    /// caller must check `validator.report` before committing: the importer itself stops only at what it cannot write.
    /// - Throws: as `run(_:into:)`.
    public func run<Destination: ImportDestination>(
        _ source: some ArchiveSource, into destination: inout Destination,
        validatingWith validator: inout Validator
    ) throws -> ImportPlan {
        var optional: Validator? = validator
        defer { validator = optional! }
        return try run(source, into: &destination, validator: &optional)
    }

    private func run<Destination: ImportDestination>(
        _ source: some ArchiveSource, into destination: inout Destination,
        validator: inout Validator?
    ) throws -> ImportPlan {
        var plan = ImportPlan()
        plan.ambiguousMatches = baseline?.ambiguousMatches.mapValues(ImportPlan.AmbiguousMatch.init) ?? [:]
        if mode == .replace {
            for kind in StoreMapping.Kind.allCases { plan[kind].deleted = try destination.count(of: kind) }
            for (entity, count) in try destination.countOfEntities() where count > 0 {
                plan.entities[entity, default: ImportPlan.Operations()].deleted = count
            }
            if !dryRun { try destination.removeAll() }
        }
        var pass = Pass(importer: self, destination: destination, plan: plan)
        var checks = validator.map { Validation(importer: self, validator: $0) }
        func stream(_ kinds: Set<RecordKind>?) throws {
            if checks == nil {
                try source.stream(kinds: kinds, into: &pass)
            } else {
                try source.stream(kinds: kinds, into: &pass, checking: &checks!)
            }
        }
        if source.listsReferencedKindsFirst() {
            // The records others reference come first anyway: one read serves both passes.
            checks?.isLastPass = true
            try stream(nil)
        } else {
            try stream([.project, .category, .tag])
            checks?.isLastPass = true
            try stream([.task])
        }
        try pass.linkRelationships()
        try pass.linkEntities()
        destination = pass.destination
        validator = checks?.validator
        return pass.plan
    }

    /// One visitor for both passes; it holds the ID maps.
    struct Pass<Destination: ImportDestination>: ArchiveVisitor {
        let importer: Importer
        var destination: Destination
        var plan: ImportPlan
        var projects: [UUIDKey: Destination.ObjectKey] = [:]
        var categories: [UUIDKey: Destination.ObjectKey] = [:]
        var tags: [UUIDKey: Destination.ObjectKey] = [:]
        var tasksDone = 0
        /// The archive's relationships under `extra`, and the links waiting for every record to exist.
        var links = Links()
        /// The generic section's declarations, keys and waiting links.
        var generic = Generic()
        /// What `place` did with the last record.
        var placement = Placement.inserted
        /// Whether the header has settled `loaded` (each pass sees the header again).
        var kindsSettled = false
        /// The kinds this import loads (every kind unless limited), settled by the header.
        var loaded: Set<StoreMapping.Kind> = Set(StoreMapping.Kind.allCases)
        /// Targets' objects for references to kinds not loaded (nil: the target has none; the reference is dropped).
        var external: [UUID: Destination.ObjectKey?] = [:]

        enum Placement { case inserted, updated, skipped, unchanged }

        init(importer: Importer, destination: Destination, plan: ImportPlan) {
            self.importer = importer
            self.destination = destination
            self.plan = plan
        }

        /// Decides insert, update or skip for a project, category or tag (its relationships under `extra` taken out
        /// and kept for `linkRelationships`); returns the key to record in the ID map (nil in a dry run for a new
        /// record).
        mutating func place<Record: TypedRecord>(
            _ record: Record, id: UUID, at path: RecordPath,
            insert: (inout Destination, Record) throws -> Destination.ObjectKey,
            update: (inout Destination, Record, Destination.ObjectKey) throws -> Void
        ) throws -> Destination.ObjectKey? {
            let kind = Record.kind
            var record = record
            let taken = takeRelationships(&record.extra, of: kind)
            let key: Destination.ObjectKey?
            var existing = importer.mode == .replace ? nil : try destination.existingKey(of: kind, id: id)
            var targetId = id
            if existing == nil, importer.mode != .replace, let matched = importer.baseline?.match(kind, id),
                let matchedKey = try destination.existingKey(of: kind, id: matched)
            {
                // The archive's record is the target's: written (if at all) under the target's id; every reference
                // to the archive's id follows through the ID map.
                existing = matchedKey
                targetId = matched
                record.id = matched
                plan[kind].matched += 1
                plan.note(MergeDecision(kind: .match, recordKind: kind, id: id, targetId: matched))
            }
            if let existing {
                let archiveDate = importer.modificationDates.date(of: record)
                let targetDate = importer.baseline?.targetDates[targetId] ?? nil
                switch importer.mode {
                case .insert where targetId == id:
                    throw TaskInterchangeError(
                        .invalidData,
                        "\(path.member("id")): \(kind.rawValue) \(id.uuidString) already exists in the target store "
                            + "(use \(setting: .mode, "upsert", "skip", "replace"))"
                    )
                case .upsert where importer.baseline?.contains(kind, id) == true,
                    .merge where importer.baseline?.contains(kind, id) == true:
                    plan[kind].unchanged += 1
                    placement = .unchanged
                case .merge where !importer.archiveWins(archiveDate: archiveDate, targetDate: targetDate):
                    plan[kind].conflicts += 1
                    plan[kind].skipped += 1
                    plan.note(
                        MergeDecision(
                            kind: .conflict, recordKind: kind, id: id, targetId: targetId, winner: .target,
                            archiveModifiedAt: archiveDate, targetModifiedAt: targetDate))
                    placement = .unchanged
                case .upsert, .merge:
                    if importer.mode == .merge {
                        plan[kind].conflicts += 1
                        plan.note(
                            MergeDecision(
                                kind: .conflict, recordKind: kind, id: id, targetId: targetId, winner: .archive,
                                archiveModifiedAt: archiveDate, targetModifiedAt: targetDate))
                    }
                    if !importer.dryRun { try update(&destination, record, existing) }
                    plan[kind].updated += 1
                    placement = .updated
                case .insert, .skip, .replace:
                    plan[kind].skipped += 1
                    placement = .skipped
                }
                key = existing
            } else {
                plan[kind].inserted += 1
                placement = .inserted
                key = importer.dryRun ? nil : try insert(&destination, record)
            }
            if !links.isEmpty { try keep(taken, of: kind, id: id, key: key, at: path) }
            return key
        }

        mutating func visitProject(_ project: ProjectRecord, index: Int) throws {
            try visitRecord(
                project, index, \.projects, insert: { try $0.insert($1) }, update: { try $0.update($1, at: $2) })
        }

        mutating func visitCategory(_ category: CategoryRecord, index: Int) throws {
            try visitRecord(
                category, index, \.categories, insert: { try $0.insert($1) }, update: { try $0.update($1, at: $2) })
        }

        mutating func visitTag(_ tag: TagRecord, index: Int) throws {
            try visitRecord(tag, index, \.tags, insert: { try $0.insert($1) }, update: { try $0.update($1, at: $2) })
        }

        /// A project, category or tag: validated, then placed (when its kind is loaded) and its key kept in `map`.
        private mutating func visitRecord<Record: SectionRecord>(
            _ record: Record, _ index: Int, _ map: WritableKeyPath<Self, [UUIDKey: Destination.ObjectKey]>,
            insert: (inout Destination, Record) throws -> Destination.ObjectKey,
            update: (inout Destination, Record, Destination.ObjectKey) throws -> Void
        ) throws {
            guard loads(Record.kind) else { return }
            self[keyPath: map][UUIDKey(record.id)] = try place(
                record, id: record.id, at: RecordPath(Record.kind, index),
                insert: insert, update: update)
        }

        mutating func visitTask(_ task: TaskRecord, index: Int) throws {
            guard loads(.task) else {
                notLoaded(.subtask, task.subtasks.count)
                return
            }
            let path = RecordPath(.task, index)
            tasksDone += 1
            if tasksDone % 1_024 == 0 { try Cancellation.checkpoint() }
            if tasksDone % 10_000 == 0 { importer.progress?(tasksDone) }
            var task = task
            task.forgetPositionsOutOfOrder()
            let taken = takeRelationships(&task.extra, of: .task)
            let subtasksTaken =
                links.declares(.subtask)
                ? task.subtasks.indices.map { takeRelationships(&task.subtasks[$0].extra, of: .subtask) } : []
            let existing = importer.mode == .replace ? nil : try destination.existingKey(of: .task, id: task.id)
            if let existing, importer.mode == .skip {
                plan[.task].skipped += 1
                plan[.subtask].skipped += task.subtasks.count
                placement = .skipped
                if !links.isEmpty {
                    try keep(taken, of: .task, id: task.id, key: existing, at: path)
                    for (position, subtask) in task.subtasks.enumerated() {
                        try keep(
                            subtasksTaken.isEmpty ? [] : subtasksTaken[position], of: .subtask, id: subtask.id,
                            key: try destination.existingKey(of: .subtask, id: subtask.id), at: path.subtask(position))
                    }
                }
                return
            }
            let taskDates = (
                archive: importer.modificationDates.date(of: task),
                target: importer.baseline?.targetDates[task.id] ?? nil
            )
            let unchanged = importer.baseline?.contains(.task, task.id) == true
            let targetWins =
                existing != nil && importer.mode == .merge && !unchanged
                && !importer.archiveWins(archiveDate: taskDates.archive, targetDate: taskDates.target)
            if existing != nil, importer.mode == .merge, !unchanged {
                plan[.task].conflicts += 1
                plan.note(
                    MergeDecision(
                        kind: .conflict, recordKind: .task, id: task.id, targetId: task.id,
                        winner: targetWins ? .target : .archive,
                        archiveModifiedAt: taskDates.archive, targetModifiedAt: taskDates.target))
            }
            // Merge kept the target's newer version, or the task, its links and its subtasks (in order) are already as
            // the archive says: they stay as they are.
            let keptAsNewer = existing != nil && targetWins
            let alreadyEqual = existing != nil && (importer.mode == .upsert || importer.mode == .merge) && unchanged
            if let existing, keptAsNewer || alreadyEqual {
                if keptAsNewer {
                    plan[.task].skipped += 1
                    plan[.subtask].skipped += task.subtasks.count
                } else {
                    plan[.task].unchanged += 1
                    plan[.subtask].unchanged += task.subtasks.count
                }
                placement = .unchanged
                if !links.isEmpty, !importer.dryRun {
                    try keep(taken, of: .task, id: task.id, key: existing, at: path)
                    for (position, subtask) in task.subtasks.enumerated() {
                        try keep(
                            subtasksTaken.isEmpty ? [] : subtasksTaken[position], of: .subtask, id: subtask.id,
                            key: try destination.existingKey(of: .subtask, id: subtask.id), at: path.subtask(position))
                    }
                }
                return
            }
            if existing != nil, importer.mode == .insert {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(path.member("id")): task \(task.id.uuidString) already exists in the target store "
                        + "(use \(setting: .mode, "upsert", "skip", "replace"))"
                )
            }
            if importer.dryRun {
                _ = try resolveLinks(task, path: path, externalOnly: true)
                if existing != nil { plan[.task].updated += 1 } else { plan[.task].inserted += 1 }
                for subtask in task.subtasks {
                    if importer.mode != .replace, try destination.existingKey(of: .subtask, id: subtask.id) != nil {
                        plan[.subtask].updated += 1
                    } else {
                        plan[.subtask].inserted += 1
                    }
                }
                return
            }
            let references = try resolveLinks(task, path: path)
            let key: Destination.ObjectKey
            if let existing {
                try destination.update(task, links: references, at: existing)
                plan[.task].updated += 1
                key = existing
                placement = .updated
            } else {
                key = try destination.insert(task, links: references)
                plan[.task].inserted += 1
                placement = .inserted
            }
            if !links.isEmpty { try keep(taken, of: .task, id: task.id, key: key, at: path) }
            var kept: Set<Destination.ObjectKey> = []
            for (position, subtask) in task.subtasks.enumerated() {
                let found = importer.mode == .replace ? nil : try destination.existingKey(of: .subtask, id: subtask.id)
                if let found {
                    guard importer.mode == .upsert || importer.mode == .merge else {
                        throw TaskInterchangeError(
                            .invalidData,
                            "\(path.subtask(position).member("id")): subtask \(subtask.id.uuidString) already exists "
                                + "in the target store"
                        )
                    }
                    try destination.update(subtask, of: key, position: position, at: found)
                    plan[.subtask].updated += 1
                    kept.insert(found)
                    placement = .updated
                    if !links.isEmpty {
                        try keep(
                            subtasksTaken.isEmpty ? [] : subtasksTaken[position], of: .subtask, id: subtask.id,
                            key: found,
                            at: path.subtask(position))
                    }
                } else {
                    let subtaskKey = try destination.insert(subtask, of: key, position: position)
                    kept.insert(subtaskKey)
                    plan[.subtask].inserted += 1
                    placement = .inserted
                    if !links.isEmpty {
                        try keep(
                            subtasksTaken.isEmpty ? [] : subtasksTaken[position], of: .subtask, id: subtask.id,
                            key: subtaskKey,
                            at: path.subtask(position))
                    }
                }
            }
            if existing != nil {
                plan[.subtask].deleted += try destination.removeSubtasks(of: key, keeping: kept)
            }
        }

        /// The task's links through the ID maps; references to kinds not loaded through the target (`externalOnly`
        /// resolves only those: a dry run has no keys for what it would insert).
        mutating func resolveLinks(_ task: TaskRecord, path: RecordPath, externalOnly: Bool = false) throws
            -> TaskLinks<Destination.ObjectKey>
        {
            var links = TaskLinks<Destination.ObjectKey>()
            // Asked once per task, not per reference.
            let (projectsLoaded, categoriesLoaded, tagsLoaded) = (
                loaded.contains(.project), loaded.contains(.category), loaded.contains(.tag)
            )
            if !(projectsLoaded && categoriesLoaded && tagsLoaded) {
                if let projectId = task.projectId, !projectsLoaded {
                    links.project = try externalKey(.project, projectId)
                }
                if let categoryId = task.categoryId, !categoriesLoaded {
                    links.category = try externalKey(.category, categoryId)
                }
                if !tagsLoaded { links.tags = try task.tagIds.compactMap { try externalKey(.tag, $0) } }
            }
            if externalOnly { return links }
            if let projectId = task.projectId, projectsLoaded {
                guard let key = projects[UUIDKey(projectId)] else {
                    throw TaskInterchangeError(
                        .invalidData, "\(path.member("projectId")): no project with id \(projectId.uuidString)")
                }
                links.project = key
            }
            if let categoryId = task.categoryId, categoriesLoaded {
                guard let key = categories[UUIDKey(categoryId)] else {
                    throw TaskInterchangeError(
                        .invalidData, "\(path.member("categoryId")): no category with id \(categoryId.uuidString)")
                }
                links.category = key
            }
            guard tagsLoaded else { return links }
            links.tags.reserveCapacity(task.tagIds.count)
            for (position, tagId) in task.tagIds.enumerated() {
                guard let key = tags[UUIDKey(tagId)] else {
                    throw TaskInterchangeError(
                        .invalidData, "\(path.member("tagIds"))[\(position)]: no tag with id \(tagId.uuidString)")
                }
                links.tags.append(key)
            }
            return links
        }

        /// A raw table is written whole once the records are (its rows may be keyed by theirs).
        mutating func visitTable(_ table: RawTable, index: Int) throws {
            // Checked as validation checks it, so a dry run refuses what the import would.
            if let issue = Validator.issues(of: table).first {
                throw TaskInterchangeError(.invalidData, "the archive is invalid: \(issue)")
            }
            let path = JSONPath.member("$.tables", table.name)
            if importer.dryRun {
                plan.tables[table.name, default: ImportPlan.Operations()].inserted += table.rows.count
            } else if let done = try destination.insert(table, path: path, mode: importer.mode) {
                plan.tables[table.name] = done
            } else {
                plan.lacking["tables." + table.name, default: 0] += table.rows.count
            }
        }

        mutating func visitIssue(_ issue: ValidationIssue) throws {
            if issue.severity == .error {
                throw TaskInterchangeError(.invalidData, "the archive is invalid: \(issue)")
            }
        }

        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}
    }
}
