import Foundation
import Testing
import TaskInterchange

@Suite("diff and verify commands")
struct DiffCommandTests {
    /// The sample store's export with one task's title changed and another task removed (counts kept right).
    static func changedArchive(_ scratch: Scratch) throws -> (original: String, changed: String, title: String) {
        let store = try scratch.sampleStore()
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        var archive = try Archive(json: try scratch.bytes("a.json"))
        let title = archive.tasks[0].title
        archive.tasks[0].title = "Changed by the test"
        archive.tasks.remove(at: 1)
        try archive.jsonData().write(to: URL(fileURLWithPath: scratch.path("b.json")))
        return (scratch.path("a.json"), scratch.path("b.json"), title)
    }

    @Test("diff: a store and its export are equal (exit 0); a changed file differs (exit 1) with the field named")
    func diff() throws {
        let scratch = try Scratch()
        let (a, b, title) = try Self.changedArchive(scratch)
        let same = try TasksBinary.run(["diff", scratch.path("TaskManager.sqlite"), a])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("A and B hold the same graph"))
        #expect(same.stdout.contains("task      44 ↔ 44"))

        let different = try TasksBinary.run(["diff", a, b])
        #expect(different.status == 1, "\(different.stderr)")
        #expect(different.stdout.contains("title: \"\(title)\" → \"Changed by the test\""))
        #expect(different.stdout.contains(": only in A"))
        #expect(different.stdout.contains("A and B differ: 2 records"))
        #expect(different.stderr.isEmpty)

        let json = try TasksBinary.run(["diff", "--json", a, b])
        #expect(json.status == 1)
        let decoded = try JSONDecoder().decode(GraphDiff.self, from: json.stdoutData)
        #expect(decoded.differenceCount == 2)
        #expect(decoded.records.contains { $0.change == .onlyInA && $0.kind == .task })
        #expect(decoded.records.contains { $0.fields.first?.field == "title" })

        // The same file through stdin.
        let piped = try TasksBinary.run(["diff", "-", b], stdin: try scratch.bytes("a.json"))
        #expect(piped.status == 1)
        #expect(piped.stdout.contains("A: stdin"))
    }

    @Test("diff: trouble is 64 and above, never 1; --help says so")
    func trouble() throws {
        let scratch = try Scratch()
        let (a, _, _) = try Self.changedArchive(scratch)
        #expect(try TasksBinary.run(["diff", a]).status == 64)
        let missing = try TasksBinary.run(["diff", a, scratch.path("missing.json")])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("missing.json: no such file"))
        try Data("{\"version\":2,\"projects\":[".utf8).write(to: URL(fileURLWithPath: scratch.path("broken.json")))
        let broken = try TasksBinary.run(["diff", a, scratch.path("broken.json")])
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("broken.json: $"))
        #expect(broken.stdout.isEmpty)
        let help = try TasksBinary.run(["diff", "--help"])
        #expect(help.stdout.contains("0 when the graphs are equal, 1 when they differ"))
        #expect(try TasksBinary.run(["--help"]).stdout.contains("verify"))
    }

    @Test("verify: an imported store holds the file (exit 0); an edited store does not (exit 1)")
    func verify() throws {
        let scratch = try Scratch()
        let (a, _, _) = try Self.changedArchive(scratch)
        #expect(try TasksBinary.run(["import", "--store", scratch.path("new.sqlite"), a]).status == 0)
        let verified = try TasksBinary.run(["verify", "--store", scratch.path("new.sqlite"), a])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.contains("verified: \(scratch.path("new.sqlite")) holds every record"))
        let database = try Database(path: scratch.path("new.sqlite"), mode: .readWrite)
        try database.execute("UPDATE ZTASK SET ZISCOMPLETED = 1 - ZISCOMPLETED WHERE Z_PK = 3")
        let failed = try TasksBinary.run(["verify", "--store", scratch.path("new.sqlite"), a])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("isCompleted:"))
        #expect(failed.stdout.contains("not verified: 1 record"))
        #expect(try TasksBinary.run(["verify", "--store", scratch.path("none.sqlite"), a]).status == 66)
    }

    @Test("import --verify reports the check in the summary, and exits 1 when the store does not hold the file")
    func importVerify() throws {
        let scratch = try Scratch()
        let (a, b, _) = try Self.changedArchive(scratch)
        let first = try TasksBinary.run(["import", "--store", scratch.path("new.sqlite"), "--verify", a])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("verified: "))
        // skip keeps the store's version of the changed task: the store does not hold what b.json says.
        let skipped = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--mode", "skip", "--verify", "--json-summary", b,
        ])
        #expect(skipped.status == 1, "\(skipped.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(skipped.stderr.utf8)) as? [String: Any]
        let verification = summary?["verification"] as? [String: Any]
        #expect(verification?["verified"] as? Bool == false)
        #expect(verification?["differenceCount"] as? Int == 1)
    }
}

