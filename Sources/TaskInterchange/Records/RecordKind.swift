/// The kinds of typed record the interchange carries, in the order an archive lists them: projects, categories, tags,
/// then tasks with their subtasks (which travel inside their task, not in a section of their own). A store mapping
/// says which entity feeds each kind (`StoreMapping.Kind` is this type).
public enum RecordKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// Projects (`projects`).
    case project
    /// Categories (`categories`).
    case category
    /// Tags (`tags`).
    case tag
    /// Tasks (`tasks`).
    case task
    /// Subtasks (a task's `subtasks`).
    case subtask

    /// The kinds with a top-level section, in section order (every kind but `subtask`).
    public static let sections: [RecordKind] = [.project, .category, .tag, .task]

    /// The name of the array that lists this kind: `projects`, `categories`, `tags`, `tasks` (top-level sections) or
    /// `subtasks` (a task's member).
    public var sectionName: String {
        "\(staticSectionName)"
    }

    /// `sectionName` as fixed text, for the writer.
    var staticSectionName: StaticString {
        switch self {
        case .project: return "projects"
        case .category: return "categories"
        case .tag: return "tags"
        case .task: return "tasks"
        case .subtask: return "subtasks"
        }
    }

    /// The kind's name as fixed text (NDJSON `type` values, quoted), for the writer.
    var quotedName: StaticString {
        switch self {
        case .project: return "\"project\""
        case .category: return "\"category\""
        case .tag: return "\"tag\""
        case .task: return "\"task\""
        case .subtask: return "\"subtask\""
        }
    }

    /// Position in the order projects, categories, tags, tasks, subtasks.
    var order: Int {
        switch self {
        case .project: return 0
        case .category: return 1
        case .tag: return 2
        case .task: return 3
        case .subtask: return 4
        }
    }

    /// The kind named by an NDJSON line's `type`; nil for a name that is no section's kind.
    init?(recordType: String) {
        guard let kind = RecordKind(rawValue: recordType), kind != .subtask else { return nil }
        self = kind
    }

    /// Order: projects, categories, tags, tasks, subtasks.
    public static func < (lhs: RecordKind, rhs: RecordKind) -> Bool { lhs.order < rhs.order }
}

extension RecordKind {
    /// Whether a read of `kinds` (all when nil) delivers the generic `entities` section: it does with the tasks,
    /// which come last, so an importer's last pass sees every typed record's id before the generic records.
    public static func deliversEntities(_ kinds: Set<RecordKind>?) -> Bool {
        kinds?.contains(.task) ?? true
    }
}
