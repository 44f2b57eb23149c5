import Foundation
import TaskGraphDestinations
import TaskInterchange

/// Plain classes in the shape of the seed's SwiftData `@Model` classes (`SeedModel`), and a context in the shape of
/// `SeedModelContext`: objects made are pending until `save()`, `rollback()` drops the pending ones, `delete` removes
/// saved ones by id, `fetchAll()` returns what is saved — so the adapter's mapping, batching and rollback run here as
/// they run on a `ModelContext`.
final class FakeProject: TaskGraphProject {
    var id = UUID()
    var name = ""
    var createdAt: Date?
}

final class FakeCategory: TaskGraphCategory {
    var id = UUID()
    var name = ""
    var color = "blue"
}

final class FakeTag: TaskGraphTag {
    var id = UUID()
    var name = ""
}

final class FakeSubtask: TaskGraphSubtask {
    var id = UUID()
    var title = ""
    var isCompleted = false
    var position = 0
}

final class FakeTask: TaskGraphTask {
    var id = UUID()
    var title = ""
    var notes: String?
    var isCompleted = false
    var createdAt = Date(timeIntervalSinceReferenceDate: 0)
    var dueDate: Date?
    var priority = 0
    var project: FakeProject?
    var category: FakeCategory?
    var tags: [FakeTag] = []
    // SwiftData hands back a to-many array in no particular order; so does this, reversed.
    private var storedSubtasks: [FakeSubtask] = []
    var subtasks: [FakeSubtask] {
        get { storedSubtasks.reversed() }
        set { storedSubtasks = newValue.reversed() }
    }
}

/// The test reads the context after the migration's queue has finished with it.
final class FakeTaskContext: TaskGraphContext, @unchecked Sendable {
    /// What a test makes fail.
    enum Fault: Equatable {
        case none
        /// `save()` throws on this call (1 = the first).
        case failingSave(Int)
        /// The store keeps no notes (a lossy model): verification must catch it.
        case dropsNotes
    }

    struct SaveFailed: Error {}

    let fault: Fault
    private(set) var saved: (projects: [FakeProject], categories: [FakeCategory], tags: [FakeTag], tasks: [FakeTask]) =
        ([], [], [], [])
    private var pending: (projects: [FakeProject], categories: [FakeCategory], tags: [FakeTag], tasks: [FakeTask]) = (
        [], [], [], []
    )
    private(set) var saveCalls = 0
    /// The most tasks ever pending at once: what batching bounds.
    private(set) var mostPendingTasks = 0

    /// Called at every `save()`, before it saves (a test cancels the migration from here).
    var onSave: (() -> Void)?

    init(fault: Fault = .none) { self.fault = fault }

    var pendingCount: Int {
        pending.projects.count + pending.categories.count + pending.tags.count + pending.tasks.count
    }

    func makeProject() -> FakeProject { remember(FakeProject(), in: \.projects) }
    func makeCategory() -> FakeCategory { remember(FakeCategory(), in: \.categories) }
    func makeTag() -> FakeTag { remember(FakeTag(), in: \.tags) }
    func makeTask() -> FakeTask {
        let task = remember(FakeTask(), in: \.tasks)
        mostPendingTasks = max(mostPendingTasks, pending.tasks.count)
        return task
    }
    func makeSubtask() -> FakeSubtask { FakeSubtask() }

    private func remember<Object>(
        _ object: Object,
        in list: WritableKeyPath<
            (
                projects: [FakeProject], categories: [FakeCategory],
                tags: [FakeTag], tasks: [FakeTask]
            ), [Object]
        >
    ) -> Object {
        pending[keyPath: list].append(object)
        return object
    }

    func save() throws {
        onSave?()
        saveCalls += 1
        if fault == .failingSave(saveCalls) { throw SaveFailed() }
        if fault == .dropsNotes { for task in pending.tasks { task.notes = nil } }
        saved.projects += pending.projects
        saved.categories += pending.categories
        saved.tags += pending.tags
        saved.tasks += pending.tasks
        pending = ([], [], [], [])
    }

    func rollback() { pending = ([], [], [], []) }

    func delete(_ kind: StoreMapping.Kind, ids: Set<UUID>) throws {
        switch kind {
        case .project: saved.projects.removeAll { ids.contains($0.id) }
        case .category: saved.categories.removeAll { ids.contains($0.id) }
        case .tag: saved.tags.removeAll { ids.contains($0.id) }
        case .task: saved.tasks.removeAll { ids.contains($0.id) }
        case .subtask: for task in saved.tasks { task.subtasks.removeAll { ids.contains($0.id) } }
        }
    }

    func fetchAll() -> (projects: [FakeProject], categories: [FakeCategory], tags: [FakeTag], tasks: [FakeTask]) {
        saved
    }

    var savedCount: Int {
        saved.projects.count + saved.categories.count + saved.tags.count + saved.tasks.count
            + saved.tasks.reduce(0) { $0 + $1.subtasks.count }
    }
}
