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
        let skipped = try TasksBinary.run(["import", "--store", scratch.path("new.sqlite"), "--mode", "skip", "--verify", "--json-summary", b])
        #expect(skipped.status == 1, "\(skipped.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(skipped.stderr.utf8)) as? [String: Any]
        let verification = summary?["verification"] as? [String: Any]
        #expect(verification?["verified"] as? Bool == false)
        #expect(verification?["differenceCount"] as? Int == 1)
    }
}
