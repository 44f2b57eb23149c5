import Foundation

/// Checks an archive's referential integrity and values as a reader streams it, and collects every problem.
///
/// Structural problems (syntax, types, versions, counts) come from the reader through `visitIssue`; this type adds
/// duplicate ids, references to missing projects, categories and tags, repeated tags on a task, priorities out of
/// range,
/// and (when given the target's ids) ids that already exist in the target store.
public struct Validator: ArchiveVisitor {
    /// Ids already present in an import target, and whether their presence is an error (it is for ``ImportMode/insert``).
    public struct ExistingIDs: Sendable {
        /// Ids per kind.
        public var ids: [RecordKind: Set<UUID>]
        /// True when an id that already exists must be reported as an error.
        public var existingIsError: Bool
        /// Where ids are looked up instead of `ids` (an importer's own maps of the target's ids).
        private var lookup: (@Sendable (RecordKind, UUID) -> Bool)?

        /// Creates the set.
        public init(ids: [RecordKind: Set<UUID>], existingIsError: Bool) {
            self.ids = ids
            self.existingIsError = existingIsError
        }

        /// Ids looked up by `contains` rather than listed.
        init(existingIsError: Bool, contains: @escaping @Sendable (RecordKind, UUID) -> Bool) {
            ids = [:]
            self.existingIsError = existingIsError
            lookup = contains
        }

        /// Whether the target has a record of `kind` with this id.
        func contains(_ kind: RecordKind, _ id: UUID) -> Bool {
            lookup?(kind, id) ?? (ids[kind]?.contains(id) == true)
        }
    }

    /// The most issues listed in a report; the rest are counted.
    public var maxIssues: Int
    private let existing: ExistingIDs?
    /// Kinds an import does not load: their ids may exist in the target.
    var unloaded: Set<RecordKind> = []
    private var issues: [ValidationIssue] = []
    private var errorCount = 0
    private var warningCount = 0
    private var codeCounts: [ValidationIssue.Code: Int] = [:]
    private var version: Int?
    private var projects: Set<UUIDKey> = []
    private var categories: Set<UUIDKey> = []
    private var tags: Set<UUIDKey> = []
    private var tasks: Set<UUIDKey> = []
    private var subtasks: Set<UUIDKey> = []
    var counts = ArchiveCounts()
    private var selection: ExportSelection?
    /// References whose target had not been read yet (version 1 files may list tasks before projects).
    private var pending: [(kind: RecordKind, id: UUID, path: String)] = []
    /// Ids named by relationships under `extra` whose destination had not been read yet.
    private var pendingExtras: [(kind: RecordKind, id: UUID, path: String)] = []
    /// The archive's `source.relationships`.
    private var relationships: [String: [String: ExtraRelationship]] = [:]
    /// The model types of the import target's attributes that typed records' `extra` values are written to, by kind
    /// and property name (`source.model` type names); empty when there is no target, or it has no model.
    var extraTypes: [RecordKind: [String: String]] = [:]
    /// The relationship names (inherited ones included) of each entity of the import target's model, by entity name,
    /// and of each typed kind's entity also by the kind (`task`…): what a declared inverse must name there. Empty
    /// when there is no target, or it has no model.
    var targetRelationships: [String: Set<String>] = [:]
    /// The generic section: declarations, ids read, references still to check.
    var generic = GenericChecks()
    /// Warnings already counted: a reader streaming in several passes repeats document-level warnings.
    private var seenWarnings: Set<String> = []

    /// Creates a validator; with `existing`, ids are also checked against an import target.
    public init(maxIssues: Int = 100, existing: ExistingIDs? = nil) {
        self.maxIssues = maxIssues
        self.existing = existing
    }

    /// The report so far; complete after the reader called `visitEnd` (or stopped on malformed input).
    public var report: ValidationReport {
        ValidationReport(
            issues: issues, errorCount: errorCount, warningCount: warningCount, version: version,
            counts: counts, selection: selection, codeCounts: codeCounts)
    }

    /// Records a reader's issue.
    public mutating func visitIssue(_ issue: ValidationIssue) {
        if issue.severity == .warning, !seenWarnings.insert(issue.description).inserted { return }
        if issue.severity == .error { errorCount += 1 } else { warningCount += 1 }
        codeCounts[issue.code, default: 0] += 1
        if issue.code == .malformedJSON {
            // The reason reading stopped (a truncated file, say) must show even when the list is full: it goes first.
            issues.insert(issue, at: 0)
            if issues.count > maxIssues { issues.removeLast() }
        } else if issues.count < maxIssues {
            issues.append(issue)
        }
    }

