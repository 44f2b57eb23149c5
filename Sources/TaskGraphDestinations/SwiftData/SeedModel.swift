#if canImport(SwiftData)
    import Foundation
    import SwiftData

    /// The seed app's model in SwiftData: Project, Category, Tag, Task with ordered Subtasks, as
    /// `tasks model swiftdata` writes it from the Core Data model, with the `position` attribute SwiftData needs to
    /// keep subtasks in order. An app with its own `@Model` classes conforms them to the `TaskGraph…` protocols
    /// instead and writes a context like `SeedModelContext`.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    public enum SeedModel {
        /// Every model type, for a `Schema` or a `ModelContainer`.
        public static let types: [any PersistentModel.Type] = [
            Project.self, Category.self, Tag.self, Task.self, Subtask.self,
        ]

        /// A project.
        @Model public final class Project: TaskGraphProject {
            /// The interchange id.
            @Attribute(.unique) public var id: UUID
            /// The name.
            public var name: String
            /// When it was created, if known.
            public var createdAt: Date?
            /// Its tasks.
            @Relationship(deleteRule: .nullify, inverse: \SeedModel.Task.project) public var tasks: [SeedModel.Task] =
                []

            /// An empty project; the adapter sets its properties.
            public init() {
                id = UUID()
                name = ""
            }
        }

        /// A category.
        @Model public final class Category: TaskGraphCategory {
            /// The interchange id.
            @Attribute(.unique) public var id: UUID
            /// The name.
            public var name: String
            /// The color's name.
            public var color: String = "blue"
            /// Its tasks.
            @Relationship(deleteRule: .nullify, inverse: \SeedModel.Task.category) public var tasks: [SeedModel.Task] =
                []

            /// An empty category; the adapter sets its properties.
            public init() {
                id = UUID()
                name = ""
            }
        }

        /// A tag.
        @Model public final class Tag: TaskGraphTag {
            /// The interchange id.
            @Attribute(.unique) public var id: UUID
            /// The name.
            public var name: String
            /// The tasks that carry it.
            @Relationship(deleteRule: .nullify, inverse: \SeedModel.Task.tags) public var tasks: [SeedModel.Task] = []

            /// An empty tag; the adapter sets its properties.
            public init() {
                id = UUID()
                name = ""
            }
        }

        /// A task.
        @Model public final class Task: TaskGraphTask {
            /// The interchange id.
            @Attribute(.unique) public var id: UUID
            /// The title.
            public var title: String
            /// Free text, if any.
            public var notes: String?
            /// Done or not.
            public var isCompleted: Bool = false
            /// When it was created.
            public var createdAt: Date
            /// When it is due, if ever.
            public var dueDate: Date?
            /// 0 low, 1 medium, 2 high, 3 urgent.
            public var priority: Int = 0
            /// Its project, if any.
            public var project: SeedModel.Project?
            /// Its category, if any.
            public var category: SeedModel.Category?
            /// Its tags.
            public var tags: [SeedModel.Tag] = []
            /// Its subtasks; sort by `position` for their order.
            @Relationship(deleteRule: .cascade, inverse: \SeedModel.Subtask.task)
            public var subtasks: [SeedModel.Subtask] = []

            /// An empty task; the adapter sets its properties.
            public init() {
                id = UUID()
                title = ""
                createdAt = Date(timeIntervalSinceReferenceDate: 0)
            }
        }

        /// A subtask.
        @Model public final class Subtask: TaskGraphSubtask {
            /// The interchange id.
            @Attribute(.unique) public var id: UUID
            /// The title.
            public var title: String
            /// Done or not.
            public var isCompleted: Bool = false
            /// Its place among its task's subtasks, from 0.
            public var position: Int = 0
            /// Its task.
            public var task: SeedModel.Task?

            /// An empty subtask; the adapter sets its properties.
            public init() {
                id = UUID()
                title = ""
            }
        }
    }
#endif
