/// The task manager's model as Core Data lays it out in SQLite: entities numbered by sorted name (Category 1, Project 2,
/// Subtask 3, Tag 4, Task 5), one `Z<ENTITY>` table each, columns grouped by type and sorted by name within a group,
/// `Z_FOK_TASK` for the ordered subtasks, `Z_4TASKS` for the tags ↔ tasks many-to-many, and Core Data's index names.
enum TaskManagerModel {
    /// The model itself: the same declarations the legacy apps' `.xcdatamodel` makes.
    static let model = ObjectModel(entities: [
        .init("Category", attributes: [.init("color", .string), .init("id", .uuid), .init("name", .string)],
              relationships: [.init("tasks", to: "Task", inverse: "category", toMany: true, deleteRule: .cascade)]),
        .init("Project", attributes: [.init("createdAt", .date, optional: true), .init("id", .uuid), .init("name", .string)],
              relationships: [.init("tasks", to: "Task", inverse: "project", toMany: true)]),
        .init("Subtask", attributes: [.init("id", .uuid), .init("isCompleted", .boolean), .init("title", .string)],
              relationships: [.init("task", to: "Task", inverse: "subtasks", toMany: false)]),
        .init("Tag", attributes: [.init("id", .uuid), .init("name", .string)],
              relationships: [.init("tasks", to: "Task", inverse: "tags", toMany: true)]),
        .init("Task", attributes: [.init("createdAt", .date), .init("dueDate", .date, optional: true), .init("id", .uuid),
                                   .init("isCompleted", .boolean), .init("notes", .string, optional: true),
                                   .init("priority", .integer16), .init("title", .string)],
              relationships: [.init("category", to: "Category", inverse: "tasks", toMany: false),
                              .init("project", to: "Project", inverse: "tasks", toMany: false),
                              .init("subtasks", to: "Subtask", inverse: "task", toMany: true, ordered: true, deleteRule: .cascade),
                              .init("tags", to: "Tag", inverse: "tasks", toMany: true)]),
    ])

    static let entities: [(number: Int64, name: String)] = [(1, "Category"), (2, "Project"), (3, "Subtask"), (4, "Tag"), (5, "Task")]

    static let schema = """
        CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLOR VARCHAR, ZNAME VARCHAR, ZID BLOB );
        CREATE TABLE ZPROJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDAT TIMESTAMP, ZNAME VARCHAR, ZID BLOB );
        CREATE TABLE ZSUBTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZTASK INTEGER, Z_FOK_TASK INTEGER, ZTITLE VARCHAR, ZID BLOB );
        CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZID BLOB );
        CREATE TABLE Z_4TASKS ( Z_4TAGS INTEGER, Z_5TASKS INTEGER, PRIMARY KEY (Z_4TAGS, Z_5TASKS) );
        CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZPRIORITY INTEGER, ZCATEGORY INTEGER, ZPROJECT INTEGER, ZCREATEDAT TIMESTAMP, ZDUEDATE TIMESTAMP, ZNOTES VARCHAR, ZTITLE VARCHAR, ZID BLOB );
        CREATE INDEX ZSUBTASK_ZTASK_INDEX ON ZSUBTASK (ZTASK);
        CREATE INDEX Z_4TASKS_Z_5TASKS_INDEX ON Z_4TASKS (Z_5TASKS, Z_4TAGS);
        CREATE INDEX ZTASK_ZCATEGORY_INDEX ON ZTASK (ZCATEGORY);
        CREATE INDEX ZTASK_ZPROJECT_INDEX ON ZTASK (ZPROJECT);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        """

    /// The `CREATE TABLE` statements; a new store's indexes are built after the bulk load, which is faster than
    /// maintaining them row by row.
    static var tableStatements: String {
        schema.split(separator: "\n").filter { !$0.contains("CREATE INDEX") }.joined(separator: "\n")
    }

    /// The `CREATE INDEX` statements.
    static var indexStatements: String {
        schema.split(separator: "\n").filter { $0.contains("CREATE INDEX") }.joined(separator: "\n")
    }
}
