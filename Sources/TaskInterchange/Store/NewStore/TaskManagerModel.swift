/// The task manager's model, which new stores get when no template is given. Core Data lays it out (and
/// `SchemaLayout` with it) with entities numbered by sorted name (Category 1, Project 2, Subtask 3, Tag 4, Task 5),
/// one `Z<ENTITY>` table each, `Z_FOK_TASK` for the ordered subtasks, `Z_4TASKS` for the tags ↔ tasks many-to-many.
enum TaskManagerModel {
    /// The model itself: the same declarations the legacy apps' `.xcdatamodel` makes.
    static let model = ObjectModel(entities: [
        .init(
            "Category", attributes: [.init("color", .string), .init("id", .uuid), .init("name", .string)],
            relationships: [.init("tasks", to: "Task", inverse: "category", toMany: true, deleteRule: .cascade)]),
        .init(
            "Project",
            attributes: [.init("createdAt", .date, optional: true), .init("id", .uuid), .init("name", .string)],
            relationships: [.init("tasks", to: "Task", inverse: "project", toMany: true)]),
        .init(
            "Subtask", attributes: [.init("id", .uuid), .init("isCompleted", .boolean), .init("title", .string)],
            relationships: [.init("task", to: "Task", inverse: "subtasks", toMany: false)]),
        .init(
            "Tag", attributes: [.init("id", .uuid), .init("name", .string)],
            relationships: [.init("tasks", to: "Task", inverse: "tags", toMany: true)]),
        .init(
            "Task",
            attributes: [
                .init("createdAt", .date), .init("dueDate", .date, optional: true), .init("id", .uuid),
                .init("isCompleted", .boolean), .init("notes", .string, optional: true),
                .init("priority", .integer16), .init("title", .string),
            ],
            relationships: [
                .init("category", to: "Category", inverse: "tasks", toMany: false),
                .init("project", to: "Project", inverse: "tasks", toMany: false),
                .init("subtasks", to: "Subtask", inverse: "task", toMany: true, ordered: true, deleteRule: .cascade),
                .init("tags", to: "Tag", inverse: "tasks", toMany: true),
            ]),
    ])

    /// New stores of the built-in model: the layout Core Data gives it (`SchemaLayout`, the DDL the samples were made
    /// with) and its metadata, with the version hashes an app with this model checks.
    static let template = StoreTemplate(model: model)
}
