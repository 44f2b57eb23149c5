import Foundation
import TaskInterchange
import Testing

/// The whole store through the command line: the generic section on export, `--keep-identity` restores, targets
/// that lack an entity (a warning with a count, `--strict` a failure, the dry run agreeing), and modes.
@Suite(
    "tasks: every entity travels",
    .enabled(
        if: SharedFixtures.exists("real-stores/Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite"),
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct WholeStoreCommandTests {
    /// A private copy of the Bookmarks store (with its -wal and -shm).
    static func copy(to scratch: Scratch) throws -> String {
        try SharedFixtures.copy(
            "real-stores/Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite", into: scratch,
            as: "Bookmarks.sqlite")
    }

    @Test("export says where each entity went; --keep-identity restores a store whose export is the same")
    func restore() throws {
        let scratch = try Scratch()
        let store = try Self.copy(to: scratch)
        let export = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("10 entity records from"))
        #expect(export.stderr.contains("  typed: none; generic: BookmarkEntity 10\n"))
        #expect(!export.stderr.contains("unmapped-entity"))
        let validate = try TasksBinary.run(["validate", scratch.path("a.json")])
        #expect(validate.status == 0, "\(validate.stderr)\(validate.stdout)")

        let restore = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--model-from", store, "--keep-identity",
            scratch.path("a.json"),
        ])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stderr.contains("  BookmarkEntity (generic): 10 inserted; 57 values: 57 arrived\n"))
        let again = try TasksBinary.run(["export", "--store", scratch.path("new.sqlite")])
        #expect(again.status == 0)
        #expect(
            contentLines(again.stdout)
                == contentLines(try String(contentsOfFile: scratch.path("a.json"), encoding: .utf8)))
        #expect(again.stdout.contains("\"storeUUID\":\"729EA06D-F512-407C-A56C-326316BFB40E\""))

        // An existing store keeps its own identity: refused before anything is read.
        let existing = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--keep-identity", scratch.path("a.json"),
        ])
        #expect(existing.status == 64)
        #expect(existing.stderr.contains("--keep-identity restores into a new store only"))
        // The same ids again: insert refuses them, upsert finds them as the archive has them and writes nothing.
        let insert = try TasksBinary.run(["import", "--store", scratch.path("new.sqlite"), scratch.path("a.json")])
        #expect(insert.status == 65)
        #expect(
            insert.stderr.contains(
                "$.entities.BookmarkEntity[0].id: BookmarkEntity A2C0A8AC-866F-58F3-A21E-839E680E6486 already exists"))
        let upsert = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--mode", "upsert", scratch.path("a.json"),
        ])
        #expect(upsert.status == 0, "\(upsert.stderr)")
        #expect(upsert.stderr.contains("  BookmarkEntity (generic): 0 inserted, 10 unchanged; 57 values: 57 arrived\n"))
        #expect(upsert.stderr.contains("Nothing written to "))
        let after = try TasksBinary.run(["export", "--store", scratch.path("new.sqlite")])
        #expect(contentLines(after.stdout) == contentLines(again.stdout))
    }

    @Test("a target without the entity: a warning with a count; --strict fails, writes nothing, and the dry run agrees")
    func lackingEntity() throws {
        let scratch = try Scratch()
        let store = try Self.copy(to: scratch)
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let target = try scratch.sampleStore()
        let before = try scratch.bytes("TaskManager.sqlite")

        let strictDryRun = try TasksBinary.run([
            "import", "--store", target, "--strict", "--dry-run", scratch.path("a.json"),
        ])
        let strict = try TasksBinary.run(["import", "--store", target, "--strict", scratch.path("a.json")])
        #expect(strict.status == 65)
        #expect(
            strict.stderr.contains(
                "Error: --strict: the target has no place for BookmarkEntity (10); nothing was written"))
        #expect(strictDryRun.status == strict.status)
        #expect(DryRunParityTests.problems(strictDryRun.stderr) == DryRunParityTests.problems(strict.stderr))
        #expect(try scratch.bytes("TaskManager.sqlite") == before)

        let lenient = try TasksBinary.run(["import", "--store", target, scratch.path("a.json")])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(
            lenient.stderr.contains("warning: BookmarkEntity: the target has no such entity; 10 records not imported"))
    }
}

/// The shared Bookmarks store (read only through copies).
