import Foundation
import TaskInterchange
import Testing

/// The model change from the command line: `migrate --dry-run` prints the plan and keeps nothing, the mapping's
/// `modelChange` fills what the inference cannot, an unknown name in it is a usage error, `verify --model` lists
/// the drops apart, and summaries of stores without task kinds name their entities.
@Suite("tasks migrate/import/verify across model versions")
struct ModelChangeCommandTests {
    typealias Attribute = ModelVersionPropertyTests.Attribute

    /// E0(a0 kept, a1 Integer 16 → 32, a2 removed, a3 renamed r a3, a4 made required with default 7, `added` new);
    /// E1 renamed NE1 (b0 kept); version 2 adds Fresh.
    static let entities = [
        ModelVersionPropertyTests.Entity(
            name: "E0",
            attributes: [
                Attribute(name: "a0", type: "String", fate: .kept),
                Attribute(name: "a1", type: "Integer 16", fate: .widened),
                Attribute(name: "a2", type: "String", fate: .removed),
                Attribute(name: "a3", type: "String", fate: .renamed),
                Attribute(name: "a4", type: "Integer 32", fate: .madeRequired),
            ], renamed: false),
        ModelVersionPropertyTests.Entity(
            name: "E1", attributes: [Attribute(name: "b0", type: "Double", fate: .kept)], renamed: true),
    ]

