import Foundation
import Testing
import TaskInterchange

/// `tasks model …` end to end: the built binary on the test model in Fixtures/models and on the shared real models
/// (`../shared/fixtures/models`, whose stores are only ever used through copies).
@Suite("tasks model")
struct ModelCommandTests {
    static var sharedAvailable: Bool { SharedFixtures.exists("models") }
    static func sharedPath(_ relative: String) -> String { SharedFixtures.path("models/" + relative) }
    static let subcommands = ["hashes", "identify", "new-store", "swiftdata", "lint", "diagram"]
    static let ledger = TasksBinary.repository.appendingPathComponent(
        "Tests/tasksTests/Fixtures/models/Ledger.xcdatamodeld"
    ).path

    /// Copies a shared store with its sidecars into `scratch`.
    static func copyStore(_ relative: String, to scratch: Scratch) throws -> String {
        try SharedFixtures.copy("models/" + relative, into: scratch)
    }

    static func json(_ run: TasksBinary.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
    }

    @Test("help lists the model command and each subcommand's usage")
    func help() throws {
        #expect(try TasksBinary.run(["--help"]).stdout.contains("\n  model "))
        let help = try TasksBinary.run(["model", "--help"])
        #expect(help.status == 0)
        for usage in [
            "tasks model hashes", "tasks model identify --store <path> --model <path>", "tasks model new-store",
            "tasks model swiftdata", "tasks model lint", "tasks model diagram",
        ] {
            #expect(help.stdout.contains(usage), "\(usage)")
        }
        let identify = try TasksBinary.run(["model", "identify", "--help"]).stdout
        #expect(identify.hasPrefix("OVERVIEW: Name the model version") && !identify.contains("tasks model hashes"))
    }

