import Foundation
import Testing

/// `tasks migrate`: the stages printed, the exit codes, and what is left on success and on failure.
@Suite("tasks migrate")
struct MigrateCommandTests {
    @Test("success: the five stages on stderr, nothing on stdout, a verified new store and the backup in --backup")
    func success() throws {
        let scratch = try Scratch()
        let legacy = try scratch.sampleStore()
        // The backup directory is made when missing (its parent exists).
        let backups = scratch.path("backups")
        let walBefore = try scratch.bytes("TaskManager.sqlite-wal")
        let target = scratch.path("new.sqlite")
        let run = try TasksBinary.run(["migrate", "--from", legacy, "--to", target, "--backup", backups])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(5)) == [
                "migrate: preparing backup of \(legacy)", "migrate: validating",
                "migrate: migrating into \(target)", "migrate: verifying",
                "migrate: completed",
            ])
        let backup = try #require(try FileManager.default.contentsOfDirectory(atPath: backups).first)
        #expect(backup.hasPrefix("TaskManager-backup-") && backup.hasSuffix(".sqlite"))
        let counts = "5 projects, 4 categories, 10 tags, 44 tasks, 84 subtasks"
        let at = try #require(lines.firstIndex { $0.hasPrefix("Migrated ") }, "\(run.stderr)")
        #expect(lines[at].hasPrefix("Migrated \(counts) from \(legacy)"))
        #expect(lines[at].hasSuffix("backup: \(backups)/\(backup)"), "\(run.stderr)")
        #expect(lines[at + 1].hasPrefix("  typed: category ← Category, project ← Project"), "\(run.stderr)")
        #expect(Array(lines[(at + 2)...]).first == "  project: 5 inserted", "\(run.stderr)")
        let verify = try TasksBinary.run(["verify", "--store", target, TasksBinary.sample("TaskManager.v2.json")])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(try scratch.bytes("TaskManager.sqlite-wal") == walBefore, "the legacy store changed")
    }

    @Test("the new store exists: exit 73, stages preparing backup then failed, the file untouched, no backup")
    func targetExists() throws {
        let scratch = try Scratch()
        let legacy = try scratch.sampleStore()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: scratch.path("new.sqlite")))
        let run = try TasksBinary.run(["migrate", "--from", legacy, "--to", scratch.path("new.sqlite")])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("migrate: preparing backup of \(legacy)\nmigrate: failed\nError: "))
        #expect(run.stderr.contains("already exists") && run.stderr.contains("no backup was made"))
        #expect(try scratch.bytes("new.sqlite") == Data("mine".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == ["TaskManager.sqlite", "TaskManager.sqlite-shm", "TaskManager.sqlite-wal", "new.sqlite"])
    }

    @Test(
        "two migrations into one target at once: one completes, the other exits 73 saying the target exists",
        arguments: [false, true])
    func racingMigrations(withModel: Bool) throws {
        for round in 0..<3 {
            let scratch = try Scratch()
            let legacy: String
            var model: [String] = []
            if withModel {
                // An app's model: the target is made from it and keeps the legacy store's identity.
                legacy = scratch.path("Journal.sqlite")
                try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v2.sqlite"), toPath: legacy)
                model = ["--model", TasksBinary.sample("Journal.xcdatamodeld"), "--model-version", "Journal 2"]
            } else {
                legacy = try scratch.sampleStore()
            }
            let target = scratch.path("new.sqlite")
            let runs = LiveStoreTests.Results(count: 2)
            let commands = (0..<2).map {
                ["migrate", "--from", legacy, "--to", target] + model + ["--backup", scratch.path("backups-\($0)")]
            }
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                runs.set(index, try? TasksBinary.run(commands[index]))
            }
            let results = runs.all
            #expect(results.map(\.status).sorted() == [0, 73], "round \(round): \(results.map(\.stderr))")
            for loser in results where loser.status == 73 {
                #expect(loser.stderr.contains("\(target): already exists"), "\(loser.stderr)")
                #expect(!loser.stderr.contains("keep-identity"), "\(loser.stderr)")
            }
            // The winner's store is whole: it exports with every value.
            let export = try TasksBinary.run(["export", "--store", target, "--strict"] + model)
            #expect(export.status == 0, "round \(round): \(export.stderr)")
        }
    }

    @Test("a failure while validating (the mapping names no entity): exit 65, no new store, the backup removed")
    func failsValidating() throws {
        let scratch = try Scratch()
        let legacy = try scratch.sampleStore()
        let mapping = scratch.path("mapping.json")
        let json = #"{"mappingVersion":1,"kinds":{"task":{"entity":"NoSuchEntity","fields":{}}}}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: mapping))
        let target = scratch.path("new.sqlite")
        let run = try TasksBinary.run(["migrate", "--from", legacy, "--to", target, "--mapping", mapping])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("migrate: validating\nmigrate: failed\nError: "), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
                .allSatisfy { !$0.hasPrefix("TaskManager-backup-") })
        #expect(run.stderr.contains("the backup made was removed, as nothing was written"), "\(run.stderr)")
    }

    @Test("a backup directory whose parent is missing is not made: exit 73, nothing created")
    func backupParentMissing() throws {
        let scratch = try Scratch()
        let legacy = try scratch.sampleStore()
        let run = try TasksBinary.run([
            "migrate", "--from", legacy, "--to", scratch.path("new.sqlite"), "--backup", scratch.path("no/such/dir"),
        ])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("cannot create the backup directory"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("no")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
    }

    @Test("usage: --to missing is exit 64; the overview lists migrate")
    func usage() throws {
        let scratch = try Scratch()
        let run = try TasksBinary.run(["migrate", "--from", try scratch.sampleStore()])
        #expect(run.status == 64)
        #expect(run.stderr.contains("Usage: tasks migrate"), "\(run.stderr)")
        #expect(try TasksBinary.run(["--help"]).stdout.contains("  migrate "))
    }
}
