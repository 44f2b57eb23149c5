import Foundation
import Testing
import TaskInterchange

/// A store for one test: the sample store copied into a fresh directory and altered with SQL, or any bytes.
private struct HostileStore {
    let scratch: Scratch
    let path: String

    /// The sample store (with its WAL), altered by `sql` through the library's own connection.
    static func sample(_ sql: String? = nil) throws -> HostileStore {
        let scratch = try Scratch()
        let path = try scratch.sampleStore()
        if let sql {
            let database = try Database(path: path, mode: .readWrite)
            try database.execute(sql)
        }
        return HostileStore(scratch: scratch, path: path)
    }

    /// A file holding exactly `bytes`.
    static func bytes(_ bytes: Data, name: String = "store.sqlite") throws -> HostileStore {
        let scratch = try Scratch()
        try bytes.write(to: scratch.url.appendingPathComponent(name))
        return HostileStore(scratch: scratch, path: scratch.path(name))
    }

    /// A read-write connection, for checking what an import did (the test's copy only).
    func open() throws -> Database { try Database(path: path, mode: .readWrite) }

    func snapshot() throws -> [String: Data] { try directorySnapshot(scratch.url) }

    /// Writes an archive beside the store and returns its path.
    func archive(_ text: String, name: String = "archive.json") throws -> String {
        let path = scratch.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// One new task with one subtask, and ids no store has.
private let newTaskArchive = """
    {"format":"tasks-interchange","version":2,"exportDate":"2024-01-01T00:00:00Z","generator":{"name":"test","version":"1"},
    "source":{"store":"test","entities":{}},"projects":[],"categories":[],"tags":[],
    "tasks":[{"id":"11111111-1111-4111-8111-111111111111","title":"hostile-store import","isCompleted":false,
    "createdAt":"2024-01-01T00:00:00Z","priority":1,"tagIds":[],
    "subtasks":[{"id":"22222222-2222-4222-8222-222222222222","title":"its subtask","isCompleted":false}]}],
    "counts":{"projects":0,"categories":0,"tags":0,"tasks":1,"subtasks":1}}
    """

/// Records a crash, a hang or an internal error as a failure.
private func expectNoCrash(_ run: GuardedRun.Result, _ label: String, sourceLocation: SourceLocation = #_sourceLocation)
{
    if let problem = GuardedRun.crashProblem(run) {
        Issue.record("\(label): \(problem); stderr: \(run.stderr.prefix(600))", sourceLocation: sourceLocation)
    }
}

/// Both streams, for messages that `inspect` prints to stdout and the other commands to stderr.
private func text(_ run: GuardedRun.Result) -> String { run.stdout + run.stderr }

@Suite("Hostile stores")
struct HostileStoreTests {
    @Test(
        "Z_MAX below the largest key: inspect reports z-max-below-keys; import succeeds, collides with nothing and raises Z_MAX"
    )
    func maxKeyBelowKeys() throws {
        let store = try HostileStore.sample("UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME IN ('Task', 'Subtask')")
        let inspect = try GuardedRun.run(["inspect", "--store", store.path])
        expectNoCrash(inspect, "inspect")
        #expect(inspect.status == 0)
        #expect(text(inspect).contains("z-max-below-keys"), "\(text(inspect))")
        let imported = try GuardedRun.run(["import", "--store", store.path, try store.archive(newTaskArchive)])
        expectNoCrash(imported, "import")
        #expect(imported.status == 0, "\(imported.stderr)")
        let database = try store.open()
        for (entity, table) in [("Task", "ZTASK"), ("Subtask", "ZSUBTASK")] {
            let maximum = try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", [.text(entity)])?.int64
            let largest = try database.scalar("SELECT max(Z_PK) FROM \(table)")?.int64
            #expect(
                maximum != nil && largest != nil && maximum! >= largest!,
                "\(entity): Z_MAX \(String(describing: maximum)) < \(String(describing: largest))")
        }
        // The new task took a fresh key; the old ones are still there.
        #expect(try database.scalar("SELECT count(*) FROM ZTASK")?.int64 == 45)
        #expect(try database.scalar("SELECT Z_PK FROM ZTASK WHERE ZTITLE = 'hostile-store import'")?.int64 ?? 0 > 45)
    }

    @Test("rows with NULL Z_ENT or Z_OPT: inspect and export report them (stray-rows, null-z-opt), the export is valid")
    func nullEntityAndVersion() throws {
        let store = try HostileStore.sample(
            """
            UPDATE ZTASK SET Z_ENT = NULL WHERE Z_PK = 1; UPDATE ZTASK SET Z_OPT = NULL WHERE Z_PK = 2;
            UPDATE ZTAG SET Z_ENT = NULL, Z_OPT = NULL WHERE Z_PK = 3;
            """)
        let before = try store.snapshot()
        let inspect = try GuardedRun.run(["inspect", "--store", store.path])
        expectNoCrash(inspect, "inspect")
        #expect(inspect.status == 0)
        #expect(text(inspect).contains("stray-rows") && text(inspect).contains("null-z-opt"), "\(text(inspect))")
        let export = try GuardedRun.run(["export", "--store", store.path, "-o", store.scratch.path("out.json")])
        expectNoCrash(export, "export")
        #expect(export.status == 0)
        #expect(export.stderr.contains("stray-rows"), "\(export.stderr)")
        #expect(export.stderr.contains("43 tasks"), "\(export.stderr)")
        let validate = try GuardedRun.run(["validate", store.scratch.path("out.json")])
        #expect(validate.status == 0, "\(validate.stderr)")
        var after = try store.snapshot()
        after["out.json"] = nil
        #expect(after == before, "export changed the store's files")
    }

    @Test(
        "dangling foreign keys and join rows: export reports dangling-reference and exits 0; --strict exits 65 and writes nothing"
    )
    func danglingReferences() throws {
        let store = try HostileStore.sample(
            """
            UPDATE ZTASK SET ZPROJECT = 999 WHERE Z_PK = 1; UPDATE ZTASK SET ZCATEGORY = 777 WHERE Z_PK = 2;
            INSERT INTO Z_4TASKS VALUES (999, 1); INSERT INTO Z_4TASKS VALUES (1, 888);
            UPDATE ZSUBTASK SET ZTASK = 555 WHERE Z_PK = 1;
            """)
        let export = try GuardedRun.run(["export", "--store", store.path, "-o", store.scratch.path("out.json")])
        expectNoCrash(export, "export")
        #expect(export.status == 0)
        for expected in [
            "Task.project: dangling-reference", "Task.category: dangling-reference",
            "Z_4TASKS: dangling-reference", "orphan-subtask",
        ] {
            #expect(export.stderr.contains(expected), "missing \(expected): \(export.stderr)")
        }
        let validate = try GuardedRun.run(["validate", store.scratch.path("out.json")])
        #expect(validate.status == 0, "\(validate.stderr)")
        let strict = try GuardedRun.run([
            "export", "--strict", "--store", store.path, "-o", store.scratch.path("strict.json"),
        ])
        expectNoCrash(strict, "export --strict")
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("nothing was written"), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store.scratch.path("strict.json")))
    }