@Suite("import --match and --mode merge")
struct MergeCommandTests {
    @Test(
        "two independently generated stores: --match name merges same-named projects and tags; dry-run lists the matches"
    )
    func generatedStores() throws {
        let scratch = try Scratch()
        for seed in ["1", "2"] {
            let run = try TasksBinary.run([
                "generate", "--tasks", "40", "--seed", seed, "-o", scratch.path("g\(seed).sqlite"),
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(
            try TasksBinary.run(["export", "--store", scratch.path("g2.sqlite"), "-o", scratch.path("g2.json")]).status
                == 0)
        let dry = try TasksBinary.run([
            "import", "--store", scratch.path("g1.sqlite"), "--mode", "merge", "--match", "name", "--dry-run",
            scratch.path("g2.json"),
        ])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("project: 0 inserted, 100 unchanged, 100 matched by name"))
        #expect(dry.stdout.contains("tag: 0 inserted, 20 unchanged, 20 matched by name"))
        #expect(dry.stdout.contains("task: 40 inserted"))
        #expect(dry.stdout.contains("  match: project "))
        let merged = try TasksBinary.run([
            "import", "--store", scratch.path("g1.sqlite"), "--mode", "merge", "--match", "name",
            scratch.path("g2.json"),
        ])
        #expect(merged.status == 0, "\(merged.stderr)")
        let database = try Database(path: scratch.path("g1.sqlite"), mode: .readOnly(immutable: false))
        #expect(try database.scalar("SELECT count(*) FROM ZPROJECT")?.int64 == 100)
        #expect(try database.scalar("SELECT count(DISTINCT ZNAME) FROM ZTAG")?.int64 == 20)
        #expect(try database.scalar("SELECT count(*) FROM ZTAG")?.int64 == 20)
        #expect(try database.scalar("SELECT count(*) FROM ZTASK")?.int64 == 80)
        #expect(
            try database.scalar("SELECT count(*) FROM ZTASK WHERE ZPROJECT NOT IN (SELECT Z_PK FROM ZPROJECT)")?.int64
                == 0)
        // Without --match, the same file would duplicate every name.
        let duplicate = try TasksBinary.run([
            "import", "--store", scratch.path("g1.sqlite"), "--mode", "skip", "--dry-run", scratch.path("g2.json"),
        ])
        #expect(duplicate.stdout.contains("project: 100 inserted"))
    }

    @Test("--match Entity.attribute names an entity the archive must declare: a usage error when it does not")
    func matchUsage() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let generic = try TasksBinary.run([
            "import", "--store", store, "--match", "Folder.title", "--dry-run", TasksBinary.sample("v1-export.json"),
        ])
        #expect(generic.status == 64)
        #expect(generic.stderr.contains("--match Folder.title: the archive has no entity 'Folder'"))
        let replace = try TasksBinary.run([
            "import", "--store", store, "--match", "name", "--mode", "replace", "--dry-run",
            TasksBinary.sample("v1-export.json"),
        ])
        #expect(replace.status == 64)
        let verify = try TasksBinary.run([
            "import", "--store", store, "--mode", "merge", "--verify", TasksBinary.sample("v1-export.json"),
        ])
        #expect(verify.status == 64)
        #expect(verify.stderr.contains("--verify"))
    }
}