    mutating func error(_ code: ValidationIssue.Code, _ path: String, _ message: String, about id: UUID) {
        visitIssue(ValidationIssue(code, path: path, message: message, subject: id.uuidString))
    }

    mutating func error(
        _ code: ValidationIssue.Code, _ path: String, _ message: String,
        about text: String? = nil
    ) {
        visitIssue(ValidationIssue(code, path: path, message: message, subject: text))
    }

    /// Checks what every record has: a new id, field values its kind's table allows.
    private mutating func checkRecord<Record: TypedRecord>(_ record: Record, at path: RecordPath) {
        let kind = Record.kind
        if !self[keyPath: Self.ids(kind)].insert(UUIDKey(record.id)).inserted {
            error(
                .duplicateID, path.member("id"), "\(kind.rawValue) id \(record.id.uuidString) appears more than once",
                about: record.id)
        }
        if let existing, existing.existingIsError, !unloaded.contains(kind), existing.contains(kind, record.id) {
            error(
                .idExistsInStore, path.member("id"),
                "\(kind.rawValue) \(record.id.uuidString) already exists in the target store "
                    + "(use \(TaskInterchangeError.libraryName(of: .mode, values: ["upsert", "skip", "replace"])))",
                about: record.id)
        }
        for field in Record.layout {
            switch field.access {
            case .level(let slot, let range):
                guard !range.contains(record[slot]) else { continue }
                error(
                    .priorityOutOfRange, path.member(field.name),
                    "\(field.name) \(record[slot]) is outside \(range.lowerBound)…\(range.upperBound) "
                        + "(\(Record.fields[field.index].value.meaning))"
                )
            case .text, .textOrDefault, .optionalText, .flag, .date, .optionalDate, .optionalInteger: continue
            }
        }
    }

    /// Checks a project.
    public mutating func visitProject(_ project: ProjectRecord, index: Int) {
        counts.projects += 1
        checkRecord(project, at: RecordPath(.project, index))
        checkExtra(project.extra, of: .project, path: RecordPath(.project, index).description)
    }

    /// Checks a category.
    public mutating func visitCategory(_ category: CategoryRecord, index: Int) {
        counts.categories += 1
        checkRecord(category, at: RecordPath(.category, index))
        checkExtra(category.extra, of: .category, path: RecordPath(.category, index).description)
    }

    /// Checks a tag.
    public mutating func visitTag(_ tag: TagRecord, index: Int) {
        counts.tags += 1
        checkRecord(tag, at: RecordPath(.tag, index))
        checkExtra(tag.extra, of: .tag, path: RecordPath(.tag, index).description)
    }

    /// Checks a task, its references and its subtasks.
    public mutating func visitTask(_ task: TaskRecord, index: Int) {
        let path = RecordPath(.task, index)
        counts.tasks += 1
        counts.subtasks += task.subtasks.count
        checkRecord(task, at: path)
        if let projectId = task.projectId, !projects.contains(UUIDKey(projectId)) {
            pending.append((.project, projectId, path.member("projectId")))
        }
        if let categoryId = task.categoryId, !categories.contains(UUIDKey(categoryId)) {
            pending.append((.category, categoryId, path.member("categoryId")))
        }
        // Tasks have few tags: a set (an allocation per task) only for long lists.
        var seenTags: Set<UUIDKey> = []
        for (position, tagId) in task.tagIds.enumerated() {
            let isRepeated =
                task.tagIds.count <= 16
                ? task.tagIds[..<position].contains(tagId) : !seenTags.insert(UUIDKey(tagId)).inserted
            if isRepeated {
                error(
                    .duplicateTagReference, path.member("tagIds") + "[\(position)]",
                    "tag \(tagId.uuidString) is listed twice on this task", about: tagId)
            } else if !tags.contains(UUIDKey(tagId)) {
                pending.append((.tag, tagId, path.member("tagIds") + "[\(position)]"))
            }
        }
        checkExtra(task.extra, of: .task, path: path.description)
        for (position, subtask) in task.subtasks.enumerated() {
            checkRecord(subtask, at: path.subtask(position))
            checkExtra(subtask.extra, of: .subtask, path: path.subtask(position).description)
        }
    }

    /// Checks the header members.
    public mutating func visitHeader(_ header: ArchiveHeader) {
        relationships = header.source?.relationships ?? [:]
        checkModel(of: header)
    }

