import Foundation

/// A subtask object as the app's model has it.
public protocol TaskGraphSubtask: AnyObject {
    /// The interchange id.
    var id: UUID { get set }
    /// The title.
    var title: String { get set }
    /// Done or not.
    var isCompleted: Bool { get set }
    /// Its place among its task's subtasks, from 0. SwiftData's to-many arrays keep no order, so a SwiftData model
    /// stores it and sorts by it; a Core Data ordered relationship keeps the order itself and may ignore it.
    var position: Int { get set }
}
