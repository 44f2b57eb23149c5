import Foundation
import Testing

/// `--mapping` end to end: the file `inspect --json` writes is a mapping as it is; a mapped property the store's model
/// version lacks is a finding (so one mapping serves every version of an app's model); a misspelled entity is an error
/// with a suggestion.
@Suite("Mapping files")
struct MappingFileTests {
    /// The sample store's `inspect --json` output, edited by `edit` (nil: as it is), saved in `scratch`.
    static func inspection(
        of store: String, in scratch: Scratch,
        edit: ((inout [String: Any]) -> Void)? = nil
    ) throws -> String {
        let run = try TasksBinary.run(["inspect", "--json", store])
        #expect(run.status == 0)
        var object = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
        if let edit {
            var mapping = try #require(object["mapping"] as? [String: Any])
            edit(&mapping)
            object["mapping"] = mapping
        }
        let path = scratch.path("inspection-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Sets `kinds.KIND.MEMBER.NAME` in a mapping object.
    static func set(_ mapping: inout [String: Any], _ kind: String, _ member: String, _ name: String, _ value: Any) {
        var kinds = mapping["kinds"] as? [String: Any] ?? [:]
        var entry = kinds[kind] as? [String: Any] ?? [:]
        if member == "entity" {
            entry["entity"] = value
        } else {
            var members = entry[member] as? [String: Any] ?? [:]
            members[name] = value
            entry[member] = members
        }
        kinds[kind] = entry
        mapping["kinds"] = kinds
    }

    @Test("the file inspect --json writes is accepted by --mapping as it is, by export, import, validate and inspect")
    func inspectionAsMapping() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let saved = try Self.inspection(of: store, in: scratch)
        let detected = try TasksBinary.run(["export", "--store", store])
        let mapped = try TasksBinary.run(["export", "--store", store, "--mapping", saved])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(contentLines(mapped.stdout) == contentLines(detected.stdout))
        try Data(detected.stdout.utf8).write(to: scratch.url.appendingPathComponent("tasks.json"))
        let imported = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--mapping", saved,
            scratch.path("tasks.json"),
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let again = try TasksBinary.run([
            "validate", "--store", scratch.path("new.sqlite"), "--mode", "upsert",
            "--mapping", saved, scratch.path("tasks.json"),
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try TasksBinary.run(["inspect", store, "--mapping", saved]).status == 0)
        // Problems inside the inspection's mapping are placed under $.mapping.
        let unknownField = try Self.inspection(of: store, in: scratch) {
            Self.set(&$0, "task", "fields", "colour", "x")
        }
        let refused = try TasksBinary.run(["export", store, "--mapping", unknownField])
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("Error: \(unknownField): $.mapping.kinds.task.fields.colour: unknown field"))
    }

    @Test("a mapped property the store lacks: 64 unless marked with a ?, then a missing-property warning")
    func missingProperty() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let unmarked = try Self.inspection(of: store, in: scratch) {
            Self.set(&$0, "task", "fields", "dueDate", "deadline")
        }
        let refused = try TasksBinary.run(["export", store, "--mapping", unmarked, "-o", scratch.path("no.json")])
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains(
                "$.kinds.task.fields.dueDate: Task has no property 'deadline' (no column ZDEADLINE in ZTASK); if some "
                    + "versions of the app's model have it, end the name with '?'"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("no.json")))
        let mapping = try Self.inspection(of: store, in: scratch) {
            Self.set(&$0, "task", "fields", "dueDate", "deadline?")
        }
        let run = try TasksBinary.run(["export", store, "--mapping", mapping, "-o", scratch.path("out.json")])
        #expect(run.status == 0)
        #expect(
            run.stderr.contains(
                "warning: Task.deadline: missing-property: mapped to task.dueDate, but this "
                    + "store's "
                    + "model version has no property 'deadline' (no column ZDEADLINE in ZTASK); read as absent\n"))
        let archive = try String(contentsOfFile: scratch.path("out.json"), encoding: .utf8)
        // Read as absent, the columns are unmapped: their values travel under extra (named as the store's model
        // cache names them), nothing is lost.
        #expect(!archive.contains(",\"dueDate\":"))
        #expect(archive.contains("\"extra\":{\"dueDate\":\"2024-06-09T00:00:00Z\"}"))
        let strict = try TasksBinary.run([
            "export", store, "--mapping", mapping, "--strict",
            "-o", scratch.path("strict.json"),
        ])
        #expect(strict.status == 65)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("strict.json")))
        // Importing through the same mapping: the target lacks them too, and says the values are not imported.
        let imported = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--mapping", mapping,
            TasksBinary.sample("TaskManager.v2.json"),
        ])
        #expect(imported.status == 0)
        #expect(
            imported.stderr.contains(
                "warning: Task.deadline: mapped to task.dueDate, but the target's model "
                    + "version "
                    + "has no property 'deadline' (no column ZDEADLINE in ZTASK); the archive's values for it are not "
                    + "imported\n"))
    }

    @Test("a mapped property one typo away from one the entity has is a misspelling: 64 before any work, named")
    func misspelledProperty() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let mapping = try Self.inspection(of: store, in: scratch) { Self.set(&$0, "task", "fields", "notes", "note") }
        let expected =
            "Error: \(mapping): $.kinds.task.fields.notes: Task has no property 'note' (no column ZNOTE in ZTASK); "
            + "did you mean 'notes'?\n"
        let export = try TasksBinary.run(["export", store, "--mapping", mapping, "-o", scratch.path("out.json")])
        #expect(export.status == 64)
        #expect(export.stderr.hasPrefix(expected))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.json")))
        let target = scratch.path("new.sqlite")
        let imported = try TasksBinary.run([
            "import", "--store", target, "--mapping", mapping, TasksBinary.sample("TaskManager.v2.json"),
        ])
        #expect(imported.status == 64)
        #expect(imported.stderr.hasPrefix(expected))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("an entity no store has stays an error, with the closest entity suggested")
    func unknownEntity() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let mapping = try Self.inspection(of: store, in: scratch) { Self.set(&$0, "task", "entity", "", "Tsk") }
        let run = try TasksBinary.run(["export", store, "--mapping", mapping])
        #expect(run.status == 65 && run.stdout.isEmpty)
        #expect(
            run.stderr == "Error: \(mapping): $.kinds.task.entity: no entity 'Tsk' in the store (it has: Category, "
                + "Project, Subtask, Tag, Task); did you mean 'Task'?\n")
    }

    @Test(
        "samples/easylife-mapping.json serves both EasyLife versions: 1.3.0 (no TodoItem.project) with a warning",
        .enabled(
            if: ModelCommandTests.sharedAvailable,
            "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared)"
        ))
    func easyLifeVersions() throws {
        let scratch = try Scratch()
        let mapping = TasksBinary.sample("easylife-mapping.json")
        let old = try ModelCommandTests.copyStore("EasyLife/EasyLife 1.3.0.sqlite", to: scratch)
        let current = try ModelCommandTests.copyStore("EasyLife/EasyLife 1.5.0.sqlite", to: scratch)
        let oldRun = try TasksBinary.run(["export", old, "--mapping", mapping, "-o", scratch.path("old.json")])
        #expect(oldRun.status == 0, "\(oldRun.stderr)")
        #expect(
            oldRun.stderr.hasPrefix(
                "warning: TodoItem.project: missing-property: mapped to task.project, but this "
                    + "store's model version has no to-one relationship 'project' (no column ZPROJECT in ZTODOITEM); read as "
                    + "absent\n"))
        #expect(try TasksBinary.run(["export", old, "--mapping", mapping, "--strict"]).status == 65)
        let currentRun = try TasksBinary.run([
            "export", current, "--mapping", mapping,
            "-o", scratch.path("current.json"),
        ])
        #expect(currentRun.status == 0)
        #expect(!currentRun.stderr.contains("missing-property"))
        #expect(currentRun.stderr.contains("6 tasks"))
    }

    @Test("the committed EasyLife sample store exports through the sample mapping: samples/easylife.json's records")
    func easyLifeSample() throws {
        let scratch = try Scratch()
        let store = scratch.path("EasyLife.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("EasyLife.sqlite"), toPath: store)
        let run = try TasksBinary.run(["export", store, "--mapping", TasksBinary.sample("easylife-mapping.json")])
        #expect(run.status == 0)
        #expect(
            run.stderr.contains(
                "\nExported 2 projects, 0 categories, 0 tags, 4 tasks, 0 subtasks from \(store) "
                    + "(format 2) in "))
        let archive = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
        let titles = (archive["tasks"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles.sorted() == ["call the plumber", "fix the gate", "plant tomatoes", "repaint the hallway"])
        let projects = (archive["projects"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(projects.sorted() == ["Garden", "Home"])
        #expect(run.stdout.contains("\"dueDate\":\"2024-06-01T09:30:00.25Z\""))
    }
}
