import Foundation
import Testing
@testable import TaskInterchange

/// `export --kinds/--entities/--exclude-entities/--project/--completed/--open/--since`: what each keeps, checked
/// against SQL on the same store, and every filtered archive accepted by `validate` (the closed-graph rule).
@Suite("Export selection")
struct ExportSelectionTests {
    /// Exports the sample store with `flags`, checks `validate` accepts the file, and returns the archive's JSON.
    private func export(
        _ flags: [String], _ scratch: Scratch, name: String = "out.json",
        status: Int32 = 0
    ) throws -> (archive: [String: Any], stderr: String) {
        let store = scratch.path("TaskManager.sqlite")
        let run = try TasksBinary.run(["export", "--store", store, "-o", scratch.path(name)] + flags)
        #expect(run.status == status, "\(flags): \(run.stderr)")
        let validate = try TasksBinary.run(["validate", scratch.path(name)])
        #expect(validate.status == 0, "\(flags): \(validate.stderr)")
        let object = try JSONSerialization.jsonObject(with: try scratch.bytes(name)) as? [String: Any] ?? [:]
        return (object, run.stderr)
    }

    private func records(_ archive: [String: Any], _ section: String) -> [[String: Any]] {
        archive[section] as? [[String: Any]] ?? []
    }

    private func ids(_ archive: [String: Any], _ section: String) -> Set<String> {
        Set(records(archive, section).compactMap { $0["id"] as? String })
    }

    private func count(_ store: String, _ sql: String) throws -> Int {
        Int(try Database(path: store, mode: .readOnly(immutable: false)).scalar(sql)?.int64 ?? -1)
    }

