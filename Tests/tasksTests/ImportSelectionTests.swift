import Foundation
import Testing
@testable import TaskInterchange

/// `import --kinds/--entities`: part of an archive into a target that lacks the rest; references to what is not
/// loaded link to the target's records with those ids, or are dropped and counted.
@Suite("Import selection")
struct ImportSelectionTests {
    /// The sample store exported, and how many references of each kind its tasks make.
    private struct Archive {
        let path: String
        let projectRefs: Int
        let categoryRefs: Int
        let tagRefs: Int

        init(_ scratch: Scratch) throws {
            let store = try scratch.sampleStore()
            path = scratch.path("all.json")
            #expect(try TasksBinary.run(["export", "--store", store, "-o", path]).status == 0)
            let object = try JSONSerialization.jsonObject(with: try scratch.bytes("all.json")) as? [String: Any] ?? [:]
            let tasks = object["tasks"] as? [[String: Any]] ?? []
            projectRefs = tasks.filter { $0["projectId"] is String }.count
            categoryRefs = tasks.filter { $0["categoryId"] is String }.count
            tagRefs = tasks.reduce(0) { $0 + (($1["tagIds"] as? [Any])?.count ?? 0) }
        }
    }

    private func count(_ store: String, _ sql: String) throws -> Int {
        Int(try Database(path: store, mode: .readOnly(immutable: false)).scalar(sql)?.int64 ?? -1)
    }

    @Test("--kinds task into a new store: tasks and subtasks only, every reference dropped and counted")
    func tasksOnly() throws {
        let scratch = try Scratch()
        let archive = try Archive(scratch)
        let store = scratch.path("new.sqlite")
        let run = try TasksBinary.run(["import", "--store", store, "--kinds", "task", archive.path])
        #expect(run.status == 0, "\(run.stderr)")
        let dropped = archive.projectRefs + archive.categoryRefs + archive.tagRefs
        #expect(
            run.stderr.contains(
                "warning: \(dropped) references to records this import did not load and the target does not have were dropped"
            ))
        #expect(run.stderr.contains("  project: 0 inserted, 5 not loaded"))
        // The headline says what happened, not what the archive holds.
        #expect(run.stderr.contains("Imported into \(store) (new store) in "))
        #expect(
            run.stderr.contains(
                " s: 128 inserted, 19 not loaded (the archive holds 5 projects, 4 categories, "
                    + "10 tags, 44 tasks, 84 subtasks)"))
        #expect(try count(store, "SELECT count(*) FROM ZTASK") == 44)
        #expect(try count(store, "SELECT count(*) FROM ZSUBTASK") == 84)
        #expect(try count(store, "SELECT count(*) FROM ZPROJECT") == 0)
        #expect(try count(store, "SELECT count(ZPROJECT) + count(ZCATEGORY) FROM ZTASK") == 0)
    }

    @Test(
        "two partial imports: tasks link to the projects and tags loaded before; categories are dropped; the dry run says the same"
    )
    func inSteps() throws {
        let scratch = try Scratch()
        let archive = try Archive(scratch)
        let store = scratch.path("new.sqlite")
        #expect(try TasksBinary.run(["import", "--store", store, "--kinds", "project,tag", archive.path]).status == 0)
        #expect(try count(store, "SELECT count(*) FROM ZTASK") == 0)
        let warning =
            "warning: \(archive.categoryRefs) references to records this import did not load and the target does not have were dropped"
        let dryRun = try TasksBinary.run(["import", "--store", store, "--kinds", "task", "--dry-run", archive.path])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stderr.contains(warning))
        #expect(dryRun.stdout.contains("  task: 44 inserted"))
        let run = try TasksBinary.run(["import", "--store", store, "--kinds", "task", archive.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains(warning))
        #expect(try count(store, "SELECT count(ZPROJECT) FROM ZTASK") == archive.projectRefs)
        #expect(try count(store, "SELECT count(ZCATEGORY) FROM ZTASK") == 0)
        #expect(try count(store, "SELECT count(*) FROM Z_4TASKS") == archive.tagRefs)
        // Loading the categories later and the tasks again (upsert) restores the whole graph.
        #expect(try TasksBinary.run(["import", "--store", store, "--kinds", "category", archive.path]).status == 0)
        let upsert = try TasksBinary.run(["import", "--store", store, "--mode", "upsert", archive.path])
        #expect(upsert.status == 0, "\(upsert.stderr)")
        let verify = try TasksBinary.run(["verify", "--store", store, archive.path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("a target without a Category entity takes the rest with --entities; without it the import fails as before")
    func targetLacksEntity() throws {
        let scratch = try Scratch()
        let archive = try Archive(scratch)
        let lacking = scratch.path("lacking.sqlite")
        #expect(try TasksBinary.run(["import", "--store", lacking, TasksBinary.sample("v2-example.json")]).status == 0)
        try Database(path: lacking, mode: .readWrite).execute(
            "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Category'; DROP TABLE ZCATEGORY")
        let refused = try TasksBinary.run(["import", "--store", lacking, archive.path])
        #expect(refused.status == 65)
        let run = try TasksBinary.run(["import", "--store", lacking, "--entities", "Project,Tag,Task", archive.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("  category: 0 inserted, 4 not loaded"))
        #expect(try count(lacking, "SELECT count(*) FROM ZTASK") >= 44)
    }

    @Test("usage errors: an entity the archive does not read, --mode replace, --verify")
    func usage() throws {
        let scratch = try Scratch()
        let archive = try Archive(scratch)
        let store = scratch.path("new.sqlite")
        let unknown = try TasksBinary.run(["import", "--store", store, "--entities", "Note", archive.path])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--entities: the archive has no records of an entity 'Note'"))
        #expect(!FileManager.default.fileExists(atPath: store))
        // A near miss gets a suggestion, also into an existing store whose ids the archive repeats (the usage error
        // comes first, not a validation report).
        let existing = scratch.path("TaskManager.sqlite")
        let near = try TasksBinary.run(["import", "--store", existing, "--entities", "Taskk", archive.path])
        #expect(near.status == 64, "\(near.stderr)")
        #expect(
            near.stderr.contains(
                "--entities: the archive has no records of an entity 'Taskk' (did you mean 'Task'? "
                    + "it holds Category, Project, Subtask, Tag, Task)"))
        let replace = try TasksBinary.run([
            "import", "--store", store, "--kinds", "task", "--mode", "replace", archive.path,
        ])
        #expect(replace.status == 64)
        let verify = try TasksBinary.run(["import", "--store", store, "--kinds", "task", "--verify", archive.path])
        #expect(verify.status == 64)
        let kind = try TasksBinary.run(["import", "--store", store, "--kinds", "note", archive.path])
        #expect(kind.status == 64)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == ["TaskManager.sqlite", "TaskManager.sqlite-shm", "TaskManager.sqlite-wal", "all.json"])
    }
}
