/// The kinds of record an archive lists, in the order a version 2 archive lists them; subtasks travel inside tasks.
public enum RecordKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// Projects (`projects`).
    case project
    /// Categories (`categories`).
    case category
    /// Tags (`tags`).
    case tag
    /// Tasks with their subtasks (`tasks`).
    case task

    /// The name of the top-level array that holds this kind: `projects`, `categories`, `tags`, `tasks`.
    public var sectionName: String {
        switch self {
        case .project: return "projects"
        case .category: return "categories"
        case .tag: return "tags"
        case .task: return "tasks"
        }
    }

    /// Position in the section order projects, categories, tags, tasks.
    var order: Int {
        switch self {
        case .project: return 0
        case .category: return 1
        case .tag: return 2
        case .task: return 3
        }
    }

    /// Section order: projects, categories, tags, tasks.
    public static func < (lhs: RecordKind, rhs: RecordKind) -> Bool { lhs.order < rhs.order }
}

extension RecordKind {
    /// `sectionName` as fixed text, for the writer.
    var staticSectionName: StaticString {
        switch self {
        case .project: return "projects"
        case .category: return "categories"
        case .tag: return "tags"
        case .task: return "tasks"
        }
    }
}

extension RecordKind {
    /// Whether a read of `kinds` (all when nil) delivers the generic `entities` section: it does with the tasks,
    /// which come last, so an importer's last pass sees every typed record's id before the generic records.
    public static func deliversEntities(_ kinds: Set<RecordKind>?) -> Bool {
        kinds?.contains(.task) ?? true
    }
}