    /// Every id a task refers to is a record of the archive (what `validate` checks, asserted here directly too).
    private func expectClosed(_ archive: [String: Any]) {
        let projects = ids(archive, "projects"), categories = ids(archive, "categories"), tags = ids(archive, "tags")
        for task in records(archive, "tasks") {
            if let project = task["projectId"] as? String { #expect(projects.contains(project)) }
            if let category = task["categoryId"] as? String { #expect(categories.contains(category)) }
            for tag in task["tagIds"] as? [String] ?? [] { #expect(tags.contains(tag)) }
        }
    }

    @Test("--completed and --open split the tasks as SQL does; referred records come along, others stay out")
    func completion() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let completed = try count(store, "SELECT count(*) FROM ZTASK WHERE ZISCOMPLETED <> 0")
        let open = try count(store, "SELECT count(*) FROM ZTASK WHERE ifnull(ZISCOMPLETED, 0) = 0")
        let done = try export(["--completed"], scratch)
        #expect(records(done.archive, "tasks").count == completed)
        #expect(records(done.archive, "tasks").allSatisfy { $0["isCompleted"] as? Bool == true })
        expectClosed(done.archive)
        // Only the tags the completed tasks use, not every tag.
        let usedTags = Set(records(done.archive, "tasks").flatMap { $0["tagIds"] as? [String] ?? [] })
        #expect(ids(done.archive, "tags") == usedTags)
        #expect(done.stderr.contains("brought-along"))
        let pending = try export(["--open"], scratch, name: "open.json")
        #expect(records(pending.archive, "tasks").count == open)
        #expect(records(pending.archive, "tasks").allSatisfy { $0["isCompleted"] as? Bool == false })
        #expect(completed + open == 44 && completed > 0 && open > 0)
        // Subtasks travel with their task, all of them.
        let subtasks = records(done.archive, "tasks").reduce(0) { $0 + (($1["subtasks"] as? [Any])?.count ?? 0) }
        let expected = try count(
            store, "SELECT count(*) FROM ZSUBTASK WHERE ZTASK IN (SELECT Z_PK FROM ZTASK WHERE ZISCOMPLETED <> 0)")
        #expect(subtasks == expected)
    }

    @Test("--project by name and by id keeps that project's tasks and the project, even with none of its tasks")
    func project() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        let name = try database.scalar("SELECT ZNAME FROM ZPROJECT ORDER BY Z_PK LIMIT 1")?.string ?? ""
        let key = try database.scalar("SELECT Z_PK FROM ZPROJECT ORDER BY Z_PK LIMIT 1")?.int64 ?? 0
        let tasks = try count(store, "SELECT count(*) FROM ZTASK WHERE ZPROJECT = \(key)")
        let byName = try export(["--project", name], scratch)
        #expect(records(byName.archive, "tasks").count == tasks)
        let projectIds = ids(byName.archive, "projects")
        #expect(records(byName.archive, "projects").contains { $0["name"] as? String == name })
        #expect(projectIds.count == 1)
        #expect(records(byName.archive, "tasks").allSatisfy { projectIds.contains($0["projectId"] as? String ?? "") })
        expectClosed(byName.archive)
        let byId = try export(["--project", projectIds.first!], scratch, name: "id.json")
        #expect(ids(byId.archive, "tasks") == ids(byName.archive, "tasks"))
        let absent = try TasksBinary.run(["export", "--store", store, "--project", "No such project"])
        #expect(absent.status == 64)
        #expect(absent.stderr.contains("--project: no project has the id or name 'No such project'"))
        #expect(absent.stdout.isEmpty)
    }

    @Test("a project name used twice is refused with both keys")
    func ambiguousProject() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        try Database(path: store, mode: .readWrite).execute(
            "UPDATE ZPROJECT SET ZNAME = 'Twice' WHERE Z_PK IN (SELECT Z_PK FROM ZPROJECT ORDER BY Z_PK LIMIT 2)")
        let run = try TasksBinary.run(["export", "--store", store, "--project", "Twice"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("2 projects are named 'Twice'"))
    }

    @Test("--since keeps tasks created (or modified) at or after the instant; a date alone is midnight UTC")
    func since() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        let median =
            try database.scalar("SELECT ZCREATEDAT FROM ZTASK ORDER BY ZCREATEDAT LIMIT 1 OFFSET 20")?.double ?? 0
        let instant = Date(timeIntervalSinceReferenceDate: median)
        let text = try LosslessDate.string(from: instant)
        let expected = try count(store, "SELECT count(*) FROM ZTASK WHERE ZCREATEDAT >= \(median)")
        let result = try export(["--since", text], scratch)
        #expect(records(result.archive, "tasks").count == expected)
        #expect(expected > 0 && expected < 44)
        let day = String(text.prefix(10))
        let midnight = try LosslessDate.date(from: day + "T00:00:00Z").timeIntervalSinceReferenceDate
        let dayCount = try count(store, "SELECT count(*) FROM ZTASK WHERE ZCREATEDAT >= \(midnight)")
        #expect(records(try export(["--since", day], scratch, name: "day.json").archive, "tasks").count == dayCount)
        let bad = try TasksBinary.run(["export", "--store", store, "--since", "yesterday"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--since: 'yesterday' is not a date"))
    }

    @Test("--entities Subtask (read as a task kind) keeps every subtask, each with its task (brought along)")
    func subtaskEntity() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let (archive, stderr) = try export(["--entities", "Subtask"], scratch)
        #expect(!stderr.contains("empty-selection"))
        let tasks = records(archive, "tasks")
        #expect(tasks.count == (try count(store, "SELECT count(DISTINCT ZTASK) FROM ZSUBTASK")))
        let subtasks = tasks.reduce(0) { $0 + ($1["subtasks"] as? [Any] ?? []).count }
        #expect(subtasks == (try count(store, "SELECT count(*) FROM ZSUBTASK")) && subtasks > 0)
        #expect(stderr.contains("note: Task: brought-along: "))
        expectClosed(archive)
    }

    @Test("--kinds and --entities choose sections; what kept records refer to comes along")
    func kindsAndEntities() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let tagsOnly = try export(["--kinds", "tag"], scratch)
        #expect(records(tagsOnly.archive, "tags").count == (try count(store, "SELECT count(*) FROM ZTAG")))
        #expect(records(tagsOnly.archive, "tasks").isEmpty && records(tagsOnly.archive, "projects").isEmpty)
        let projects = try export(["--entities", "Project,Category"], scratch, name: "pc.json")
        #expect(records(projects.archive, "projects").count == 5 && records(projects.archive, "categories").count == 4)
        #expect(records(projects.archive, "tasks").isEmpty && records(projects.archive, "tags").isEmpty)
        let tasks = try export(["--kinds", "task"], scratch, name: "t.json")
        #expect(records(tasks.archive, "tasks").count == 44)
        expectClosed(tasks.archive)
        let unknown = try TasksBinary.run(["export", "--store", store, "--entities", "task"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--entities: the store has no entity 'task' (did you mean 'Task'?)"))
        let badKind = try TasksBinary.run(["export", "--store", store, "--kinds", "tasks"])
        #expect(badKind.status == 64)
        let both = try TasksBinary.run(["export", "--store", store, "--completed", "--open"])
        #expect(both.status == 64)
        let noTasks = try TasksBinary.run(["export", "--store", store, "--kinds", "tag", "--completed"])
        #expect(noTasks.status == 64)
        #expect(noTasks.stderr.contains("the selection holds no tasks"))
    }

    @Test("--exclude-entities drops references to the excluded entity with a warning; --strict refuses")
    func exclusion() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let links = try count(store, "SELECT count(*) FROM Z_4TASKS")
        let result = try export(["--exclude-entities", "Tag"], scratch)
        #expect(records(result.archive, "tags").isEmpty)
        #expect(records(result.archive, "tasks").count == 44)
        #expect(records(result.archive, "tasks").allSatisfy { ($0["tagIds"] as? [Any])?.isEmpty ?? true })
        #expect(result.stderr.contains("excluded-reference"))
        #expect(result.stderr.contains("[\(links)]"))
        let strict = try TasksBinary.run([
            "export", "--store", store, "--exclude-entities", "Tag", "--strict",
            "-o", scratch.path("strict.json"),
        ])
        #expect(strict.status == 65)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("strict.json")))
        let noSubtasks = try export(["--exclude-entities", "Subtask"], scratch, name: "ns.json")
        #expect(records(noSubtasks.archive, "tasks").allSatisfy { ($0["subtasks"] as? [Any])?.isEmpty ?? true })
        #expect(noSubtasks.stderr.contains("Subtask: excluded-reference"))
    }

    @Test("an unfiltered export is byte-identical to one without selection flags")
    func everything() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let plain = try TasksBinary.run(["export", "--store", store])
        let listed = try TasksBinary.run(["export", "--store", store, "--kinds", "project,category,tag,task"])
        let body = { (text: String) in text.split(separator: "\n").filter { !$0.contains("exportDate") } }
        #expect(plain.status == 0 && listed.status == 0)
        #expect(body(plain.stdout) == body(listed.stdout))
        #expect(!listed.stderr.contains("brought-along"))
    }