    /// The two-version model and a version 1 store with two E0 rows and one E1 row.
    static func modelAndStore(in scratch: Scratch) throws -> (model: String, store: String) {
        let model = scratch.path("App.xcdatamodeld")
        for version in [1, 2] {
            try FileManager.default.createDirectory(
                atPath: model + "/v\(version).xcdatamodel", withIntermediateDirectories: true)
            try ModelVersionPropertyTests.xml(entities, version: version).write(
                toFile: model + "/v\(version).xcdatamodel/contents", atomically: true, encoding: .utf8)
        }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>v2.xcdatamodel</string></dict></plist>
        """.write(toFile: model + "/.xccurrentversion", atomically: true, encoding: .utf8)
        let store = scratch.path("Old.sqlite")
        let made = try TasksBinary.run(["model", "new-store", model, "--model-version", "v1", "-o", store])
        try #require(made.status == 0, "\(made.stderr)")
        try Database(path: store, mode: .readWrite).execute(
            "INSERT INTO ZE0 (Z_PK, Z_ENT, Z_OPT, ZA0, ZA1, ZA2, ZA3, ZA4) VALUES "
                + "(1, 1, 1, 'one', 300, 'gone', 'x', NULL), (2, 1, 1, 'two', -5, 'gone too', NULL, 9);"
                + "INSERT INTO ZE1 (Z_PK, Z_ENT, Z_OPT, ZB0) VALUES (1, 2, 1, 2.5);"
                + "UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'E0';"
                + "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'E1'")
        return (model, store)
    }

    @Test("migrate --dry-run prints the plan and the model change; nothing is written, no backup kept")
    func dryRun() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("New.sqlite"), "--backup", scratch.path("backups"),
            "--model", model, "--dry-run",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("(nothing written, no backup kept)"), "\(run.stdout)")
        #expect(run.stdout.contains("  E0 (generic): 2 inserted; 8 values: 6 arrived, 2 dropped by the model change"))
        #expect(run.stdout.contains("  NE1 (generic): 1 inserted; 1 values: 1 arrived"), "\(run.stdout)")
        #expect(!run.stdout.contains("project:"), "\(run.stdout)")
        for line in [
            "  E0.a1: Integer 16 → Integer 32 (2 values converted)", "  E0.a2: dropped (", "  E0.a3 → E0.ra3 (renamed)",
            "  E0.a4 (required): filled with 7 (1 records)", "  E0.added (added): filled with 42 (2 records)",
            "  E1 → NE1 (renamed)",
        ] {
            #expect(run.stdout.contains(line), "\(line)\n\(run.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("New.sqlite")))
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path("backups"))) ?? []
        #expect(kept.isEmpty, "\(kept)")
    }

    @Test("migrate carries the store into version 2; verify --model lists the drops apart; the summary names entities")
    func migrateAndVerify() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        let new = scratch.path("New.sqlite")
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", new, "--backup", scratch.path("backups"), "--model", model,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("Migrated 3 entity records (2 values dropped by the model change) from"),
            "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "warning: E0.a2: the target's model version has no such property; 2 values dropped by the model change"),
            "\(run.stderr)")
        let rows = try Database(path: new, mode: .readOnly(immutable: false)).rows(
            "SELECT Z_PK, ZA0, ZA1, ZRA3, ZA4, ZADDED FROM ZE0 ORDER BY Z_PK")
        #expect(
            rows.map { $0.map { $0.string ?? $0.int64.map(String.init) ?? "NULL" } } == [
                ["1", "one", "300", "x", "7", "42"], ["2", "two", "-5", "NULL", "9", "42"],
            ])
        let renamed = try Database(path: new, mode: .readOnly(immutable: false)).rows("SELECT Z_PK, ZB0 FROM ZNE1")
        #expect(renamed.map { [$0[0].int64, $0[1].double.map { Int64($0 * 10) }] } == [[1, 25]])
        let archive = scratch.path("old.json")
        #expect(try TasksBinary.run(["export", "--store", store, "--model", model, "-o", archive]).status == 0)
        let verify = try TasksBinary.run(["verify", "--store", new, "--model", model, archive])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("dropped by the model change, not compared: E0.a2 2"), "\(verify.stdout)")
        // Without the model, the renamed entity and property are differences: nothing hides them.
        let bare = try TasksBinary.run(["verify", "--store", new, archive])
        #expect(bare.status == 1, "\(bare.stdout)")
        // A changed value in the new store is found under its new name.
        try Database(path: new, mode: .readWrite).execute("UPDATE ZE0 SET ZRA3 = 'y' WHERE Z_PK = 1")
        let changed = try TasksBinary.run(["verify", "--store", new, "--model", model, archive])
        #expect(changed.status == 1, "\(changed.stdout)")
        #expect(changed.stdout.contains("ra3: \"x\" → \"y\""), "\(changed.stdout)")
    }

    @Test("a required attribute with nothing to fill is refused, the mapping's modelChange fills it, a typo is 64")
    func requiredWithoutDefault() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        // A version 3 whose new attribute is required and has no default, the next version after v1 (v2 then being
        // another branch: named last in the order, the store is not carried through it).
        let v3 = ModelVersionPropertyTests.xml(Self.entities, version: 2).replacingOccurrences(
            of: "<attribute name=\"added\" optional=\"YES\" attributeType=\"Integer 32\" defaultValueString=\"42\"",
            with: "<attribute name=\"added\" attributeType=\"Integer 32\"")
        try FileManager.default.createDirectory(atPath: model + "/v3.xcdatamodel", withIntermediateDirectories: true)
        try v3.write(toFile: model + "/v3.xcdatamodel/contents", atomically: true, encoding: .utf8)
        let arguments = [
            "migrate", "--from", store, "--to", scratch.path("New.sqlite"), "--backup", scratch.path("backups"),
            "--model", model, "--model-version", "v3", "--version-order", "v1,v3,v2",
        ]
        let refused = try TasksBinary.run(arguments)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "$.entities.E0[0].values.added: E0.added is required in the target model, which gives it no default "
                    + "value, and the archive has none"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("New.sqlite")))
        let mapping = scratch.path("mapping.json")
        try #"{"mappingVersion": 1, "kinds": {}, "modelChange": {"fill": {"E0.added": 5}}}"#.write(
            toFile: mapping, atomically: true, encoding: .utf8)
        let filled = try TasksBinary.run(arguments + ["--mapping", mapping])
        #expect(filled.status == 0, "\(filled.stderr)")
        let added = try Database(path: scratch.path("New.sqlite"), mode: .readOnly(immutable: false)).rows(
            "SELECT ZADDED FROM ZE0")
        #expect(added.map { $0[0].int64 } == [5, 5])
        try #"{"mappingVersion": 1, "kinds": {}, "modelChange": {"fill": {"E0.aded": 5}}}"#.write(
            toFile: mapping, atomically: true, encoding: .utf8)
        let typo = try TasksBinary.run(
            ["import", "--store", scratch.path("Other.sqlite"), "--model", model, "--mapping", mapping, "-"],
            stdin: try TasksBinary.run(["export", "--store", store, "--model", model]).stdoutData)
        #expect(typo.status == 64, "\(typo.stderr)")
        #expect(
            typo.stderr.contains(
                "\(mapping): $.modelChange.fill[\"E0.aded\"]: the target model's attribute 'E0.aded' "),
            "\(typo.stderr)")
        #expect(typo.stderr.contains("did you mean 'E0.added'?"), "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Other.sqlite")))
        // A misspelt section would leave the inference in charge unnoticed.
        try #"{"mappingVersion": 1, "kinds": {}, "modelChange": {"fills": {"E0.added": 5}}}"#.write(
            toFile: mapping, atomically: true, encoding: .utf8)
        let section = try TasksBinary.run(
            arguments.map { $0 == scratch.path("New.sqlite") ? scratch.path("Third.sqlite") : $0 } + [
                "--mapping", mapping,
            ])
        #expect(section.status == 65, "\(section.stderr)")
        #expect(
            section.stderr.contains("\(mapping): $.modelChange.fills: unknown member (did you mean 'fill'?)"),
            "\(section.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Third.sqlite")))
    }

    @Test("migrate without --model into the built-in model: fails, keeps nothing, and points at --model")
    func withoutModel() throws {
        let scratch = try Scratch()
        let (_, store) = try Self.modelAndStore(in: scratch)
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("New.sqlite"), "--backup", scratch.path("backups"),
        ])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("hint: the new store is made from the built-in task model"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("New.sqlite")))
    }

    /// The sample Journal model's first version as V1, then one version per edit of it (V2, V3, …), the last current.
    static func journalVersions(in scratch: Scratch, _ edits: [(String) -> String]) throws -> String {
        let model = scratch.path("Versions.xcdatamodeld")
        let first = try String(
            contentsOfFile: TasksBinary.sample("Journal.xcdatamodeld") + "/Journal 1.xcdatamodel/contents",
            encoding: .utf8)
        let contents = [first] + edits.map { $0(first) }
        for (index, text) in contents.enumerated() {
            let folder = model + "/V\(index + 1).xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try text.replacingOccurrences(
                of: "userDefinedModelVersionIdentifier=\"1\"",
                with: "userDefinedModelVersionIdentifier=\"\(index + 1)\""
            ).write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
        }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>V\(contents.count).xcdatamodel</string>\
        </dict></plist>
        """.write(toFile: model + "/.xccurrentversion", atomically: true, encoding: .utf8)
        return model
    }