    @Test("usage errors exit 64; a missing model 66; bad XML 65 with file:line:column")
    func errors() throws {
        let none = try TasksBinary.run(["model"])
        #expect(none.status == 64 && none.stderr.hasPrefix("Error: Missing subcommand"))
        let unknown = try TasksBinary.run(["model", "frob"])
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("Error: Unknown subcommand 'model frob'"))
        #expect(try TasksBinary.run(["model", "hashes"]).status == 64)
        #expect(try TasksBinary.run(["model", "identify", "--model", Self.ledger]).status == 64)
        #expect(try TasksBinary.run(["model", "lint", Self.ledger, "--store", "x.sqlite"]).status == 64)
        let stray = try TasksBinary.run(["import", "--store", "x.sqlite", "--model-version", "Ledger 2", "a.json"])
        #expect(stray.status == 64 && stray.stderr.hasPrefix("Error: --model-version needs --model-from <model>\n"))
        let scratch = try Scratch()
        let missing = try TasksBinary.run(["model", "hashes", scratch.path("Nope.xcdatamodeld")])
        #expect(missing.status == 66 && missing.stdout.isEmpty)
        try FileManager.default.createDirectory(
            atPath: scratch.path("Bad.xcdatamodel"), withIntermediateDirectories: true)
        try Data("<model>\n  <entity name=\"A\">\n    <attribute name=\"a\" attributeType=\"Strin\"/>\n".utf8)
            .write(to: URL(fileURLWithPath: scratch.path("Bad.xcdatamodel/contents")))
        let bad = try TasksBinary.run(["model", "lint", scratch.path("Bad.xcdatamodel")])
        #expect(bad.status == 65 && bad.stdout.isEmpty)
        #expect(bad.stderr.hasPrefix("Error: \(scratch.path("Bad.xcdatamodel/contents")):3:"), "\(bad.stderr)")
        #expect(bad.stderr.contains("attributeType \"Strin\""))
        let version = try TasksBinary.run([
            "model", "new-store", Self.ledger, "--model-version", "Ledger 9", "-o", scratch.path("x.sqlite"),
        ])
        // A version the model does not have is a bad option value: a usage error, with the closest name.
        #expect(version.status == 64 && version.stderr.contains("has no version Ledger 9 (it has Ledger 1, Ledger 2)"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.sqlite")))
        let misspelled = try TasksBinary.run([
            "import", "--store", scratch.path("y.sqlite"), "--model-from", Self.ledger, "--model-version", "ledger 2",
            TasksBinary.sample("TaskManager.v2.json"),
        ])
        #expect(misspelled.status == 64)
        #expect(
            misspelled.stderr.contains("has no version ledger 2 (it has Ledger 1, Ledger 2); did you mean 'Ledger 2'?"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("y.sqlite")))
    }

    @Test("diagram: Mermaid or DOT on stdout, a model change marked; its usage errors 64, a store without a cache 65")
    func diagram() throws {
        let journal = TasksBinary.sample("Journal.xcdatamodeld")
        let mermaid = try TasksBinary.run(["model", "diagram", journal])
        #expect(mermaid.status == 0 && mermaid.stderr.isEmpty, "\(mermaid.stderr)")
        #expect(mermaid.stdout.hasPrefix("classDiagram\n"))
        #expect(mermaid.stdout.contains("  Entry \"*\" -- \"*\" Label : labels / entries [join table Z_2LABELS]\n"))
        let change = try TasksBinary.run([
            "model", "diagram", journal, "--from", "Journal 1", "--to", "Journal 3", "--format", "dot",
        ])
        #expect(change.status == 0 && change.stdout.hasPrefix("digraph model {\n"), "\(change.stderr)")
        #expect(change.stdout.contains("String body [renamed from text]\\l"))
        #expect(change.stdout.contains("Integer32? mood [converted from Integer16]\\l"))
        // Into the current version, through the versions between: Journal 1's text became content by way of body.
        let chained = try TasksBinary.run(["model", "diagram", journal, "--from", "Journal 1"])
        #expect(chained.status == 0 && chained.stdout.contains("    String content [renamed from text]\n"))
        let toAlone = try TasksBinary.run(["model", "diagram", journal, "--to", "Journal 3"])
        #expect(toAlone.status == 64 && toAlone.stderr.hasPrefix("Error: --to needs --from"), "\(toAlone.stderr)")
        let both = try TasksBinary.run([
            "model", "diagram", journal, "--from", "Journal 1", "--model-version", "Journal 2",
        ])
        #expect(both.status == 64 && both.stdout.isEmpty)
        let format = try TasksBinary.run(["model", "diagram", journal, "--format", "svg"])
        #expect(format.status == 64 && format.stderr.contains("mermaid, dot"), "\(format.stderr)")
        let unknown = try TasksBinary.run(["model", "diagram", journal, "--from", "Journal 9"])
        #expect(unknown.status == 64 && unknown.stderr.contains("has no version Journal 9"))
        // The sample store keeps the model cache tasks wrote with it: drawn; without it there is nothing to draw.
        let scratch = try Scratch()
        let sample = try scratch.sampleStore()
        let drawn = try TasksBinary.run(["model", "diagram", "--store", sample])
        #expect(drawn.status == 0 && drawn.stdout.contains("Task"), "\(drawn.stderr)")
        try Database(path: sample, mode: .readWrite).execute("DELETE FROM Z_MODELCACHE")
        let store = try TasksBinary.run(["model", "diagram", "--store", sample])
        #expect(store.status == 65 && store.stderr.contains("keeps no model cache"), "\(store.stderr)")
    }

    @Test("hashes: one block per version; the JSON's hashes are what a store made by new-store records")
    func hashes() throws {
        let text = try TasksBinary.run(["model", "hashes", Self.ledger])
        #expect(text.status == 0 && text.stderr.isEmpty)
        #expect(
            text.stdout.contains("\nLedger 1: version identifiers [\"1\"]\n")
                && text.stdout.contains("\nLedger 2 (current): version identifiers [\"2\"]\n"))
        let json = try Self.json(
            try TasksBinary.run(["model", "hashes", Self.ledger, "--model-version", "Ledger 2", "--json"]))
        let versions = try #require(json["versions"] as? [[String: Any]])
        #expect(versions.count == 1)
        let entities = try #require(versions[0]["entities"] as? [String: String])
        let scratch = try Scratch()
        let made = try TasksBinary.run(["model", "new-store", Self.ledger, "-o", scratch.path("new.sqlite")])
        #expect(
            made.status == 0 && made.stdout.isEmpty
                && made.stderr.hasPrefix("Created \(scratch.path("new.sqlite")): an empty store for Ledger 2"))
        let snapshot = try StoreSnapshot(path: scratch.path("new.sqlite"))
        let metadata = try #require(try StoreMetadata(of: snapshot))
        #expect(entities == metadata.versionHashes.mapValues { Data($0).base64EncodedString() })
        #expect(versions[0]["checksum"] as? String == metadata.checksum)
        // The new store is identified as Ledger 2, and an existing path is refused without being touched.
        let identify = try TasksBinary.run([
            "model", "identify", "--store", scratch.path("new.sqlite"), "--model", Self.ledger,
        ])
        #expect(identify.status == 0 && identify.stdout.contains("\nMade by: Ledger 2\n"))
        let again = try TasksBinary.run(["model", "new-store", Self.ledger, "-o", scratch.path("new.sqlite")])
        #expect(again.status == 73 && again.stderr.contains("already exists"))
    }

    @Test(
        "identify names the version that made each shared store; EasyLife 1.3.0 exits 1 with the closest version explained",
        .enabled(
            if: ModelCommandTests.sharedAvailable,
            "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared)"
        ))
    func identifyShared() throws {
        let expected: [(store: String, model: String, version: String?)] = [
            (
                "BrowserServicesKit-Bookmarks/Bookmarks_V2.sqlite",
                "BrowserServicesKit-Bookmarks/BookmarksModel.xcdatamodeld", "BookmarksModel 2"
            ),
            (
                "BrowserServicesKit-Bookmarks/Bookmarks_V5.sqlite",
                "BrowserServicesKit-Bookmarks/BookmarksModel.xcdatamodeld", "BookmarksModel 5"
            ),
            (
                "CoreDataPlus-SampleModel/SampleModel_V1.sqlite", "CoreDataPlus-SampleModel/SampleModel.momd",
                "SampleModel"
            ),
            (
                "CoreDataPlus-SampleModel/SampleModel_V2.sqlite",
                "CoreDataPlus-SampleModel/SampleModel.momd/SampleModel2.mom", "SampleModel2"
            ),
            (
                "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite",
                "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel", "SampleModel3"
            ),
            ("EasyLife/EasyLife 1.5.0.sqlite", "EasyLife/EasyLife.xcdatamodeld", "EasyLife 1.5.0"),
            ("EasyLife/EasyLife 1.3.0.sqlite", "EasyLife/EasyLife.xcdatamodeld", nil),
        ]
        for (store, model, version) in expected {
            let scratch = try Scratch()
            let path = try Self.copyStore(store, to: scratch)
            let run = try TasksBinary.run([
                "model", "identify", "--json", "--store", path, "--model", Self.sharedPath(model),
            ])
            #expect(run.status == (version == nil ? 1 : 0), "\(store)")
            let json = try Self.json(run)
            #expect(json.keys.contains("version"))
            #expect(json["version"] as? String == version, "\(store)")
            if version == nil {
                #expect(json["version"] is NSNull)
                #expect(json["closest"] as? String == "EasyLife 1.3.0")
                let text = try TasksBinary.run([
                    "model", "identify", "--store", path, "--model", Self.sharedPath(model),
                ])
                #expect(text.status == 1)
                #expect(
                    text.stdout.contains(
                        "Closest: EasyLife 1.3.0, which differs from the store in:\n  Project.todoItem: added: relationship todoItem is new in the version\n  TodoItem.project: added: relationship project is new in the version\n"
                    ))
            }
        }
    }

    @Test(
        "import --model-from a model version makes a store that version identifies as its own",
        .enabled(
            if: ModelCommandTests.sharedAvailable,
            "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared)"
        ))
    func importModelFrom() throws {
        let scratch = try Scratch()
        let store = try Self.copyStore("EasyLife/EasyLife 1.5.0.sqlite", to: scratch)
        let mapping = TasksBinary.sample("easylife-mapping.json")
        let export = try TasksBinary.run([
            "export", "--store", store, "--mapping", mapping, "-o", scratch.path("e.json"),
        ])
        #expect(export.status == 0)
        let model = Self.sharedPath("EasyLife/EasyLife.xcdatamodeld")
        let imported = try TasksBinary.run([
            "import", scratch.path("e.json"), "--store", scratch.path("new.sqlite"), "--mapping", mapping,
            "--model-from", model, "--model-version", "EasyLife 1.5.0",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("Imported 0 projects, 0 categories, 0 tags, 6 tasks"))
        let identify = try Self.json(
            try TasksBinary.run([
                "model", "identify", "--json", "--store", scratch.path("new.sqlite"), "--model", model,
            ]))
        #expect(identify["version"] as? String == "EasyLife 1.5.0")
        // A version given with a store template is a usage mistake the library reports.
        let wrong = try TasksBinary.run([
            "import", scratch.path("e.json"), "--store", scratch.path("other.sqlite"), "--mapping", mapping,
            "--model-from", store, "--model-version", "EasyLife 1.5.0",
        ])
        #expect(wrong.status == 64 && wrong.stderr.contains("a model version applies to a model"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("other.sqlite")))
    }

    @Test("swiftdata writes the reviewed files; lint prints codes and places")
    func swiftDataAndLint() throws {
        let scratch = try Scratch()
        let run = try TasksBinary.run(["model", "swiftdata", Self.ledger, "-o", scratch.path("out")])
        #expect(run.status == 0 && run.stdout.isEmpty)
        #expect(run.stderr.contains("note: entity Task would hide Swift's or SwiftData's Task"))
        #expect(run.stderr.hasSuffix("Wrote 13 files to \(scratch.path("out"))\n"))
        let expected = TasksBinary.repository.appendingPathComponent("Tests/tasksTests/Fixtures/swiftdata/Ledger").path
        let names = try FileManager.default.contentsOfDirectory(atPath: expected).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("out")).sorted() == names)
        for name in names {
            #expect(
                try scratch.bytes("out/" + name) == Data(contentsOf: URL(fileURLWithPath: expected + "/" + name)),
                "\(name)")
        }
        let again = try TasksBinary.run(["model", "swiftdata", Self.ledger, "-o", scratch.path("out")])
        #expect(again.status == 73)
        let lint = try TasksBinary.run(["model", "lint", Self.ledger, "--cloudkit"])
        #expect(lint.status == 0)
        #expect(
            lint.stdout.contains(
                "\nML003 error Transaction.account: required relationship: CloudKit needs every relationship optional\n"
            ))
        #expect(lint.stdout.hasSuffix(" findings\n"))
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: try TasksBinary.run(["model", "lint", Self.ledger, "--json"]).stdoutData) as? [[String: Any]])
        #expect(json.contains { $0["code"] as? String == "ML009" && $0["entity"] as? String == "Predicate" })
    }

    @Test(
        ".momd hashes agree with VersionInfo.plist; swiftdata and lint read a store's own model with --store",
        .enabled(
            if: ModelCommandTests.sharedAvailable,
            "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared)"
        ))
    func compiledAndStore() throws {
        let hashes = try TasksBinary.run([
            "model", "hashes", Self.sharedPath("CoreDataPlus-SampleModel/SampleModel.momd"),
        ])
        #expect(hashes.status == 0)
        #expect(hashes.stdout.components(separatedBy: "  VersionInfo.plist hashes: equal\n").count - 1 == 3)
        #expect(!hashes.stdout.contains("DIFFER"))
        let scratch = try Scratch()
        let store = try Self.copyStore("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", to: scratch)
        let generated = try TasksBinary.run(["model", "swiftdata", "--store", store, "-o", scratch.path("out")])
        #expect(generated.status == 0 && generated.stderr.hasSuffix("Wrote 6 files to \(scratch.path("out"))\n"))
        let car = try String(contentsOfFile: scratch.path("out/SampleModel_V2Schema+Car.swift"), encoding: .utf8)
        #expect(car.contains("    class Car {") && car.contains("@Attribute(.unique) var numberPlate: String"))
        let lint = try TasksBinary.run(["model", "lint", "--store", store])
        #expect(
            lint.status == 0
                && lint.stdout.contains(
                    "ML002 note Person.firstName,lastName: unique constraint on firstName, lastName")
        )
    }
}
