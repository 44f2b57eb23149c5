// The Foundation-Codable reference for `tasks export` (bench/README.md): what the "seed" apps do. Rows are read with
// libsqlite3 into Codable structs, whole arrays are kept in memory, and JSONEncoder turns the document into one Data
// that is written to the file at the end.
//
//     codable-export STORE OUT.json
//
// Fair and fast within that style: one pass over each table, dictionaries to group tag ids and subtasks by task,
// `UUID` and `Date` values (encoded as Foundation encodes them: `uuidString`, and ISO-8601 with milliseconds through
// `Date.ISO8601FormatStyle`), records sorted by id like `tasks export`, no pretty printing.
import CSQLite
import Foundation

struct ProjectRecord: Codable {
    var id: UUID
    var name: String
    var createdAt: Date?
}

struct CategoryRecord: Codable {
    var id: UUID
    var name: String
    var color: String
}

struct TagRecord: Codable {
    var id: UUID
    var name: String
}

struct SubtaskRecord: Codable {
    var id: UUID
    var title: String
    var isCompleted: Bool
}

struct TaskRecord: Codable {
    var id: UUID
    var title: String
    var notes: String?
    var isCompleted: Bool
    var createdAt: Date
    var dueDate: Date?
    var priority: Int
    var projectId: UUID?
    var categoryId: UUID?
    var tagIds: [UUID]
    var subtasks: [SubtaskRecord]
}

struct Generator: Codable {
    var name: String
    var version: String
}

struct Source: Codable {
    var store: String
    var entities: [String: String]
}

struct Counts: Codable {
    var projects: Int
    var categories: Int
    var tags: Int
    var tasks: Int
    var subtasks: Int
}

struct Document: Codable {
    var format = "tasks-interchange"
    var version = 2
    var exportDate: Date
    var generator: Generator
    var source: Source
    var projects: [ProjectRecord]
    var categories: [CategoryRecord]
    var tags: [TagRecord]
    var tasks: [TaskRecord]
    var counts: Counts
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

/// A minimal row reader over libsqlite3.
final class Store {
    let handle: OpaquePointer

    init(path: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
            throw Failure(description: "\(path): cannot open")
        }
        handle = db
    }

    deinit { sqlite3_close(handle) }

    func rows(_ sql: String, _ body: (OpaquePointer) throws -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw Failure(description: String(cString: sqlite3_errmsg(handle))) }
            try body(statement)
        }
    }
}

func int(_ row: OpaquePointer, _ column: Int32) -> Int64 { sqlite3_column_int64(row, column) }

func optionalInt(_ row: OpaquePointer, _ column: Int32) -> Int64? {
    sqlite3_column_type(row, column) == SQLITE_NULL ? nil : sqlite3_column_int64(row, column)
}

func text(_ row: OpaquePointer, _ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(row, column) else { return nil }
    return String(cString: bytes)
}

func date(_ row: OpaquePointer, _ column: Int32) -> Date? {
    sqlite3_column_type(row, column) == SQLITE_NULL
        ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(row, column))
}

