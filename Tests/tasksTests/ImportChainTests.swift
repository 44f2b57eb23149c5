import Foundation
import TaskInterchange
import Testing

/// `import --model` of an archive written under an older version of the model into a store of a later one: carried
/// through every version between (`text → body → content` in the Journal sample), as `migrate` carries a store.
@Suite("import --model through the versions between the archive's and the target's")
struct ImportChainTests {
    @Test("Journal 1's archive into a new and into an existing Journal 4 store: content holds what text held")
    func throughTheChain() throws {
        let scratch = try Scratch()
        let model = TasksBinary.sample("Journal.xcdatamodeld")
        let legacy = scratch.path("Journal-v1.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: legacy)
        let archive = scratch.path("v1.json")
        try #require(try TasksBinary.run(["export", "--store", legacy, "--model", model, "-o", archive]).status == 0)
        let texts = try Database(path: legacy, mode: .readOnly(immutable: false)).rows(
            "SELECT Z_PK, ZTEXT FROM ZENTRY ORDER BY 1")
        #expect(texts.count == 6)
        let existing = scratch.path("existing.sqlite")
        try #require(try TasksBinary.run(["model", "new-store", model, "-o", existing]).status == 0)
        for (target, extra) in [
            (scratch.path("new.sqlite"), [String]()),
            (existing, ["--version-order", "Journal 1,Journal 2,Journal 3,Journal 4"]),
        ] {
            let run = try TasksBinary.run(["import", archive, "--store", target, "--model", model, "--verify"] + extra)
            #expect(run.status == 0, "\(target): \(run.stderr)")
            #expect(run.stderr.contains("Entry.text → Entry.content (renamed)"), "\(run.stderr)")
            #expect(run.stderr.contains("Journal 3 → Journal 4: Entry.body → content (renamed)"), "\(run.stderr)")
            let contents = try Database(path: target, mode: .readOnly(immutable: false)).rows(
                "SELECT ZCONTENT FROM ZENTRY ORDER BY Z_PK")
            #expect(contents.map { $0[0] } == texts.map { $0[1] }, "\(target)")
        }
        // The order names every version, or is a usage error; without --model there is no chain to order.
        let partial = try TasksBinary.run([
            "import", archive, "--store", scratch.path("other.sqlite"), "--model", model, "--version-order",
            "Journal 1,Journal 4",
        ])
        #expect(partial.status == 64, "\(partial.stderr)")
        #expect(partial.stderr.contains("leaves out Journal 2, Journal 3"), "\(partial.stderr)")
        let alone = try TasksBinary.run([
            "import", archive, "--store", scratch.path("other.sqlite"), "--version-order", "Journal 1",
        ])
        #expect(alone.status == 64, "\(alone.stderr)")
    }
}