    @Test("duplicate UUIDs: reported as duplicate-id, and the export is still valid with unique ids")
    func duplicateUUIDs() throws {
        let store = try HostileStore.sample(
            """
            UPDATE ZTASK SET ZID = (SELECT ZID FROM ZTASK WHERE Z_PK = 1) WHERE Z_PK = 2;
            UPDATE ZTAG SET ZID = (SELECT ZID FROM ZTAG WHERE Z_PK = 1) WHERE Z_PK IN (2, 3);
            """)
        let export = try GuardedRun.run(["export", "--store", store.path, "-o", store.scratch.path("out.json")])
        expectNoCrash(export, "export")
        #expect(export.status == 0)
        #expect(
            export.stderr.contains("Task.id: duplicate-id") && export.stderr.contains("Tag.id: duplicate-id"),
            "\(export.stderr)")
        let validate = try GuardedRun.run(["validate", store.scratch.path("out.json")])
        #expect(validate.status == 0, "\(validate.stderr)")
        let archive = try JSONSerialization.jsonObject(with: try store.scratch.bytes("out.json")) as! [String: Any]
        for section in ["tasks", "tags"] {
            let ids = (archive[section] as! [[String: Any]]).map { $0["id"] as! String }
            #expect(Set(ids).count == ids.count && ids.count == (section == "tasks" ? 44 : 10))
        }
    }

    @Test("UUIDs stored as text (uppercase and lowercase) export exactly like the 16-byte blobs")
    func textUUIDs() throws {
        let hyphenated =
            "substr(hex(ZID),1,8)||'-'||substr(hex(ZID),9,4)||'-'||substr(hex(ZID),13,4)||'-'||substr(hex(ZID),17,4)||'-'||substr(hex(ZID),21)"
        let store = try HostileStore.sample(
            "UPDATE ZTASK SET ZID = \(hyphenated); UPDATE ZTAG SET ZID = lower(\(hyphenated));")
        let export = try GuardedRun.run(["export", "--store", store.path])
        expectNoCrash(export, "export")
        #expect(export.status == 0)
        #expect(!export.stderr.contains("invalid-id") && !export.stderr.contains("derived-id"), "\(export.stderr)")
        let reference = try TasksBinary.run(["export", "--store", TasksBinary.sample("TaskManager.sqlite")])
        #expect(contentLines(export.stdout) == contentLines(reference.stdout))
    }

    @Test("an entity and a column named with quotes and semicolons run no injected SQL and are reported")
    func injectionInNames() throws {
        let entity = #"Ta"sk'; DROP TABLE ZTAG;--"#
        let table = Database.quote("Z" + entity.uppercased())
        let column = Database.quote(#"ZX"; DROP TABLE ZPROJECT;--"#)
        let store = try HostileStore.sample(
            """
            INSERT INTO Z_PRIMARYKEY VALUES (6, '\(entity.replacingOccurrences(of: "'", with: "''"))', 0, 2);
            CREATE TABLE \(table) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, \(column) VARCHAR);
            INSERT INTO \(table) VALUES (1, 6, 1, 'one', 'x'), (2, 6, 1, 'two', 'y');
            DELETE FROM Z_MODELCACHE; -- the built-in model's cache does not know the entity: read by its columns
            """)
        // The hostile entity read as tags through a mapping: its names reach the SQL the reader builds.
        let mapping = store.scratch.path("mapping.json")
        let mappingJSON: [String: Any] = [
            "mappingVersion": 1,
            "kinds": [
                "tag": [
                    "entity": entity, "fields": ["name": "title", "id": #"x"; DROP TABLE ZPROJECT;--"#],
                    "relationships": [:],
                ]
            ],
        ]
        try JSONSerialization.data(withJSONObject: mappingJSON).write(to: URL(fileURLWithPath: mapping))
        let runs: [(String, [String])] = [
            ("inspect", ["inspect", "--store", store.path]),
            ("export", ["export", "--store", store.path]),
            ("inspect --mapping", ["inspect", "--store", store.path, "--mapping", mapping]),
            ("export --mapping", ["export", "--store", store.path, "--mapping", mapping]),
            ("import", ["import", "--store", store.path, try store.archive(newTaskArchive)]),
        ]
        for (label, arguments) in runs {
            let run = try GuardedRun.run(arguments)
            expectNoCrash(run, label)
            #expect(run.status == 0, "\(label): \(run.stderr)")
            // No kind reads the hostile entity: its rows travel in the generic section, under its name as data.
            if label == "export" {
                #expect(run.stderr.contains("generic: \(entity) 2\n"), "\(run.stderr)")
                let archive = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
                #expect((archive?["entities"] as? [String: Any])?[entity] as? [Any] != nil)
            }
            if label == "export --mapping" { #expect(run.stderr.contains("2 tags"), "\(run.stderr)") }
        }
        let database = try store.open()
        #expect(try database.scalar("SELECT count(*) FROM ZTAG")?.int64 == 10)
        #expect(try database.scalar("SELECT count(*) FROM ZPROJECT")?.int64 == 5)
        #expect(try database.scalar("SELECT count(*) FROM \(table)")?.int64 == 2)
    }

    @Test("the store's triggers never fire on import: the side table stays empty, the other tables intact")
    func triggersDoNotFire() throws {
        let store = try HostileStore.sample(
            """
            CREATE TABLE SIDE (what TEXT);
            CREATE TRIGGER spy_insert AFTER INSERT ON ZTASK BEGIN INSERT INTO SIDE VALUES (NEW.ZTITLE); END;
            CREATE TRIGGER spy_keys AFTER UPDATE ON Z_PRIMARYKEY BEGIN INSERT INTO SIDE VALUES ('Z_MAX'); END;
            CREATE TRIGGER wipe_tags BEFORE INSERT ON ZSUBTASK BEGIN DELETE FROM ZTAG; END;
            CREATE TRIGGER spy_delete AFTER DELETE ON ZTASK BEGIN INSERT INTO SIDE VALUES ('deleted'); END;
            """)
        let inspect = try GuardedRun.run(["inspect", "--store", store.path])
        #expect(text(inspect).contains("schema-objects") && text(inspect).contains("spy_insert"), "\(text(inspect))")
        let imported = try GuardedRun.run(["import", "--store", store.path, try store.archive(newTaskArchive)])
        expectNoCrash(imported, "import")
        #expect(imported.status == 0, "\(imported.stderr)")
        let full = store.scratch.path("full.json")
        #expect(
            try TasksBinary.run(["export", "--store", TasksBinary.sample("TaskManager.sqlite"), "-o", full]).status == 0
        )
        let replaced = try GuardedRun.run(["import", "--mode", "replace", "--store", store.path, full])
        expectNoCrash(replaced, "import --mode replace")
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let database = try store.open()
        #expect(try database.scalar("SELECT count(*) FROM SIDE")?.int64 == 0)
        #expect(try database.scalar("SELECT count(*) FROM ZTAG")?.int64 == 10)
    }

    @Test(
        "a view shadowing ZTAG: its fabricated rows are never read; the export fails (65) or reports the missing tags")
    func viewShadowingTable() throws {
        let store = try HostileStore.sample(
            """
            CREATE TABLE ZTAG_REAL AS SELECT * FROM ZTAG; DROP TABLE ZTAG;
            CREATE VIEW ZTAG AS SELECT Z_PK, Z_ENT, Z_OPT, 'FAKE ' || ZNAME AS ZNAME, ZID FROM ZTAG_REAL
              UNION ALL SELECT 99, 4, 1, 'FABRICATED', x'00112233445566778899AABBCCDDEEFF';
            """)
        let before = try store.snapshot()
        for command in ["inspect", "export"] {
            let run = try GuardedRun.run([command, "--store", store.path])
            expectNoCrash(run, command)
            #expect(
                !run.stdout.contains("FAKE") && !run.stdout.contains("FABRICATED"), "\(command) read the view's rows")
            #expect([0, 65].contains(run.status), "\(command): exit \(run.status)")
            if command == "export" && run.status == 0 {
                // Exported without tags: something must say why (the Tag entity's table is a view).
                #expect(run.stderr.contains("ZTAG"), "export dropped the tags without naming ZTAG: \(run.stderr)")
            }
        }
        #expect(try store.snapshot() == before, "reading changed the store's files")
        let full = store.scratch.path("full.json")
        #expect(
            try TasksBinary.run(["export", "--store", TasksBinary.sample("TaskManager.sqlite"), "-o", full]).status == 0
        )
        let before2 = try store.snapshot()
        let imported = try GuardedRun.run(["import", "--mode", "upsert", "--store", store.path, full])
        expectNoCrash(imported, "import")
        #expect(imported.status == 65, "\(imported.stderr)")
        #expect(imported.stderr.contains("tag"), "\(imported.stderr)")
        #expect(try store.snapshot() == before2, "a failed import changed the store")
    }

    @Test(
        "not an SQLite file, a valid header over random pages, a truncated store and an empty file: exit 65 with a clear message, the file untouched",
        arguments: [
            "text", "garbage-after-header", "truncated", "empty",
        ])
    func notAStore(_ kind: String) throws {
        let sample = try Data(contentsOf: URL(fileURLWithPath: TasksBinary.sample("TaskManager.sqlite")))
        // Pages of noise (a multiplicative hash of the offset: deterministic, no pattern SQLite could mistake).
        let random = Data(
            (0..<(65_536 - 16)).map { (offset: UInt32) in UInt8(truncatingIfNeeded: (offset &* 2_654_435_761) >> 13) })
        let (bytes, message): (Data, String) =
            switch kind {
            case "text":
                (Data(String(repeating: "not a database, just text\n", count: 20).utf8), "not an SQLite database")
            case "garbage-after-header": (Data("SQLite format 3\0".utf8) + random, "not a database")
            case "truncated": (sample.prefix(5_000), "malformed")
            default: (Data(), "empty")
            }
        let store = try HostileStore.bytes(bytes)
        let archive = try store.archive(newTaskArchive)
        let before = try store.snapshot()
        for arguments in [
            ["inspect", "--store", store.path], ["export", "--store", store.path],
            ["import", "--store", store.path, archive],
        ] {
            let run = try GuardedRun.run(arguments)
            expectNoCrash(run, arguments[0])
            #expect(run.status == 65, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.contains(message) && run.stderr.hasPrefix("Error: "), "\(arguments[0]): \(run.stderr)")
        }
        #expect(try store.snapshot() == before, "the file changed or a sidecar appeared")
    }

    @Test("a store in a read-only directory: export and inspect work and create nothing; import fails with 73 or 74")
    func readOnlyDirectory() throws {
        let scratch = try Scratch()
        let directory = scratch.url.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(
                atPath: TasksBinary.sample("TaskManager.sqlite") + suffix,
                toPath: directory.appendingPathComponent("TaskManager.sqlite" + suffix).path)
        }
        let archive = scratch.path("new-task.json")
        try Data(newTaskArchive.utf8).write(to: URL(fileURLWithPath: archive))
        let store = directory.appendingPathComponent("TaskManager.sqlite").path
        let before = try directorySnapshot(directory)
        for name in before.keys {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o444], ofItemAtPath: directory.appendingPathComponent(name).path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path) }
        // Root writes through permissions: drop to nobody with setpriv when that is possible, else skip the part that
        // depends on the permissions.
        var command: [String] = []
        var restricted = !canWrite(in: directory)
        if !restricted {
            if getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
                command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
                restricted = true
                // nobody must reach the scratch directory and read the archive.
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.url.path)
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: archive)
            } else {
                print(
                    "read-only directory: this user can still write there (root without setpriv); the import-must-fail assertions are skipped"
                )
            }
        }
        for arguments in [["export", "--store", store], ["inspect", "--store", store]] {
            let run = try GuardedRun.run(arguments, prefix: command)
            expectNoCrash(run, arguments[0])
            #expect(run.status == 0, "\(arguments[0]): \(run.stderr)")
            #expect(
                try directorySnapshot(directory) == before, "\(arguments[0]) changed or created files in the directory")
        }
        guard restricted else { return }
        for (label, target) in [
            ("existing store", store), ("new store", directory.appendingPathComponent("new.sqlite").path),
        ] {
            let run = try GuardedRun.run(["import", "--store", target, archive], prefix: command)
            expectNoCrash(run, "import into \(label)")
            #expect([73, 74].contains(run.status), "import into \(label): exit \(run.status): \(run.stderr)")
            #expect(
                run.stderr.hasPrefix("Error: ")
                    && run.stderr.contains(target.split(separator: "/").last.map(String.init) ?? ""),
                "import into \(label): \(run.stderr)")
            #expect(try directorySnapshot(directory) == before, "a failed import into \(label) changed the directory")
        }
    }

    @Test(
        "a -wal without -shm (a real Core Data store): export and inspect leave both files byte-identical and create no -shm"
    )
    func walWithoutSharedMemory() throws {
        let name = "CoreDataMigration_Example_WAL__wibosco_CoreDataMigration-Example.sqlite"
        // ../shared beside the repository, as the workplace lays it out.
        let original = TasksBinary.repository.deletingLastPathComponent().appendingPathComponent(
            "shared/fixtures/real-stores/" + name
        ).path
        guard FileManager.default.fileExists(atPath: original),
            FileManager.default.fileExists(atPath: original + "-wal")
        else {
            print("skipped: \(original) is not on this machine")
            return
        }
        let scratch = try Scratch()
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: original + suffix, toPath: scratch.path(name + suffix))
            // Writable copies: a -shm must not appear even where SQLite could create one.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.path(name + suffix))
        }
        let before = try directorySnapshot(scratch.url)
        for command in ["export", "inspect"] {
            let run = try GuardedRun.run([command, "--store", scratch.path(name)])
            expectNoCrash(run, command)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(try directorySnapshot(scratch.url) == before, "\(command) changed the files or created a -shm")
        }
        let export = try GuardedRun.run(["export", "--store", scratch.path(name)])
        #expect(
            export.stderr.contains("generic: Color 84, Post 84"),
            "its entities (Post, Color) must travel: \(export.stderr)")
    }

    @Test(
        "a date beyond what archives hold (±1e17 s): export reports it (exit 0 with a finding, or 65), never an internal error"
    )
    func outOfRangeDate() throws {
        let store = try HostileStore.sample(
            "UPDATE ZTASK SET ZCREATEDAT = 1e300 WHERE Z_PK = 5; UPDATE ZPROJECT SET ZCREATEDAT = -1e18 WHERE Z_PK = 1;"
        )
        let run = try GuardedRun.run(["export", "--store", store.path, "-o", store.scratch.path("out.json")])
        expectNoCrash(run, "export")
        #expect([0, 65].contains(run.status), "exit \(run.status): \(run.stderr)")
        if run.status == 0 {
            #expect(run.stderr.contains("invalid-value"), "\(run.stderr)")
        }
    }

    @Test("text that is not valid UTF-8 in a TEXT column: exported with the replacement character and reported")
    func invalidUTF8Text() throws {
        let store = try HostileStore.sample("UPDATE ZTASK SET ZTITLE = CAST(x'41FF42' AS TEXT) WHERE Z_PK = 12;")
        let run = try GuardedRun.run(["export", "--store", store.path])
        expectNoCrash(run, "export")
        #expect(run.status == 0)
        #expect(run.stdout.contains("\"title\":\"A\u{FFFD}B\""))
        #expect(run.stderr.contains("Task.title: invalid-value"), "the replaced byte is not reported: \(run.stderr)")
    }
}

/// True when a file can be created in `directory` (root can, whatever the permissions say).
private func canWrite(in directory: URL) -> Bool {
    let probe = directory.appendingPathComponent(".write-probe-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else { return false }
    try? FileManager.default.removeItem(at: probe)
    return true
}
