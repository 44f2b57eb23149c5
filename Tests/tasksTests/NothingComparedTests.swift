import Foundation
import TaskInterchange
import Testing

/// A check that compared nothing is no proof: `verify` of an archive whose every record belongs to entities the store
/// does not have, and a migration whose destination has none of the source's entities, fail (exit 1, exit 65 with
/// nothing left at the destination) instead of saying "verified".
@Suite("tasks: nothing compared is not verified")
struct NothingComparedTests {
    @Test("verify and migrate refuse to call an empty comparison verified")
    func nothingCompared() throws {
        let scratch = try Scratch()
        let (_, source) = try ExternalStorageCommandTests.modelAndStore(in: scratch)
        let database = try Database(path: source, mode: .readWrite)
        try database.execute(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION) VALUES (1, 1, 1, 'one'), (2, 1, 1, 'two');"
                + "UPDATE Z_PRIMARYKEY SET Z_MAX = 2")
        let export = try TasksBinary.run(["export", "--store", source, "-o", scratch.path("photos.json")])
        #expect(export.status == 0, "\(export.stderr)")

        // A store of the built-in task model has no Photo entity: nothing of the archive can be compared.
        let made = try TasksBinary.run([
            "import", "--store", scratch.path("tasks.sqlite"), TasksBinary.sample("v2-example.json"),
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let target = try TasksBinary.run([
            "import", "--store", scratch.path("tasks.sqlite"), scratch.path("photos.json"),
        ])
        let verify = try TasksBinary.run([
            "verify", "--store", scratch.path("tasks.sqlite"), scratch.path("photos.json"),
        ])
        #expect(target.status == 0, "\(target.stderr)")
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("not verified: none of the 2 records of"), "\(verify.stdout)")

        try FileManager.default.createDirectory(atPath: scratch.path("backup"), withIntermediateDirectories: true)
        let migrate = try TasksBinary.run([
            "migrate", "--from", source, "--to", scratch.path("migrated.sqlite"), "--backup", scratch.path("backup"),
        ])
        #expect(migrate.status != 0, "\(migrate.stderr)")
        #expect(migrate.stderr.contains("has none of the entities of the archive's 2 records"), "\(migrate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("migrated.sqlite")))
    }
}