    @Test(
        "a pair whose carried side changes: ordered → unordered → ordered carried and verified; a to-one inverse refused"
    )
    func pairChanges() throws {
        let scratch = try Scratch()
        let unordered: (String) -> String = { $0.replacingOccurrences(of: " ordered=\"YES\"", with: "") }
        // V2 unordered, V3 ordered again, V4 unordered with a notebook holding one entry (one-to-one).
        let model = try Self.journalVersions(
            in: scratch,
            [
                unordered, { $0 },
                {
                    unordered($0).replacingOccurrences(
                        of: "<relationship name=\"entries\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\"",
                        with: "<relationship name=\"entries\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Cascade\"")
                },
            ])
        let v1 = scratch.path("v1.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: v1)
        func migrate(_ from: String, _ to: String, _ version: String) throws -> TasksBinary.Run {
            try TasksBinary.run([
                "migrate", "--from", from, "--to", scratch.path(to), "--backup", scratch.path("backups"), "--model",
                model, "--model-version", version,
            ])
        }
        let toUnordered = try migrate(v1, "v2.sqlite", "V2")
        #expect(toUnordered.status == 0, "\(toUnordered.stderr)")
        #expect(toUnordered.stderr.contains("Notebook.entries: ordered → unordered"), "\(toUnordered.stderr)")
        let linked = try Database(path: scratch.path("v2.sqlite"), mode: .readOnly(immutable: false)).rows(
            "SELECT count(*) FROM ZENTRY WHERE ZNOTEBOOK IS NOT NULL")
        #expect(linked.first?[0].int64 == 5)
        let toOrdered = try migrate(scratch.path("v2.sqlite"), "v3.sqlite", "V3")
        #expect(toOrdered.status == 0, "\(toOrdered.stderr)")
        #expect(
            toOrdered.stderr.contains(
                "Entry.notebook: the pair now travels from Notebook.entries, an ordered to-many"), "\(toOrdered.stderr)"
        )
        let positions = try Database(path: scratch.path("v3.sqlite"), mode: .readOnly(immutable: false)).rows(
            "SELECT ZNOTEBOOK, count(DISTINCT Z_FOK_NOTEBOOK), count(*) FROM ZENTRY WHERE ZNOTEBOOK IS NOT NULL "
                + "GROUP BY ZNOTEBOOK")
        #expect(positions.allSatisfy { $0[1].int64 == $0[2].int64 }, "each entry has its own position")
        let toOne = try migrate(scratch.path("v2.sqlite"), "v4.sqlite", "V4")
        #expect(toOne.status == 65, "\(toOne.stderr)")
        #expect(
            toOne.stderr.contains("is linked by another record too, but Notebook.entries is to-one"), "\(toOne.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("v4.sqlite")))
    }