func uuid(_ row: OpaquePointer, _ column: Int32) throws -> UUID {
    guard sqlite3_column_bytes(row, column) == 16, let blob = sqlite3_column_blob(row, column) else {
        throw Failure(description: "an id that is not a 16-byte UUID blob")
    }
    let b = blob.assumingMemoryBound(to: UInt8.self)
    return UUID(
        uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
}

func export(store path: String, to output: String) throws {
    let store = try Store(path: path)

    var projects: [ProjectRecord] = []
    var projectIDs: [Int64: UUID] = [:]
    try store.rows("SELECT Z_PK, ZID, ZNAME, ZCREATEDAT FROM ZPROJECT ORDER BY ZID") { row in
        let record = ProjectRecord(id: try uuid(row, 1), name: text(row, 2) ?? "", createdAt: date(row, 3))
        projectIDs[int(row, 0)] = record.id
        projects.append(record)
    }

    var categories: [CategoryRecord] = []
    var categoryIDs: [Int64: UUID] = [:]
    try store.rows("SELECT Z_PK, ZID, ZNAME, ZCOLOR FROM ZCATEGORY ORDER BY ZID") { row in
        let record = CategoryRecord(id: try uuid(row, 1), name: text(row, 2) ?? "", color: text(row, 3) ?? "blue")
        categoryIDs[int(row, 0)] = record.id
        categories.append(record)
    }

    var tags: [TagRecord] = []
    var tagIDs: [Int64: UUID] = [:]
    try store.rows("SELECT Z_PK, ZID, ZNAME FROM ZTAG ORDER BY ZID") { row in
        let record = TagRecord(id: try uuid(row, 1), name: text(row, 2) ?? "")
        tagIDs[int(row, 0)] = record.id
        tags.append(record)
    }

    // Tag ids per task, in the tags' id order (the join is read sorted by task, then by the tag's blob id).
    var tagsOfTask: [Int64: [UUID]] = [:]
    try store.rows(
        "SELECT j.Z_5TASKS, j.Z_4TAGS FROM Z_4TASKS j JOIN ZTAG g ON g.Z_PK = j.Z_4TAGS ORDER BY j.Z_5TASKS, g.ZID"
    ) { row in
        guard let tag = tagIDs[int(row, 1)] else { return }
        tagsOfTask[int(row, 0), default: []].append(tag)
    }

    var subtasksOfTask: [Int64: [SubtaskRecord]] = [:]
    var subtaskCount = 0
    try store.rows("SELECT ZTASK, ZID, ZTITLE, ZISCOMPLETED FROM ZSUBTASK ORDER BY ZTASK, Z_FOK_TASK") { row in
        let record = SubtaskRecord(id: try uuid(row, 1), title: text(row, 2) ?? "", isCompleted: int(row, 3) != 0)
        subtasksOfTask[int(row, 0), default: []].append(record)
        subtaskCount += 1
    }

    var tasks: [TaskRecord] = []
    try store.rows(
        """
        SELECT Z_PK, ZID, ZTITLE, ZNOTES, ZISCOMPLETED, ZCREATEDAT, ZDUEDATE, ZPRIORITY, ZPROJECT, ZCATEGORY
        FROM ZTASK ORDER BY ZID
        """
    ) { row in
        let pk = int(row, 0)
        tasks.append(
            TaskRecord(
                id: try uuid(row, 1), title: text(row, 2) ?? "", notes: text(row, 3), isCompleted: int(row, 4) != 0,
                createdAt: date(row, 5) ?? Date(timeIntervalSinceReferenceDate: 0), dueDate: date(row, 6),
                priority: Int(int(row, 7)), projectId: optionalInt(row, 8).flatMap { projectIDs[$0] },
                categoryId: optionalInt(row, 9).flatMap { categoryIDs[$0] },
                tagIds: tagsOfTask[pk] ?? [], subtasks: subtasksOfTask[pk] ?? []))
    }

    let document = Document(
        exportDate: Date(), generator: Generator(name: "codable-export", version: "1"),
        source: Source(
            store: path,
            entities: [
                "project": "Project", "category": "Category", "tag": "Tag", "task": "Task", "subtask": "Subtask",
            ]),
        projects: projects, categories: categories, tags: tags, tasks: tasks,
        counts: Counts(
            projects: projects.count, categories: categories.count, tags: tags.count, tasks: tasks.count,
            subtasks: subtaskCount))

    let encoder = JSONEncoder()
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(date.formatted(style))
    }
    let data = try encoder.encode(document)
    try data.write(to: URL(fileURLWithPath: output))
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: codable-export STORE OUT.json\n".utf8))
    exit(64)
}
do {
    try export(store: arguments[1], to: arguments[2])
} catch {
    FileHandle.standardError.write(Data("codable-export: \(error)\n".utf8))
    exit(1)
}
