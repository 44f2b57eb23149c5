import Foundation

/// Rebuilds an archive's object graph in a destination, in two passes through ID maps: projects, categories and tags
/// first (recording id → key), then tasks with their links and ordered subtasks resolved through those maps.
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

    /// Creates an importer.
    public init(mode: ImportMode = .insert, dryRun: Bool = false, progress: (@Sendable (Int) -> Void)? = nil) {
        self.mode = mode
        self.dryRun = dryRun
        self.progress = progress
    }

    /// Imports `source` into `destination` and returns what was done.
    /// - Throws: `TaskInterchangeError.invalidData` for an id or reference the archive cannot satisfy; destination and
    ///   source errors unchanged.
    public func run<Destination: ImportDestination>(_ source: some ArchiveSource, into destination: inout Destination) throws -> ImportPlan {
        var validator: Validator?
        return try run(source, into: &destination, validator: &validator)
    }

    /// Imports and, in the same passes, feeds every record to `validator` (saving a separate validation pass). The
    /// caller must check `validator.report` before committing: the importer itself stops only at what it cannot write.
    public func run<Destination: ImportDestination>(_ source: some ArchiveSource, into destination: inout Destination,
                                                     validatingWith validator: inout Validator) throws -> ImportPlan {
        var optional: Validator? = validator
        defer { validator = optional! }
        return try run(source, into: &destination, validator: &optional)
    }

    private func run<Destination: ImportDestination>(_ source: some ArchiveSource, into destination: inout Destination,
                                                     validator: inout Validator?) throws -> ImportPlan {
        var plan = ImportPlan()
        if mode == .replace {
            for kind in StoreMapping.Kind.allCases { plan[kind].deleted = try destination.count(of: kind) }
            if !dryRun { try destination.removeAll() }
        }
        var pass = Pass(importer: self, destination: destination, plan: plan, validator: validator)
        try source.stream(kinds: [.project, .category, .tag], into: &pass)
        pass.isLastPass = true
        try source.stream(kinds: [.task], into: &pass)
        try pass.linkRelationships()
        destination = pass.destination
        validator = pass.validator
        return pass.plan
    }

    /// One visitor for both passes; it holds the ID maps.
    struct Pass<Destination: ImportDestination>: ArchiveVisitor {
        let importer: Importer
        var destination: Destination
        var plan: ImportPlan
        var projects: [UUID: Destination.ObjectKey] = [:]
        var categories: [UUID: Destination.ObjectKey] = [:]
        var tags: [UUID: Destination.ObjectKey] = [:]
        var tasksDone = 0
        var validator: Validator?
        /// The validator resolves forward references at the end of the last pass only.
        var isLastPass = false
        /// The archive's `source.relationships`, from the first header.
        var relationships: [String: [String: ExtraRelationship]] = [:]
        /// Kinds that relationships point at or start from: their ID maps are kept (projects, categories and tags
        /// always are).
        var linkedKinds: Set<StoreMapping.Kind> = []
        var taskKeys: [UUID: Destination.ObjectKey] = [:]
        var subtaskKeys: [UUID: Destination.ObjectKey] = [:]
        /// Relationship values taken out of records' `extra`, linked once every record exists.
        var pendingLinks: [PendingLink] = []
        /// What `place` did with the last record.
        var placement = Placement.inserted

        enum Placement { case inserted, updated, skipped }

        struct PendingLink {
            var kind: StoreMapping.Kind
            var key: Destination.ObjectKey
            var property: String
            var declaration: ExtraRelationship
            var ids: [String]
            var path: String
            var replacing: Bool
        }

        init(importer: Importer, destination: Destination, plan: ImportPlan, validator: Validator?) {
            self.importer = importer
            self.destination = destination
            self.plan = plan
            self.validator = validator
        }

        /// Decides insert, update or skip for one record; returns the key to record in the ID map (nil in a dry run
        /// for a new record).
        mutating func place(_ kind: StoreMapping.Kind, id: UUID, path: String,
                            insert: (inout Destination) throws -> Destination.ObjectKey,
                            update: (inout Destination, Destination.ObjectKey) throws -> Void) throws -> Destination.ObjectKey? {
            let existing = importer.mode == .replace ? nil : try destination.existingKey(of: kind, id: id)
            if let existing {
                switch importer.mode {
                case .insert:
                    throw TaskInterchangeError(.invalidData, "\(path).id: \(kind.rawValue) \(id.uuidString) already exists in the target store (use --mode upsert, skip or replace)")
                case .upsert:
                    if !importer.dryRun { try update(&destination, existing) }
                    plan[kind].updated += 1
                    placement = .updated
                case .skip, .replace:
                    plan[kind].skipped += 1
                    placement = .skipped
                }
                return existing
            }
            plan[kind].inserted += 1
            placement = .inserted
            return importer.dryRun ? nil : try insert(&destination)
        }

        mutating func visitProject(_ project: ProjectRecord, index: Int) throws {
            validator?.visitProject(project, index: index)
            var project = project
            let links = takeRelationships(&project.extra, of: .project)
            let key = try place(.project, id: project.id, path: "$.projects[\(index)]",
                                insert: { try $0.insert(project) }, update: { try $0.update(project, at: $1) })
            projects[project.id] = key
            keep(links, of: .project, id: project.id, key: key, path: "$.projects[\(index)]")
        }

        mutating func visitCategory(_ category: CategoryRecord, index: Int) throws {
            validator?.visitCategory(category, index: index)
            var category = category
            let links = takeRelationships(&category.extra, of: .category)
            let key = try place(.category, id: category.id, path: "$.categories[\(index)]",
                                insert: { try $0.insert(category) }, update: { try $0.update(category, at: $1) })
            categories[category.id] = key
            keep(links, of: .category, id: category.id, key: key, path: "$.categories[\(index)]")
        }

        mutating func visitTag(_ tag: TagRecord, index: Int) throws {
            validator?.visitTag(tag, index: index)
            var tag = tag
            let links = takeRelationships(&tag.extra, of: .tag)
            let key = try place(.tag, id: tag.id, path: "$.tags[\(index)]",
                                insert: { try $0.insert(tag) }, update: { try $0.update(tag, at: $1) })
            tags[tag.id] = key
            keep(links, of: .tag, id: tag.id, key: key, path: "$.tags[\(index)]")
        }

        /// Removes the declared relationships from a record's `extra` (they are not attribute values) and returns them;
        /// a declared relationship the record leaves out is empty (an export leaves out empty ones).
        func takeRelationships(_ extra: inout [String: ExtraValue]?, of kind: StoreMapping.Kind) -> [(String, ExtraRelationship, [String])] {
            guard let declared = relationships[kind.rawValue] else { return [] }
            var taken: [(String, ExtraRelationship, [String])] = []
            for (property, declaration) in declared {
                guard let value = extra?[property] else {
                    taken.append((property, declaration, []))
                    continue
                }
                extra?[property] = nil
                switch value {
                case .string(let id): taken.append((property, declaration, [id]))
                case .array(let ids): taken.append((property, declaration, ids))
                default: taken.append((property, declaration, []))
                }
            }
            if extra?.isEmpty == true { extra = nil }
            return taken.sorted { $0.0 < $1.0 }
        }

        /// Keeps a record's relationships for `linkRelationships`, and its key when relationships point at its kind.
        /// Records left as they were (skip mode) keep their relationships too.
        mutating func keep(_ links: [(String, ExtraRelationship, [String])], of kind: StoreMapping.Kind, id: UUID,
                           key: Destination.ObjectKey?, path: String) {
            guard let key, !importer.dryRun else { return }
            if kind == .task && linkedKinds.contains(.task) { taskKeys[id] = key }
            if kind == .subtask && linkedKinds.contains(.subtask) { subtaskKeys[id] = key }
            guard placement != .skipped else { return }
            for (property, declaration, ids) in links where !ids.isEmpty || placement == .updated {
                pendingLinks.append(PendingLink(kind: kind, key: key, property: property, declaration: declaration, ids: ids,
                                                path: ArchiveReader.Parser<Validator>.memberPath(path + ".extra", property),
                                                replacing: placement == .updated))
            }
        }

        mutating func visitHeader(_ header: ArchiveHeader) {
            validator?.visitHeader(header)
            guard relationships.isEmpty, let declared = header.source?.relationships, !declared.isEmpty else { return }
            relationships = declared
            for (kind, properties) in declared {
                if let kind = StoreMapping.Kind(rawValue: kind) { linkedKinds.insert(kind) }
                for declaration in properties.values { linkedKinds.insert(declaration.destination) }
            }
        }

        /// Links every relationship taken out of `extra`, now that every record has a key.
        mutating func linkRelationships() throws {
            for link in pendingLinks {
                var keys: [Destination.ObjectKey] = []
                for (position, text) in link.ids.enumerated() {
                    let path = link.declaration.toMany ? link.path + "[\(position)]" : link.path
                    guard let id = CanonicalUUID.parse(text) else {
                        throw TaskInterchangeError(.invalidData, "\(path): \(CanonicalUUID.problem(with: text))")
                    }
                    guard let key = key(of: link.declaration.destination, id: id) else {
                        throw TaskInterchangeError(.invalidData, "\(path): no \(link.declaration.destination.rawValue) with id \(text) in the archive")
                    }
                    keys.append(key)
                }
                try destination.link(link.kind, link.key, relationship: link.property, link.declaration, to: keys, replacing: link.replacing)
            }
            pendingLinks = []
        }

        func key(of kind: StoreMapping.Kind, id: UUID) -> Destination.ObjectKey? {
            switch kind {
            case .project: return projects[id]
            case .category: return categories[id]
            case .tag: return tags[id]
            case .task: return taskKeys[id]
            case .subtask: return subtaskKeys[id]
            }
        }

        mutating func visitTask(_ task: TaskRecord, index: Int) throws {
            validator?.visitTask(task, index: index)
            let path = "$.tasks[\(index)]"
            tasksDone += 1
            if tasksDone % 10_000 == 0 { importer.progress?(tasksDone) }
            var task = task
            let links = takeRelationships(&task.extra, of: .task)
            let subtaskLinks = relationships[StoreMapping.Kind.subtask.rawValue] == nil ? []
                : task.subtasks.indices.map { takeRelationships(&task.subtasks[$0].extra, of: .subtask) }
            let existing = importer.mode == .replace ? nil : try destination.existingKey(of: .task, id: task.id)
            if let existing, importer.mode == .skip {
                plan[.task].skipped += 1
                plan[.subtask].skipped += task.subtasks.count
                placement = .skipped
                keep([], of: .task, id: task.id, key: existing, path: path)
                for subtask in task.subtasks where linkedKinds.contains(.subtask) {
                    keep([], of: .subtask, id: subtask.id, key: try destination.existingKey(of: .subtask, id: subtask.id), path: path)
                }
                return
            }
            if existing != nil, importer.mode == .insert {
                throw TaskInterchangeError(.invalidData, "\(path).id: task \(task.id.uuidString) already exists in the target store (use --mode upsert, skip or replace)")
            }
            if importer.dryRun {
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
            keep(links, of: .task, id: task.id, key: key, path: path)
            var kept: Set<Destination.ObjectKey> = []
            for (position, subtask) in task.subtasks.enumerated() {
                let found = importer.mode == .replace ? nil : try destination.existingKey(of: .subtask, id: subtask.id)
                if let found {
                    guard importer.mode == .upsert else {
                        throw TaskInterchangeError(.invalidData, "\(path).subtasks[\(position)].id: subtask \(subtask.id.uuidString) already exists in the target store")
                    }
                    try destination.update(subtask, of: key, position: position, at: found)
                    plan[.subtask].updated += 1
                    kept.insert(found)
                    placement = .updated
                    keep(subtaskLinks.isEmpty ? [] : subtaskLinks[position], of: .subtask, id: subtask.id, key: found,
                         path: path + ".subtasks[\(position)]")
                } else {
                    let subtaskKey = try destination.insert(subtask, of: key, position: position)
                    kept.insert(subtaskKey)
                    plan[.subtask].inserted += 1
                    placement = .inserted
                    keep(subtaskLinks.isEmpty ? [] : subtaskLinks[position], of: .subtask, id: subtask.id, key: subtaskKey,
                         path: path + ".subtasks[\(position)]")
                }
            }
            if existing != nil {
                plan[.subtask].deleted += try destination.removeSubtasks(of: key, keeping: kept)
            }
        }

        func resolveLinks(_ task: TaskRecord, path: String) throws -> TaskLinks<Destination.ObjectKey> {
            var links = TaskLinks<Destination.ObjectKey>()
            if let projectId = task.projectId {
                guard let key = projects[projectId] else {
                    throw TaskInterchangeError(.invalidData, "\(path).projectId: no project with id \(projectId.uuidString)")
                }
                links.project = key
            }
            if let categoryId = task.categoryId {
                guard let key = categories[categoryId] else {
                    throw TaskInterchangeError(.invalidData, "\(path).categoryId: no category with id \(categoryId.uuidString)")
                }
                links.category = key
            }
            for (position, tagId) in task.tagIds.enumerated() {
                guard let key = tags[tagId] else {
                    throw TaskInterchangeError(.invalidData, "\(path).tagIds[\(position)]: no tag with id \(tagId.uuidString)")
                }
                links.tags.append(key)
            }
            return links
        }

        mutating func visitIssue(_ issue: ValidationIssue) throws {
            if issue.severity == .error {
                throw TaskInterchangeError(.invalidData, "the archive is invalid: \(issue)")
            }
            validator?.visitIssue(issue)
        }

        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {
            // References to kinds read in a later pass are resolved at the end of the last one.
            if isLastPass { validator?.visitEnd(header: header, counts: counts) }
        }
    }
}