    @Test(
        "relationships carried under extra pull their destinations in too (EasyLife's blocking links)",
        .enabled(
            if: SharedFixtures.exists("models/EasyLife/EasyLife 1.5.0.sqlite"),
            "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
        )
    )
    func carriedRelationships() throws {
        let scratch = try Scratch()
        // A private copy: the shared fixture is never opened in place.
        let store = try SharedFixtures.copy(
            "models/EasyLife/EasyLife 1.5.0.sqlite", into: scratch, as: "EasyLife.sqlite")
        let database = try Database(path: store, mode: .readWrite)
        try database.execute("UPDATE ZTODOITEM SET ZDONE = (Z_PK <= 3)")
        try database.execute("INSERT INTO Z_2BLOCKING VALUES (1, 4), (4, 1)")
        let run = try TasksBinary.run(["export", "--store", store, "--open", "-o", scratch.path("open.json")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "TodoItem: brought-along: outside the selection; exported because kept records refer to them"))
        #expect(try TasksBinary.run(["validate", scratch.path("open.json")]).status == 0)
        let archive = try JSONSerialization.jsonObject(with: try scratch.bytes("open.json")) as? [String: Any] ?? [:]
        let tasks = records(archive, "tasks")
        // The open tasks 4, 5, 6 and the completed task 1 that task 4 is linked with; not 2 and 3.
        #expect(tasks.count == 4)
        #expect(tasks.filter { $0["isCompleted"] as? Bool == true }.count == 1)
    }

