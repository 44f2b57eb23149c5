import Foundation
import Testing

@testable import TaskInterchange

/// Names given to `import` (`--modified-property`, `--match`, `--entities`) are checked against the archive's
/// declarations and the target's model before any work (issue 23, item 4): an unknown name is a usage error (64)
/// with the closest name, and nothing is written — not even the `--backup` copy.
@Suite("import: names checked before any work")
struct NameOptionTests {
    /// The sample store with a `lastEdited` date column, and its export. Its model cache is removed: the built-in
    /// model's cache does not know the column, and a store without one is read by its columns.
    func storeAndArchive(_ scratch: Scratch) throws -> (store: String, archive: String) {
        let store = try scratch.sampleStore()
        try Database(path: store, mode: .readWrite).execute(
            "ALTER TABLE ZTASK ADD COLUMN ZLASTEDITED TIMESTAMP; DELETE FROM Z_MODELCACHE")
        let archive = scratch.path("a.json")
        #expect(try TasksBinary.run(["export", store, "-o", archive]).status == 0)
        return (store, archive)
    }

    @Test("a misspelled --modified-property is 64 with the closest date attribute; a non-date is named as one")
    func modifiedProperty() throws {
        let scratch = try Scratch()
        let (store, archive) = try storeAndArchive(scratch)
        let before = try scratch.bytes("TaskManager.sqlite")
        let misspelled = try TasksBinary.run([
            "import", "--store", store, "--mode", "merge", "--modified-property", "lastEdits",
            "--backup", scratch.path("backup.sqlite"), archive,
        ])
        #expect(misspelled.status == 64)
        #expect(
            misspelled.stderr.hasPrefix(
                "Error: --modified-property lastEdits: neither the archive nor the target's model has "
                    + "an attribute 'lastEdits' (did you mean 'lastedited'?); their date attributes: createdat, "
                    + "duedate, lastedited\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("backup.sqlite")))
        #expect(try scratch.bytes("TaskManager.sqlite") == before)

        let notADate = try TasksBinary.run([
            "import", "--store", store, "--mode", "merge", "--modified-property", "Title", archive,
        ])
        #expect(notADate.status == 64)
        #expect(
            notADate.stderr.hasPrefix(
                "Error: --modified-property Title: Subtask.title is a varchar attribute, not a date\n"))

        let known = try TasksBinary.run([
            "import", "--store", store, "--mode", "merge", "--modified-property", "lastEdited", archive,
        ])
        #expect(known.status == 0, "\(known.stderr)")
    }

    @Test("a new store is checked against the model it is made from")
    func newStore() throws {
        let scratch = try Scratch()
        let target = scratch.path("new.sqlite")
        let run = try TasksBinary.run([
            "import", "--store", target, "--mode", "merge", "--modified-property", "createdAtt",
            TasksBinary.sample("TaskManager.v2.json"),
        ])
        #expect(run.status == 64)
        #expect(run.stderr.contains("(did you mean 'createdAt'?)"))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("--match and --entities names the archive lacks: 64 before the backup is made")
    func matchAndEntities() throws {
        let scratch = try Scratch()
        let (store, archive) = try storeAndArchive(scratch)
        for arguments in [["--mode", "upsert", "--match", "Task.titel"], ["--entities", "Taks"]] {
            let run = try TasksBinary.run(
                ["import", "--store", store, "--backup", scratch.path("backup.sqlite")] + arguments + [archive])
            #expect(run.status == 64)
            #expect(run.stderr.contains("'Task'"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("backup.sqlite")))
        }
    }
}
