import Foundation
import Testing
import TaskInterchange

@Suite("End to end")
struct EndToEndTests {
    @Test("export reads committed rows that live only in the WAL and leaves the store's files byte-identical")
    func exportSample() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let before = try ["", "-wal", "-shm"].map { try scratch.bytes("TaskManager.sqlite" + $0) }
        let run = try TasksBinary.run(["export", "--store", store])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("{\n\"format\":\"tasks-interchange\",\n\"version\":2,\n"))
        #expect(run.stderr.contains("Exported 5 projects, 4 categories, 10 tags, 44 tasks, 84 subtasks"))
        // 4 of the 44 tasks exist only in the -wal (an immutable open that ignores it sees 40).
        let ignoringWAL = try Database(path: store, mode: .readOnly(immutable: true)).scalar(
            "SELECT count(*) FROM ZTASK")?.int64
        #expect(ignoringWAL == 40)
        let after = try ["", "-wal", "-shm"].map { try scratch.bytes("TaskManager.sqlite" + $0) }
        #expect(before == after)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == [
                "TaskManager.sqlite", "TaskManager.sqlite-shm", "TaskManager.sqlite-wal",
            ])
    }

    @Test("export → validate → import → export is identical except exportDate, source and the new store's keys")
    func roundTrip() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let validate = try TasksBinary.run(["validate", scratch.path("a.json")])
        #expect(validate.status == 0)
        #expect(validate.stderr.contains("valid (format version 2)"))
        let imported = try TasksBinary.run(["import", "--store", scratch.path("new.sqlite"), scratch.path("a.json")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            try TasksBinary.run(["export", "--store", scratch.path("new.sqlite"), "-o", scratch.path("b.json")]).status
                == 0)
        let first = String(decoding: try scratch.bytes("a.json"), as: UTF8.self)
        let second = String(decoding: try scratch.bytes("b.json"), as: UTF8.self)
        #expect(contentLinesWithoutKeys(first) == contentLinesWithoutKeys(second))
        #expect(contentLines(first).count > 60)
        #expect(first.contains(#","key":"#))
    }

    @Test("export | import --model-from --keep-identity: the restore's export is the same, keys included")
    func keepIdentity() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let restore = try TasksBinary.shell(
            "\"$TASKS\" export --store TaskManager.sqlite | \"$TASKS\" import --store restored.sqlite --model-from TaskManager.sqlite --keep-identity",
            in: scratch.url)
        #expect(restore.status == 0, "\(restore.stderr)")
        let direct = try TasksBinary.run(["export", "--store", store])
        let restored = try TasksBinary.run(["export", "--store", scratch.path("restored.sqlite")])
        #expect(contentLines(direct.stdout) == contentLines(restored.stdout))
        #expect(direct.stdout.contains(#""key":45,"#))
        // An archive without keys cannot restore identity: refused, nothing left behind.
        let keyless = try TasksBinary.run([
            "import", "--store", scratch.path("keyless.sqlite"), "--model-from", store, "--keep-identity",
            TasksBinary.sample("v2-example.json"),
        ])
        #expect(keyless.status == 65)
        #expect(keyless.stderr.contains("has no key; a restore needs every record's"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("keyless.sqlite")))
    }

    @Test("a -wal or -journal left at a new store's path is refused (73): SQLite would apply it to the new store")
    func staleSidecar() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let stale = Data("not this store's log".utf8)
        for suffix in ["-wal", "-journal"] {
            try stale.write(to: scratch.url.appendingPathComponent("new.sqlite" + suffix))
            for arguments in [
                ["import", "--store", scratch.path("new.sqlite"), scratch.path("a.json")],
                ["generate", "--tasks", "10", "-o", scratch.path("new.sqlite")],
            ] {
                let run = try TasksBinary.run(arguments)
                #expect(run.status == 73, "\(arguments): \(run.stderr)")
                #expect(run.stderr.contains("new.sqlite\(suffix): left by an earlier database at this path"))
                #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
                #expect(try scratch.bytes("new.sqlite" + suffix) == stale)
            }
            try FileManager.default.removeItem(atPath: scratch.path("new.sqlite" + suffix))
        }
    }

    @Test("shell pipes: export | import, and import from stdin")
    func pipes() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let pipe = try TasksBinary.shell(
            "\"$TASKS\" export --store TaskManager.sqlite | \"$TASKS\" import --store piped.sqlite", in: scratch.url)
        #expect(pipe.status == 0, "\(pipe.stderr)")
        #expect(
            pipe.stderr.contains(
                "Imported 5 projects, 4 categories, 10 tags, 44 tasks, 84 subtasks into piped.sqlite (new store)"))
        let direct = try TasksBinary.run(["export", "--store", store])
        let piped = try TasksBinary.run(["export", "--store", scratch.path("piped.sqlite")])
        #expect(contentLinesWithoutKeys(direct.stdout) == contentLinesWithoutKeys(piped.stdout))
        // NDJSON through a pipe is detected by itself.
        let ndjson = try TasksBinary.shell(
            "\"$TASKS\" export --store TaskManager.sqlite --ndjson | \"$TASKS\" validate -", in: scratch.url)
        #expect(ndjson.status == 0, "\(ndjson.stderr)")
    }

    @Test("a version 1 file imports and exports as version 2 with the same records")
    func versionOneIn() throws {
        let scratch = try Scratch()
        let imported = try TasksBinary.run([
            "import", "--store", scratch.path("v1.sqlite"), TasksBinary.sample("v1-export.json"),
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let export = try TasksBinary.run(["export", "--store", scratch.path("v1.sqlite")])
        let original =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: TasksBinary.sample("v1-export.json")))) as! [String: Any]
        let upgraded = try JSONSerialization.jsonObject(with: export.stdoutData) as! [String: Any]
        #expect(upgraded["version"] as? Int == 2)
        let originalTasks = (original["tasks"] as! [[String: Any]]).sorted {
            ($0["id"] as! String) < ($1["id"] as! String)
        }
        let upgradedTasks = upgraded["tasks"] as! [[String: Any]]
        #expect(originalTasks.map { $0["title"] as! String } == upgradedTasks.map { $0["title"] as! String })
        #expect(originalTasks.map { $0["projectId"] as? String } == upgradedTasks.map { $0["projectId"] as? String })
        #expect(
            originalTasks.map { ($0["tagIds"] as! [String]).sorted() }
                == upgradedTasks.map { $0["tagIds"] as! [String] })
        // Dates: the v1 Double comes back bit for bit.
        for (old, new) in zip(originalTasks, upgradedTasks) {
            let seconds = (old["createdAt"] as! NSNumber).doubleValue
            let parsed = try LosslessDate.date(from: new["createdAt"] as! String)
            #expect(parsed.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern)
        }
    }

    @Test("every invalid sample exits 65 naming its path, and leaves the target store byte-identical")
    func invalidSamples() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let expected = try String(contentsOfFile: TasksBinary.sample("invalid/EXPECTED.tsv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        #expect(expected.count >= 16)
        let before = try ["", "-wal", "-shm"].map { try scratch.bytes("TaskManager.sqlite" + $0) }
        for row in expected {
            let (file, code, path) = (row[0], row[1], row[2])
            let validate = try TasksBinary.run(["validate", TasksBinary.sample("invalid/" + file)])
            #expect(validate.status == 65, "\(file)")
            #expect(
                validate.stderr.contains("error: \(path)") && validate.stderr.contains(": \(code): "),
                "\(file): \(validate.stderr)")
            for mode in ["insert", "upsert"] {
                let run = try TasksBinary.run([
                    "import", "--store", store, "--mode", mode, TasksBinary.sample("invalid/" + file),
                ])
                #expect(run.status == 65, "\(file)")
                #expect(run.stderr.contains(path), "\(file)")
                #expect(run.stderr.hasSuffix("nothing was written\n"), "\(file)")
            }
            let json = try TasksBinary.run(["validate", "--json", TasksBinary.sample("invalid/" + file)])
            let report = try JSONSerialization.jsonObject(with: json.stdoutData) as! [String: Any]
            #expect(
                (report["issues"] as! [[String: Any]]).contains {
                    $0["code"] as? String == code && ($0["path"] as? String ?? "").hasPrefix(path)
                }, "\(file)")
        }
        let after = try ["", "-wal", "-shm"].map { try scratch.bytes("TaskManager.sqlite" + $0) }
        #expect(before == after)
        let fresh = try TasksBinary.run([
            "import", "--store", scratch.path("never.sqlite"), TasksBinary.sample("invalid/missing-project.json"),
        ])
        #expect(fresh.status == 65)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("never.sqlite")))
    }

    @Test("a store locked by another process: import waits its busy timeout, exits 75 and writes nothing")
    func lockedStore() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let before = try TasksBinary.run(["export", "--store", store]).stdout
        let holder = try Database(path: store, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        let started = Date()
        let run = try TasksBinary.run([
            "import", "--store", store, "--mode", "upsert", "--busy-timeout", "300", scratch.path("a.json"),
        ])
        #expect(run.status == 75)
        #expect(run.stderr.contains("locked by another process"))
        #expect(Date().timeIntervalSince(started) >= 0.3)
        try holder.execute("ROLLBACK")
        #expect(contentLines(try TasksBinary.run(["export", "--store", store]).stdout) == contentLines(before))
    }

    @Test("dry run prints the plan and writes nothing; backup copies the store first")
    func dryRunAndBackup() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let before = try scratch.bytes("TaskManager.sqlite")
        let dry = try TasksBinary.run([
            "import", "--store", store, "--mode", "upsert", "--dry-run", scratch.path("a.json"),
        ])
        #expect(dry.status == 0)
        // The file is the store's own export: upsert would leave every record as it is.
        #expect(dry.stdout.contains("  task: 0 inserted, 44 unchanged"))
        #expect(try scratch.bytes("TaskManager.sqlite") == before)
        let insertDry = try TasksBinary.run(["import", "--store", store, "--dry-run", scratch.path("a.json")])
        #expect(insertDry.status == 65)
        #expect(insertDry.stderr.contains("id-exists-in-store"))
        let real = try TasksBinary.run([
            "import", "--store", store, "--mode", "upsert", "--backup", scratch.path("backup.sqlite"),
            scratch.path("a.json"),
        ])
        #expect(real.status == 0, "\(real.stderr)")
        let backupExport = try TasksBinary.run(["export", "--store", scratch.path("backup.sqlite")])
        #expect(
            contentLines(backupExport.stdout)
                == contentLines(String(decoding: try scratch.bytes("a.json"), as: UTF8.self)))
    }

    @Test("--strict refuses an export that cannot carry everything and writes no file")
    func strict() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        // A required value that is NULL: exported as "" — not exactly what the store holds.
        try Database(path: store, mode: .readWrite).execute("UPDATE ZTASK SET ZTITLE = NULL WHERE Z_PK = 1")
        let lenient = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("out.json")])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("warning: Task.title: missing-required-value: NULL title; exported as \"\""))
        try FileManager.default.removeItem(atPath: scratch.path("out.json"))
        let strict = try TasksBinary.run(["export", "--store", store, "--strict", "-o", scratch.path("out.json")])
        #expect(strict.status == 65)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.json")))
        let strictStdout = try TasksBinary.run(["export", "--store", store, "--strict"])
        #expect(strictStdout.status == 65)
        #expect(strictStdout.stdout.isEmpty)
        let summary = try TasksBinary.run([
            "export", "--store", store, "--json-summary", "-o", scratch.path("out2.json"),
        ])
        let object = try JSONSerialization.jsonObject(with: Data(summary.stderr.utf8)) as! [String: Any]
        #expect((object["findings"] as! [[String: Any]]).contains { $0["code"] as? String == "missing-required-value" })
    }

    @Test("inspect --json lists entities with their row counts")
    func inspect() throws {
        let scratch = try Scratch()
        let run = try TasksBinary.run(["inspect", "--store", try scratch.sampleStore(), "--json"])
        #expect(run.status == 0)
        let object = try JSONSerialization.jsonObject(with: run.stdoutData) as! [String: Any]
        let entities = object["entities"] as! [[String: Any]]
        #expect(entities.map { $0["name"] as! String } == ["Category", "Project", "Subtask", "Tag", "Task"])
        #expect(entities.map { $0["count"] as! Int } == [4, 5, 84, 10, 44])
        #expect(entities.map { $0["table"] as! String } == ["ZCATEGORY", "ZPROJECT", "ZSUBTASK", "ZTAG", "ZTASK"])
    }
}

