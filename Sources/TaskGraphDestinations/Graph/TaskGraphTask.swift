import Foundation

/// A task object as the app's model has it, with its relationships.
public protocol TaskGraphTask: AnyObject {
    /// The app's project type.
    associatedtype Project: TaskGraphProject
    /// The app's category type.
    associatedtype Category: TaskGraphCategory
    /// The app's tag type.
    associatedtype Tag: TaskGraphTag
    /// The app's subtask type.
    associatedtype Subtask: TaskGraphSubtask

    /// The interchange id.
    var id: UUID { get set }
    /// The title.
    var title: String { get set }
    /// Free text, if any.
    var notes: String? { get set }
    /// Done or not.
    var isCompleted: Bool { get set }
    /// When it was created.
    var createdAt: Date { get set }
    /// When it is due, if ever.
    var dueDate: Date? { get set }
    /// 0 low, 1 medium, 2 high, 3 urgent.
    var priority: Int { get set }
    /// Its project, if any.
    var project: Project? { get set }
    /// Its category, if any.
    var category: Category? { get set }
    /// Its tags (a set: their order carries no meaning).
    var tags: [Tag] { get set }
    /// Its subtasks; the adapter appends them in order and sets each one's `position`.
    var subtasks: [Subtask] { get set }
}
