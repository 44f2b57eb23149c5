import Foundation
import TaskInterchange

/// The shape of a persistence context that `TaskGraphDestination` writes through: make objects, save, discard,
/// delete by id, and fetch everything back. SwiftData's `ModelContext` and Core Data's `NSManagedObjectContext`
/// both have it (see the SwiftData and Core Data folders); so does the fake context the tests drive the adapter
/// with on Linux, which is how the adapter's mapping is tested where neither framework exists.
///
/// Every method is called on the thread (or actor) that made the context.
public protocol TaskGraphContext: AnyObject {
    /// The app's project type.
    associatedtype Project: TaskGraphProject
    /// The app's category type.
    associatedtype Category: TaskGraphCategory
    /// The app's tag type.
    associatedtype Tag: TaskGraphTag
    /// The app's subtask type.
    associatedtype Subtask: TaskGraphSubtask
    /// The app's task type, whose relationships lead to the types above.
    associatedtype Task: TaskGraphTask
    where Task.Project == Project, Task.Category == Category, Task.Tag == Tag, Task.Subtask == Subtask

    /// A new project, inserted into the context (its properties are set next).
    func makeProject() throws -> Project
    /// A new category, inserted into the context.
    func makeCategory() throws -> Category
    /// A new tag, inserted into the context.
    func makeTag() throws -> Tag
    /// A new task, inserted into the context.
    func makeTask() throws -> Task
    /// A new subtask, inserted into the context.
    func makeSubtask() throws -> Subtask

    /// Runs `body` where the context may be used (Core Data: the context's queue) and returns its result.
    /// - Throws: what `body` throws.
    func performAndWait<Result>(_ body: () throws -> Result) throws -> Result

    /// Writes the pending changes to the store.
    /// - Throws: the framework's error when the store refuses them.
    func save() throws
    /// Discards the changes made since the last save.
    func rollback()
    /// Deletes the saved objects of `kind` whose id is in `ids` and saves.
    /// - Throws: the framework's error when the store refuses it.
    func delete(_ kind: StoreMapping.Kind, ids: Set<UUID>) throws
    /// Every object of each kind in the store (for verification); subtasks are reached through their tasks.
    /// - Throws: the framework's fetch error.
    func fetchAll() throws -> (projects: [Project], categories: [Category], tags: [Tag], tasks: [Task])
}

extension TaskGraphContext {
    /// A context used on the thread that made it (SwiftData's `ModelContext`, a test's) runs `body` directly.
    /// - Throws: what `body` throws.
    public func performAndWait<Result>(_ body: () throws -> Result) throws -> Result { try body() }
}
