#if canImport(CoreData)
    import CoreData
    import Foundation
    import TaskInterchange

    /// An `NSManagedObjectContext` of the seed's Core Data model in the shape `TaskGraphDestination` writes through,
    /// for an app that stays on Core Data but starts a fresh store (a new model version, a new location).
    ///
    /// It makes a private-queue context on `coordinator`; every use goes through `performAndWait`, so it may be made
    /// and used on any thread (the closure `Migration.run(into:events:)` takes, say).
    public final class ManagedTaskContext: TaskGraphContext {
        /// The context written through.
        public let context: NSManagedObjectContext

        /// Makes a private-queue context on `coordinator`.
        public init(coordinator: NSPersistentStoreCoordinator) {
            context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            context.undoManager = nil
        }

        /// Runs `body` on the context's queue.
        /// - Throws: what `body` throws.
        public func performAndWait<Result>(_ body: () throws -> Result) throws -> Result {
            var result: Swift.Result<Result, any Error>!
            context.performAndWait { result = Swift.Result { try body() } }
            return try result.get()
        }

        private func make(_ entity: String) -> NSManagedObject {
            NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        }

        /// A new Project object.
        public func makeProject() -> ManagedTaskObjects.Project { ManagedTaskObjects.Project(make("Project")) }
        /// A new Category object.
        public func makeCategory() -> ManagedTaskObjects.Category { ManagedTaskObjects.Category(make("Category")) }
        /// A new Tag object.
        public func makeTag() -> ManagedTaskObjects.Tag { ManagedTaskObjects.Tag(make("Tag")) }
        /// A new Task object.
        public func makeTask() -> ManagedTaskObjects.Task { ManagedTaskObjects.Task(make("Task")) }
        /// A new Subtask object.
        public func makeSubtask() -> ManagedTaskObjects.Subtask { ManagedTaskObjects.Subtask(make("Subtask")) }

        /// Saves the context, then turns its objects into faults so memory stays bounded between batches.
        /// - Throws: Core Data's error.
        public func save() throws {
            try context.save()
            context.refreshAllObjects()
        }

        /// Discards unsaved changes.
        public func rollback() { context.rollback() }

        /// Deletes the objects of `kind` with these ids and saves.
        /// - Throws: Core Data's error.
        public func delete(_ kind: StoreMapping.Kind, ids: Set<UUID>) throws {
            let request = NSFetchRequest<NSManagedObject>(entityName: Self.entityName(kind))
            request.predicate = NSPredicate(format: "id IN %@", Array(ids))
            for object in try context.fetch(request) { context.delete(object) }
            try context.save()
        }

        /// Every object of each kind.
        /// - Throws: Core Data's fetch error.
        public func fetchAll() throws -> (
            projects: [ManagedTaskObjects.Project], categories: [ManagedTaskObjects.Category],
            tags: [ManagedTaskObjects.Tag], tasks: [ManagedTaskObjects.Task]
        ) {
            func all(_ kind: StoreMapping.Kind) throws -> [NSManagedObject] {
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: Self.entityName(kind)))
            }
            return (
                try all(.project).map(ManagedTaskObjects.Project.init),
                try all(.category).map(ManagedTaskObjects.Category.init),
                try all(.tag).map(ManagedTaskObjects.Tag.init),
                try all(.task).map(ManagedTaskObjects.Task.init)
            )
        }

        /// The seed model's entity for each kind.
        static func entityName(_ kind: StoreMapping.Kind) -> String {
            switch kind {
            case .project: return "Project"
            case .category: return "Category"
            case .tag: return "Tag"
            case .task: return "Task"
            case .subtask: return "Subtask"
            }
        }
    }
#endif
