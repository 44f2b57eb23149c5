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
    static func modelAndStore(in scratch: Scratch) throws -> (model: String, store: String) {
        let model = scratch.path("Journal.xcdatamodeld")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal.xcdatamodeld"), toPath: model)
        var text = try String(contentsOfFile: model + "/Journal 4.xcdatamodel/contents", encoding: .utf8)
            .replacingOccurrences(
                of: "userDefinedModelVersionIdentifier=\"4\"", with: "userDefinedModelVersionIdentifier=\"5\"")
        for (entity, property) in [("Label", "name"), ("Notebook", "title")] {
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
}
