#if canImport(SwiftData)
    import Foundation
    import SwiftData
    import TaskInterchange

    /// A `ModelContext` of the seed's SwiftData model in the shape `TaskGraphDestination` writes through.
    ///
    /// Make it, and the destination, inside the closure `Migration.run(into:events:)` takes: the context is then made
    /// and used on the migration's own thread, as SwiftData requires of a context.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Schema(SeedModel.types),
    ///                                     configurations: ModelConfiguration(url: newStoreURL))
    /// let report = try await migration.run(into: {
    ///     TaskGraphDestination(context: SeedModelContext(container: container))
    /// })
    /// ```
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    public final class SeedModelContext: TaskGraphContext {
        /// The context written through (autosave off: the adapter saves in batches).
        public let context: ModelContext

        /// The most ids in one delete's predicate (SQLite limits the variables of one statement).
        private static let deleteChunk = 10_000

        /// Makes a new context of `container`.
        public init(container: ModelContainer) {
            context = ModelContext(container)
            context.autosaveEnabled = false
        }

        /// A new project in the context.
        public func makeProject() -> SeedModel.Project { inserted(SeedModel.Project()) }
        /// A new category in the context.
        public func makeCategory() -> SeedModel.Category { inserted(SeedModel.Category()) }
        /// A new tag in the context.
        public func makeTag() -> SeedModel.Tag { inserted(SeedModel.Tag()) }
        /// A new task in the context.
        public func makeTask() -> SeedModel.Task { inserted(SeedModel.Task()) }
        /// A new subtask in the context.
        public func makeSubtask() -> SeedModel.Subtask { inserted(SeedModel.Subtask()) }

        private func inserted<Model: PersistentModel>(_ model: Model) -> Model {
            context.insert(model)
            return model
        }

        /// Saves the context.
        /// - Throws: SwiftData's error.
        public func save() throws { try context.save() }

        /// Discards unsaved changes.
        public func rollback() { context.rollback() }

        /// Deletes the objects of `kind` with these ids, in chunks, and saves.
        /// - Throws: SwiftData's error.
        public func delete(_ kind: StoreMapping.Kind, ids: Set<UUID>) throws {
            let all = Array(ids)
            for start in stride(from: 0, to: all.count, by: Self.deleteChunk) {
                let chunk = Array(all[start..<min(start + Self.deleteChunk, all.count)])
                switch kind {
                case .project:
                    try context.delete(model: SeedModel.Project.self, where: #Predicate { chunk.contains($0.id) })
                case .category:
                    try context.delete(model: SeedModel.Category.self, where: #Predicate { chunk.contains($0.id) })
                case .tag:
                    try context.delete(model: SeedModel.Tag.self, where: #Predicate { chunk.contains($0.id) })
                case .task:
                    try context.delete(model: SeedModel.Task.self, where: #Predicate { chunk.contains($0.id) })
                case .subtask:
                    try context.delete(model: SeedModel.Subtask.self, where: #Predicate { chunk.contains($0.id) })
                }
            }
            try context.save()
        }

        /// Every object of each kind.
        /// - Throws: SwiftData's fetch error.
        public func fetchAll() throws -> (
            projects: [SeedModel.Project], categories: [SeedModel.Category],
            tags: [SeedModel.Tag], tasks: [SeedModel.Task]
        ) {
            (
                try context.fetch(FetchDescriptor<SeedModel.Project>()),
                try context.fetch(FetchDescriptor<SeedModel.Category>()),
                try context.fetch(FetchDescriptor<SeedModel.Tag>()),
                try context.fetch(FetchDescriptor<SeedModel.Task>())
            )
        }
    }
#endif