    /// Relationship values under `extra`: the declared shape, valid ids, and (once read) existing destinations. An
    /// array must be a declared relationship: anything else under `extra` is an attribute value, checked against the
    /// target's type for it when there is one.
    private mutating func checkExtra(
        _ extra: [String: ExtraValue]?, of kind: RecordKind, path makePath: @autoclosure () -> String
    ) {
        guard let extra else { return }
        let declared = relationships[kind.rawValue]
        let types = extraTypes[kind]
        if declared == nil, types == nil,
            !extra.values.contains(where: { if case .array = $0 { true } else { false } })
        {
            return
        }
        let path = makePath()
        for (property, value) in extra {
            let propertyPath = JSONPath.member(path + ".extra", property)
            guard let relationship = declared?[property] else {
                if let type = types?[property] {
                    checkAttribute(value, type: type, path: propertyPath)
                } else if case .array = value {
                    error(
                        .wrongType, propertyPath,
                        "an array under extra must be a relationship declared in "
                            + "$.source.relationships.\(kind.rawValue)"
                    )
                }
                continue
            }
            let named = linkedIds(
                value, toMany: relationship.toMany, destination: relationship.destination.rawValue,
                declaredIn: "$.source.relationships", path: propertyPath)
            for (text, position) in named {
                checkReference(
                    text, to: relationship.destination, path: position.map { "\(propertyPath)[\($0)]" } ?? propertyPath)
            }
        }
    }

    /// The ids a relationship's value names, each with its position in a to-many's array (nil for a to-one; the
    /// path is built only for a message): an id listed twice is reported once; a value of the wrong shape is reported
    /// and names none.
    mutating func linkedIds(
        _ value: ExtraValue, toMany: Bool, destination: String, declaredIn: String,
        path: @autoclosure () -> String
    ) -> [(text: String, position: Int?)] {
        switch (value, toMany) {
        case (.null, _):
            return []
        case (.string(let text), false):
            return [(text, nil)]
        case (.array(let texts), true):
            var seen: Set<String> = []
            var named: [(text: String, position: Int?)] = []
            for (position, text) in texts.enumerated() {
                if seen.insert(text).inserted {
                    named.append((text, position))
                } else {
                    error(
                        .duplicateID, path() + "[\(position)]", "\(text) is listed twice in this relationship",
                        about: text)
                }
            }
            return named
        default:
            error(
                .wrongType, path(),
                toMany
                    ? "expected an array of \(destination) ids (declared to-many in \(declaredIn))"
                    : "expected one \(destination) id (declared to-one in \(declaredIn))")
            return []
        }
    }

    private mutating func checkReference(_ text: String, to kind: RecordKind, path: String) {
        guard let id = CanonicalUUID.parse(text) else {
            error(.invalidUUID, path, CanonicalUUID.problem(with: text))
            return
        }
        if !ids(of: kind).contains(UUIDKey(id)) { pendingExtras.append((kind, id, path)) }
    }

    func ids(of kind: RecordKind) -> Set<UUIDKey> {
        self[keyPath: Self.ids(kind)]
    }

    /// Where the ids read of `kind` are kept.
    private static func ids(_ kind: RecordKind) -> WritableKeyPath<Validator, Set<UUIDKey>> {
        switch kind {
        case .project: return \.projects
        case .category: return \.categories
        case .tag: return \.tags
        case .task: return \.tasks
        case .subtask: return \.subtasks
        }
    }

    /// Resolves the references still pending; called once per pass when a reader streams in several passes.
    public mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {
        version = header.version
        selection = header.source?.selection
        for reference in pending {
            switch reference.kind {
            case .project where !projects.contains(UUIDKey(reference.id)):
                error(
                    .missingProject, reference.path, "no project with id \(reference.id.uuidString) in the archive",
                    about: reference.id)
            case .category where !categories.contains(UUIDKey(reference.id)):
                error(
                    .missingCategory, reference.path, "no category with id \(reference.id.uuidString) in the archive",
                    about: reference.id)
            case .tag where !tags.contains(UUIDKey(reference.id)):
                error(
                    .missingTag, reference.path, "no tag with id \(reference.id.uuidString) in the archive",
                    about: reference.id)
            default:
                break
            }
        }
        pending = []
        for reference in pendingExtras where !ids(of: reference.kind).contains(UUIDKey(reference.id)) {
            error(
                .missingReference, reference.path,
                "no \(reference.kind.rawValue) with id \(reference.id.uuidString) in the archive", about: reference.id)
        }
        pendingExtras = []
        resolveEntityReferences()
    }
}
