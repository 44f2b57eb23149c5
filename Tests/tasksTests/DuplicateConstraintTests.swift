import Foundation
import TaskInterchange
import Testing

/// A model version that adds uniqueness constraints (`Label.name`, `Notebook.title`) over a store whose records do
/// not meet them: refused before anything is written, each group named; resolved with the mapping's
/// `modelChange.duplicates` (lowest key, newest by a date), links re-pointed to the kept record and checked by SQL.
@Suite("migrate --model over duplicates under a new uniqueness constraint")
struct DuplicateConstraintTests {
    /// The Journal sample model with a fifth version (Journal 4 plus the two constraints, current), and a copy of
    /// `Journal-v1.sqlite` where label 3 is named as label 1 and notebook 2 titled as notebook 1.
    static func modelAndStore(
        in scratch: Scratch, constraints: [(String, String)] = [("Label", "name"), ("Notebook", "title")]
    ) throws -> (model: String, store: String) {
        let model = scratch.path("Journal.xcdatamodeld")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal.xcdatamodeld"), toPath: model)
        var text = try String(contentsOfFile: model + "/Journal 4.xcdatamodel/contents", encoding: .utf8)
            .replacingOccurrences(
                of: "userDefinedModelVersionIdentifier=\"4\"", with: "userDefinedModelVersionIdentifier=\"5\"")
        for (entity, property) in constraints {
            let start = try #require(text.range(of: "<entity name=\"\(entity)\""))
            let end = try #require(text.range(of: "</entity>", range: start.upperBound..<text.endIndex))
            text.replaceSubrange(
                end,
                with: "    <uniquenessConstraints><uniquenessConstraint><constraint value=\"\(property)\"/>"
                    + "</uniquenessConstraint></uniquenessConstraints>\n    </entity>")
        }
        try FileManager.default.createDirectory(
            atPath: model + "/Journal 5.xcdatamodel", withIntermediateDirectories: true)
        try text.write(toFile: model + "/Journal 5.xcdatamodel/contents", atomically: true, encoding: .utf8)
        try ModelVersionPropertyTests.setCurrentVersion("Journal 5", of: model)
        let store = scratch.path("old.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: store)
        let database = try Database(path: store, mode: .readWrite)
        try database.execute("UPDATE ZLABEL SET ZNAME = (SELECT ZNAME FROM ZLABEL WHERE Z_PK = 1) WHERE Z_PK = 3")
        try database.execute(
            "UPDATE ZNOTEBOOK SET ZTITLE = (SELECT ZTITLE FROM ZNOTEBOOK WHERE Z_PK = 1) WHERE Z_PK = 2")
        return (model, store)
    }

    static func rows(_ store: String, _ sql: String) throws -> [[Int64?]] {
        try Database(path: store, mode: .readOnly(immutable: false)).rows(sql).map { $0.map(\.int64) }
    }

    @Test("refused (65) before anything is written, every group named; the dry run foresees it")
    func refused() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        for extra in [["--dry-run"], []] {
            let run = try TasksBinary.run(
                [
                    "migrate", "--from", store, "--to", scratch.path("new.sqlite"), "--backup",
                    scratch.path("backups"), "--model", model,
                ] + extra)
            #expect(run.status == 65, "\(run.stderr)")
            #expect(
                run.stderr.contains("2 groups of records share the values of a uniqueness constraint"), "\(run.stderr)")
            #expect(run.stderr.contains("  Label (name = \"trip\"): keys 1, 3\n"), "\(run.stderr)")
            #expect(run.stderr.contains("  Notebook (title = \"Travel\"): keys 1, 2"), "\(run.stderr)")
            #expect(run.stderr.contains("modelChange.duplicates"), "\(run.stderr)")
            #expect(!run.stderr.contains("UNIQUE constraint failed"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
        }
    }

    @Test("resolved by each policy: one record kept per group, links re-pointed and merged, counted, verified")
    func resolved() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        let entryLabels = try Self.rows(store, "SELECT Z_1ENTRIES, Z_2LABELS FROM Z_1LABELS ORDER BY 1, 2")
        #expect(entryLabels == [[1, 1], [1, 3], [2, 3], [4, 2], [5, 2], [5, 3]])
        for (policy, keptLabel, keptNotebook) in [
            (#"{"keep": "lowestKey"}"#, Int64(1), Int64(1)),
            (#"{"keep": "newest", "by": "createdAt"}"#, Int64(1), Int64(2)),
        ] {
            let mapping = scratch.path("mapping.json")
            try """
            {"mappingVersion": 1, "kinds": {}, "modelChange": {"duplicates": {"Label": {"keep": "lowestKey"}, \
            "Notebook": \(policy)}}}
            """.write(toFile: mapping, atomically: true, encoding: .utf8)
            let target = scratch.path("new-\(keptNotebook).sqlite")
            let run = try TasksBinary.run([
                "migrate", "--from", store, "--to", target, "--backup", scratch.path("backups"), "--model", model,
                "--mapping", mapping,
            ])
            #expect(run.status == 0, "\(policy): \(run.stderr)")
            #expect(run.stderr.contains("; verified;"), "\(run.stderr)")
            #expect(
                run.stderr.contains("warning: Notebook: 1 record merged into the one kept of its group"),
                "\(run.stderr)")
            #expect(run.stderr.contains("2 values of the merged records dropped"), "\(run.stderr)")
            #expect(
                run.stderr.contains(
                    "duplicates under Notebook's uniqueness constraint: Notebook (title = \"Travel\"): keys 1, 2 → "
                        + "kept key \(keptNotebook)"), "\(run.stderr)")
            #expect(try Self.rows(target, "SELECT Z_PK FROM ZLABEL ORDER BY 1") == [[1], [2]])
            #expect(try Self.rows(target, "SELECT Z_PK FROM ZNOTEBOOK") == [[keptNotebook]])
            // Entries that linked label 3 link label 1 (entry 1 once), the others as before.
            let table = try #require(
                try Database(path: target, mode: .readOnly(immutable: false)).rows(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%LABELS' ESCAPE '\\'"
                ).first?[0].string)
            let columns = try Database(path: target, mode: .readOnly(immutable: false)).rows(
                "PRAGMA table_info(\(table))"
            ).compactMap { $0[1].string }
            #expect(
                try Self.rows(target, "SELECT \(columns[0]), \(columns[1]) FROM \(table) ORDER BY 1, 2")
                    == [[1, keptLabel], [2, keptLabel], [4, 2], [5, 1], [5, 2]])
            // Every entry of either notebook is in the kept one, its own first, in their order.
            let entries = try Self.rows(
                target, "SELECT Z_PK, ZNOTEBOOK FROM ZENTRY WHERE ZNOTEBOOK IS NOT NULL ORDER BY Z_FOK_NOTEBOOK")
            let own: [Int64] = keptNotebook == 1 ? [1, 2, 3, 4, 5] : [4, 5, 1, 2, 3]
            #expect(entries.map { $0[0] } == own.map { $0 })
            #expect(entries.allSatisfy { $0[1] == keptNotebook })
        }
        // A policy that names no date attribute is a usage error (64), with the ones there are.
        let mapping = scratch.path("bad.json")
        try
            #"{"mappingVersion": 1, "kinds": {}, "modelChange": {"duplicates": {"Notebook": {"keep": "newest", "by": "title"}}}}"#
            .write(toFile: mapping, atomically: true, encoding: .utf8)
        let bad = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("bad.sqlite"), "--backup", scratch.path("backups"),
            "--model", model, "--mapping", mapping,
        ])
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("'title' is none (createdAt)"), "\(bad.stderr)")
    }

    /// A mapping file whose `modelChange.duplicates` keeps `label` and `notebook` policies.
    static func mapping(_ path: String, label: String, notebook: String) throws -> String {
        try """
        {"mappingVersion": 1, "kinds": {}, "modelChange": {"duplicates": {"Label": \(label), "Notebook": \(notebook)}}}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("model lint --store --model names each group the target version's constraints would meet; exit 0")
    func lint() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        let run = try TasksBinary.run(["model", "lint", "--store", store, "--model", model])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("ML016 warning Label.name: Label (name = \"trip\"): keys 1, 3:"), "\(run.stdout)")
        #expect(
            run.stdout.contains("ML016 warning Notebook.title: Notebook (title = \"Travel\"): keys 1, 2:"),
            "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "ML016").count == 3, "\(run.stdout)")
        // Against a version without the constraints (read through the chain into it): none.
        let earlier = try TasksBinary.run([
            "model", "lint", "--store", store, "--model", model, "--model-version", "Journal 4",
        ])
        #expect(earlier.status == 0, "\(earlier.stderr)")
        #expect(!earlier.stdout.contains("ML016"), "\(earlier.stdout)")
        let usage = try TasksBinary.run(["model", "lint", model, "--model", model])
        #expect(usage.status == 64, "\(usage.stderr)")
    }

    @Test("verify --model resolves the groups from the mapping file as the migration did: passes, a wrong result fails")
    func verify() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        let kept = try Self.mapping(
            scratch.path("kept.json"), label: #"{"keep": "lowestKey"}"#,
            notebook: #"{"keep": "newest", "by": "createdAt"}"#)
        let target = scratch.path("new.sqlite")
        let migrate = try TasksBinary.run([
            "migrate", "--from", store, "--to", target, "--backup", scratch.path("backups"), "--model", model,
            "--mapping", kept,
        ])
        try #require(migrate.status == 0, "\(migrate.stderr)")
        let archive = scratch.path("old.json")
        try #require(try TasksBinary.run(["export", "--store", store, "--model", model, "-o", archive]).status == 0)
        let verified = try TasksBinary.run(["verify", archive, "--store", target, "--model", model, "--mapping", kept])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(
            verified.stdout.contains(
                "merged into the record kept of their group under a uniqueness constraint: "
                    + "Label 1, Notebook 1"), "\(verified.stdout)")
        // The other notebook kept: the store is not what this mapping makes; no mapping: the groups stay apart.
        let other = try Self.mapping(
            scratch.path("other.json"), label: #"{"keep": "lowestKey"}"#, notebook: #"{"keep": "lowestKey"}"#)
        for extra in [["--mapping", other], []] {
            let wrong = try TasksBinary.run(["verify", archive, "--store", target, "--model", model] + extra)
            #expect(wrong.status == 1, "\(extra): \(wrong.stdout)\(wrong.stderr)")
            #expect(wrong.stdout.contains("not verified"), "\(wrong.stdout)")
        }
    }

    @Test("into a populated store: the target's rows count, named before writing; kept (links added) or refused")
    func populatedTarget() throws {
        let scratch = try Scratch()
        let (model, _) = try Self.modelAndStore(in: scratch)
        // The target: an empty Journal 5 store, then the sample's records; the archive: the sample again under
        // another store UUID (other ids), so each label and notebook meets one of the target's.
        let target = scratch.path("target.sqlite")
        try #require(try TasksBinary.run(["model", "new-store", model, "-o", target]).status == 0)
        var archives: [String] = []
        for (name, uuid) in [("first", nil), ("second", "11111111-2222-3333-4444-555555555555")] {
            let store = scratch.path("\(name).sqlite")
            try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: store)
            if let uuid {
                try Database(path: store, mode: .readWrite).execute("UPDATE Z_METADATA SET Z_UUID = '\(uuid)'")
            }
            let archive = scratch.path("\(name).json")
            try #require(
                try TasksBinary.run(["export", "--store", store, "--model", model, "-o", archive]).status == 0)
            archives.append(archive)
        }
        let first = try TasksBinary.run(["import", archives[0], "--store", target, "--model", model])
        try #require(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        let refused = try TasksBinary.run(["import", archives[1], "--store", target, "--model", model])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("5 groups of records share the values"), "\(refused.stderr)")
        #expect(refused.stderr.contains("  Label (name = \"trip\"): key 1; the target's key 1\n"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        // Keeping the newest notebook where the archive's is newer would remove the target's: refused, named.
        try Database(path: target, mode: .readWrite).execute("UPDATE ZNOTEBOOK SET ZCREATEDAT = ZCREATEDAT - 86400")
        let newer = try TasksBinary.run([
            "import", archives[1], "--store", target, "--model", model, "--mapping",
            try Self.mapping(
                scratch.path("newest.json"), label: #"{"keep": "lowestKey"}"#,
                notebook: #"{"keep": "newest", "by": "createdAt"}"#),
        ])
        #expect(newer.status == 65, "\(newer.stderr)")
        #expect(newer.stderr.contains("a record already in the target is not removed"), "\(newer.stderr)")
        #expect(newer.stderr.contains("  Notebook (title = \"Travel\"): key 1; the target's key 1"), "\(newer.stderr)")
        // Kept in the target: the archive's records merged into its rows, their links added after its own.
        let kept = try TasksBinary.run([
            "import", archives[1], "--store", target, "--model", model, "--mapping",
            try Self.mapping(
                scratch.path("lowest.json"), label: #"{"keep": "lowestKey"}"#, notebook: #"{"keep": "lowestKey"}"#),
        ])
        #expect(kept.status == 0, "\(kept.stderr)")
        // The summary counts the records merged into the target's, beside those inserted.
        #expect(kept.stderr.contains(" inserted, 5 merged into others (the archive holds "), "\(kept.stderr)")
        #expect(
            kept.stderr.contains(
                "duplicates under Label's uniqueness constraint: Label (name = \"trip\"): key 1; the target's key 1 "
                    + "→ kept the target's key 1"), "\(kept.stderr)")
        #expect(try Self.rows(target, "SELECT Z_PK FROM ZLABEL ORDER BY 1") == [[1], [2], [3]])
        #expect(try Self.rows(target, "SELECT Z_PK FROM ZNOTEBOOK ORDER BY 1") == [[1], [2]])
        // The second copy's entries (7–12) link the notebooks and labels their twins (1–6) link, numbered after them.
        let entries = try Self.rows(target, "SELECT Z_PK, ZNOTEBOOK, Z_FOK_NOTEBOOK FROM ZENTRY ORDER BY 1")
        #expect(entries.count == 12)
        for index in 0..<6 {
            #expect(entries[index + 6][1] == entries[index][1], "\(entries)")
        }
        for notebook in Set(entries.compactMap { $0[1] }) {
            let positions = entries.filter { $0[1] == notebook }.map { $0[2] }
            #expect(Set(positions).count == positions.count, "\(entries)")
            #expect(
                entries.filter { $0[1] == notebook }.sorted { ($0[2] ?? 0) < ($1[2] ?? 0) }.map { $0[0] }
                    == entries.filter { $0[1] == notebook }.map { $0[0] }, "\(entries)")
        }
        let table = try #require(
            try Database(path: target, mode: .readOnly(immutable: false)).rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%LABELS' ESCAPE '\\'"
            ).first?[0].string)
        let links = try Self.rows(target, "SELECT * FROM \(table) ORDER BY 1, 2")
        let own = links.filter { ($0[0] ?? 0) <= 6 }
        #expect(links.filter { ($0[0] ?? 0) > 6 } == own.map { [($0[0] ?? 0) + 6, $0[1]] })
    }

    @Test("into a populated store: a date under a constraint meets the target's row holding the same date")
    func populatedTargetDate() throws {
        let scratch = try Scratch()
        let (model, _) = try Self.modelAndStore(in: scratch, constraints: [("Entry", "writtenAt")])
        let target = scratch.path("target.sqlite")
        try #require(try TasksBinary.run(["model", "new-store", model, "-o", target]).status == 0)
        // The sample under two store UUIDs: other ids, the same dates (seconds in the store, text in the archive).
        var archives: [String] = []
        for uuid in ["11111111-2222-3333-4444-555555555555", "66666666-7777-8888-9999-AAAAAAAAAAAA"] {
            let store = scratch.path("\(uuid).sqlite")
            try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: store)
            try Database(path: store, mode: .readWrite).execute("UPDATE Z_METADATA SET Z_UUID = '\(uuid)'")
            let archive = scratch.path("\(uuid).json")
            try #require(
                try TasksBinary.run(["export", "--store", store, "--model", model, "-o", archive]).status == 0)
            archives.append(archive)
        }
        let first = try TasksBinary.run(["import", archives[0], "--store", target, "--model", model])
        try #require(first.status == 0, "\(first.stderr)")
        let entries = try Self.rows(target, "SELECT count(*) FROM ZENTRY")[0][0] ?? 0
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        let refused = try TasksBinary.run(["import", archives[1], "--store", target, "--model", model])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("\(entries) groups of records share the values of a uniqueness constraint"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("  Entry (writtenAt = "), "\(refused.stderr)")
        #expect(refused.stderr.contains("; the target's key 1\n"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
    }

    @Test("a unique index the model does not declare: exit 65 naming the record and the constraint, nothing written")
    func undeclaredUniqueIndex() throws {
        let scratch = try Scratch()
        let model = TasksBinary.sample("Journal.xcdatamodeld")
        let target = scratch.path("target.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: target)
        try Database(path: target, mode: .readWrite).execute("CREATE UNIQUE INDEX app_label_name ON ZLABEL (ZNAME)")
        // The sample again under another store UUID: other ids, the same label names.
        let other = scratch.path("other.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: other)
        try Database(path: other, mode: .readWrite).execute(
            "UPDATE Z_METADATA SET Z_UUID = '11111111-2222-3333-4444-555555555555'")
        let archive = scratch.path("other.json")
        try #require(try TasksBinary.run(["export", "--store", other, "--model", model, "-o", archive]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        let run = try TasksBinary.run(["import", archive, "--store", target, "--model", model])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderr.contains("breaks a constraint of ZLABEL (UNIQUE constraint failed: ZLABEL.ZNAME)"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("is already taken"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
    }
}