    @Test("an archive of another app imported into the built-in model: the headline does not call it imported")
    func anotherApp() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        let archive = scratch.path("app.json")
        #expect(try TasksBinary.run(["export", "--store", store, "--model", model, "-o", archive]).status == 0)
        let made = try TasksBinary.run([
            "import", "--store", scratch.path("Tasks.sqlite"), TasksBinary.sample("v2-example.json"),
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let run = try TasksBinary.run(["import", "--store", scratch.path("Tasks.sqlite"), archive])
        #expect(run.stderr.contains("Nothing written to "), "\(run.stderr)")
        #expect(run.stderr.contains("(the archive holds 3 entity records)"), "\(run.stderr)")
        #expect(!run.stderr.contains("Imported 3 entity records"), "\(run.stderr)")
    }

    @Test("an upsert by the model's names into a store read by its columns' names: nothing it cannot name is wiped")
    func upsertWithoutModel() throws {
        let scratch = try Scratch()
        let store = scratch.path("t.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v2.sqlite"), toPath: store)
        let archive = scratch.path("a.json")
        let export = try TasksBinary.run([
            "export", "--store", TasksBinary.sample("Journal-v2.sqlite"), "--model",
            TasksBinary.sample("Journal.xcdatamodeld"), "-o", archive,
        ])
        #expect(export.status == 0, "\(export.stderr)")
        let query = "SELECT count(ZISFAVORITE), count(ZWRITTENAT), count(ZNOTEBOOK) FROM ZENTRY"
        let before = try Database(path: store, mode: .readOnly(immutable: false)).rows(query)
        let run = try TasksBinary.run(["import", "--store", store, "--mode", "upsert", archive])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: the target keeps no model cache"), "\(run.stderr)")
        #expect(run.stderr.contains("--model (the app's model) names and types them"), "\(run.stderr)")
        let after = try Database(path: store, mode: .readOnly(immutable: false)).rows(query)
        #expect(after == before)
        #expect(after.first?[0].int64 == 7)
    }
}