    @Test("a filtered archive records its selection; --mode replace refuses it (also in a dry run), upsert takes it")
    func replaceRefused() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let result = try export(["--completed", "--kinds", "task,tag"], scratch)
        let source = result.archive["source"] as? [String: Any]
        let selection = source?["selection"] as? [String: Any]
        #expect(
            selection?["kinds"] as? [String] == ["tag", "task"] && selection?["completion"] as? String == "completed")
        #expect(selection?.count == 2)
        let whole = try export([], scratch, name: "whole.json")
        #expect((whole.archive["source"] as? [String: Any])?["selection"] == nil)
        let before = try scratch.bytes("TaskManager.sqlite")
        for dryRun in [[], ["--dry-run"]] {
            let run = try TasksBinary.run(
                ["import", "--store", store, "--mode", "replace", scratch.path("out.json")] + dryRun)
            #expect(run.status == 64)
            #expect(
                run.stderr.contains("the archive holds part of a store (exported with --kinds tag,task --completed)"))
        }
        // An archive written before the selection was structured holds the options as a string: read the same.
        var older = result.archive
        var olderSource = try #require(older["source"] as? [String: Any])
        olderSource["selection"] = "--kinds tag,task --completed"
        older["source"] = olderSource
        try JSONSerialization.data(withJSONObject: older).write(to: URL(fileURLWithPath: scratch.path("older.json")))
        #expect(try TasksBinary.run(["validate", scratch.path("older.json")]).status == 0)
        let refused = try TasksBinary.run(["import", "--store", store, "--mode", "replace", scratch.path("older.json")])
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains("the archive holds part of a store (exported with --kinds tag,task --completed)"))
        #expect(try scratch.bytes("TaskManager.sqlite") == before)
        let upsert = try TasksBinary.run(["import", "--store", store, "--mode", "upsert", scratch.path("out.json")])
        #expect(upsert.status == 0, "\(upsert.stderr)")
    }

    @Test(
        "--since also keeps tasks whose mapped modification date is recent; --project with its entity excluded is refused"
    )
    func sinceModified() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let recent = try LosslessDate.date(from: "2026-05-09T00:00:00Z").timeIntervalSinceReferenceDate
        // Without the model cache, which does not know the new column: the store is read by its columns.
        try Database(path: store, mode: .readWrite).execute(
            "ALTER TABLE ZTASK ADD COLUMN ZDATEMODIFIED TIMESTAMP; UPDATE ZTASK SET ZDATEMODIFIED = \(recent) WHERE Z_PK <= 3; "
                + "DELETE FROM Z_MODELCACHE"
        )
        let result = try export(["--since", "2026-01-01"], scratch)
        #expect(records(result.archive, "tasks").count == 3)
        #expect(records(result.archive, "tasks").allSatisfy { $0["modifiedAt"] as? String == "2026-05-09T00:00:00Z" })
        let refused = try TasksBinary.run([
            "export", "--store", store, "--exclude-entities", "Project",
            "--project", "Archive 1999",
        ])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--project keeps a project that --exclude-entities excludes"))
    }

    @Test(
        "empty lists are usage errors; a selection matching nothing says so; format 1 warns that it drops the selection"
    )
    func emptyAndFormatOne() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        for flags in [["--kinds="], ["--entities", " , "], ["--exclude-entities", ""]] {
            let run = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("x.json")] + flags)
            #expect(run.status == 64, "\(flags)")
            #expect(
                run.stderr.contains(flags[0].hasPrefix("--kinds") ? "--kinds: the list is empty" : "is invalid for"))
            #expect(!FileManager.default.fileExists(atPath: scratch.path("x.json")))
        }
        let nothing = try export(["--since", "2099-01-01"], scratch, name: "none.json")
        #expect(records(nothing.archive, "tasks").isEmpty)
        #expect(
            nothing.stderr.contains(
                "note: store: empty-selection: the selection (--since 2099-01-01T00:00:00Z) "
                    + "matches no record"))
        // Format 1 has no source.selection: a warning says what that means, and --strict refuses the export.
        let v1 = try TasksBinary.run([
            "export", "--store", store, "--format-version", "1", "--completed",
            "-o", scratch.path("v1.json"),
        ])
        #expect(v1.status == 0, "\(v1.stderr)")
        #expect(v1.stderr.contains("dropped-by-format: format version 1 has no place for the selection (--completed)"))
        let strict = try TasksBinary.run([
            "export", "--store", store, "--format-version", "1", "--completed",
            "--strict", "-o", scratch.path("strict.json"),
        ])
        #expect(strict.status == 65)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("strict.json")))
    }
}