@Suite("Streams and progress")
struct StreamTests {
    @Test("progress lines appear on a terminal and never in pipes or files")
    func progress() throws {
        let scratch = try Scratch()
        #expect(try TasksBinary.run(["generate", "--tasks", "25000", "-o", scratch.path("g.sqlite")]).status == 0)
        let piped = try TasksBinary.run(["export", "--store", scratch.path("g.sqlite"), "-o", scratch.path("a.json")])
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("\r"))
        #expect(!piped.stderr.contains("exporting:"))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        // `script` gives the command a pseudo-terminal; CI is unset for this one run so the terminal rule is what decides.
        let terminal = try TasksBinary.shell(
            "env -u CI script -qc '\"$TASKS\" export --store g.sqlite -o b.json' /dev/null", in: scratch.url)
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("exporting: 40% (10000 of 25000 tasks)"))
    }

    @Test("a reader that closes the pipe early gets exit 74 and a message, not a crash")
    func closedPipe() throws {
        let scratch = try Scratch()
        #expect(try TasksBinary.run(["generate", "--tasks", "25000", "-o", scratch.path("g.sqlite")]).status == 0)
        // Far more than a pipe buffer holds, so the export is still writing when `head` exits.
        let run = try TasksBinary.runProcess(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "\"$TASKS\" export --store g.sqlite 2>err.txt | head -c 10 >/dev/null; echo \"${PIPESTATUS[0]}\""],
            stdin: nil, in: scratch.url, environment: ["TASKS": TasksBinary.url.path])
        #expect(run.stdout == "74\n")
        let stderr = String(decoding: try scratch.bytes("err.txt"), as: UTF8.self)
        #expect(stderr.hasPrefix("Error: write failed: Broken pipe"), "\(stderr)")
    }

    @Test("a truncated NDJSON stream is refused, and nothing is imported")
    func truncatedNDJSON() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let export = try TasksBinary.run(["export", "--store", store, "--ndjson"])
        let lines = export.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // Cut the stream in the middle of the tasks, as a broken pipe would.
        let cut = lines.prefix(lines.count / 2).joined(separator: "\n") + "\n"
        let run = try TasksBinary.run(["import", "--store", scratch.path("new.sqlite"), "-"], stdin: Data(cut.utf8))
        #expect(run.status == 65)
        #expect(run.stderr.contains("counts-mismatch") || run.stderr.contains("trailer"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
        let whole = try TasksBinary.run(
            ["import", "--store", scratch.path("new.sqlite"), "-"], stdin: export.stdoutData)
        #expect(whole.status == 0, "\(whole.stderr)")
    }
}

@Suite("Validation against a target")
struct TargetValidationTests {
    @Test("validate --store reports ids already in the target for insert mode, and accepts them for upsert")
    func validateAgainstStore() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let insert = try TasksBinary.run(["validate", scratch.path("a.json"), "--store", store])
        #expect(insert.status == 65)
        #expect(
            insert.stderr.contains(
                "error: $.projects[0].id: id-exists-in-store: project 400CB70F-964E-43C0-B4A3-165DE1AB3E01 already exists in the target store"
            ))
        let upsert = try TasksBinary.run(["validate", scratch.path("a.json"), "--store", store, "--mode", "upsert"])
        #expect(upsert.status == 0)
        #expect(upsert.stderr.contains("valid (format version 2)"))
    }

    @Test(
        "importing into a store whose history tables are not as Core Data writes them warns that history consumers will not see the rows"
    )
    func historyWarning() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        try Database(path: store, mode: .readWrite).execute(
            "CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR VARCHAR)")
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let run = try TasksBinary.run(["import", "--store", store, "--mode", "upsert", scratch.path("a.json")])
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning: the target store tracks persistent history"))
    }
}
