import Foundation
import TaskInterchange
import Testing

/// `tasks migrate --model`: a store of an app's own model into a new store of that model, every entity carried and
/// verified (without it, the built-in task model has none of the entities and the migration fails).
@Suite("tasks migrate --model")
struct MigrateModelTests {
    @Test("an app model's store migrates into a new store of the model, its entities listed, verified")
    func migrateWithModel() throws {
        let scratch = try Scratch()
        let (model, source) = try ExternalStorageCommandTests.modelAndStore(in: scratch)
        try Database(path: source, mode: .readWrite).execute(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION, ZDATA) VALUES (1, 1, 1, 'one', x'0168690a'),"
                + " (2, 1, 1, 'two', NULL); UPDATE Z_PRIMARYKEY SET Z_MAX = 3")
        // A third photo kept in an external file beside the legacy store.
        let name = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
        let files = ExternalData(store: source).directory
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        try Data("a large photo".utf8).write(to: URL(fileURLWithPath: files + "/" + name))
        let insert = try Database(path: source, mode: .readWrite).prepare(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION, ZDATA) VALUES (3, 1, 1, 'three', ?)")
        try insert.execute([.blob(ExternalData.reference(name))])
        try FileManager.default.createDirectory(atPath: scratch.path("backup"), withIntermediateDirectories: true)
        let migrate = try TasksBinary.run([
            "migrate", "--from", source, "--to", scratch.path("New.sqlite"), "--backup", scratch.path("backup"),
            "--model", model,
        ])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stderr.contains("verified"), "\(migrate.stderr)")
        #expect(migrate.stderr.contains("generic: Photo 3"), "\(migrate.stderr)")
        #expect(!migrate.stderr.contains("missing-external-data"), "\(migrate.stderr)")
        let copied = ExternalData(store: scratch.path("New.sqlite")).directory + "/" + name
        #expect(FileManager.default.contents(atPath: copied) == Data("a large photo".utf8))
        let rows = try Database(path: scratch.path("New.sqlite"), mode: .readOnly(immutable: false)).rows(
            "SELECT Z_PK, ZCAPTION, quote(ZDATA) FROM ZPHOTO ORDER BY Z_PK")
        #expect(
            rows.map { $0.map { $0.string ?? "\($0.int64 ?? -1)" } }.prefix(2) == [
                ["1", "one", "X'0168690A'"], ["2", "two", "NULL"],
            ])
        let usage = try TasksBinary.run([
            "migrate", "--from", source, "--to", scratch.path("Other.sqlite"), "--model-version", "X",
        ])
        #expect(usage.status == 64)
    }
}

/// `tasks verify --model`: read with the model (or the store's model cache), a store's values compare as the app
/// stores them (an external-storage attribute's marker byte stripped); with neither, they do not.
@Suite("tasks verify --model")
struct VerifyModelTests {
    @Test(
        "import --model-from a model, then verify with the model or its cache: verified; with neither: the marker differs"
    )
    func verifyWithModel() throws {
        let scratch = try Scratch()
        let (model, source) = try ExternalStorageCommandTests.modelAndStore(in: scratch)
        try Database(path: source, mode: .readWrite).execute(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION, ZDATA) VALUES (1, 1, 1, 'one', x'0168690a');"
                + "UPDATE Z_PRIMARYKEY SET Z_MAX = 1")
        let archive = scratch.path("photos.json")
        let export = try TasksBinary.run(["export", "--store", source, "--model", model, "-o", archive])
        #expect(export.status == 0, "\(export.stderr)")
        let store = scratch.path("New.sqlite")
        let imported = try TasksBinary.run(["import", "--store", store, "--model-from", model, "--verify", archive])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("verified"), "\(imported.stderr)")
        let withModel = try TasksBinary.run(["verify", "--store", store, "--model", model, archive])
        #expect(withModel.status == 0, "\(withModel.stdout)\(withModel.stderr)")
        // The new store carries the model's cache, so it reads the same without the model.
        let without = try TasksBinary.run(["verify", "--store", store, archive])
        #expect(without.status == 0, "\(without.stdout)")
        try Database(path: store, mode: .readWrite).execute("DELETE FROM Z_MODELCACHE")
        let neither = try TasksBinary.run(["verify", "--store", store, archive])
        #expect(neither.status == 1, "\(neither.stdout)")
        #expect(neither.stdout.contains("data: \"aGkK\" → \"AWhpCg==\""), "\(neither.stdout)")
        // diff reads a store side the same way.
        let diff = try TasksBinary.run(["diff", "--model", model, archive, source])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        let bare = try TasksBinary.run(["diff", archive, source])
        #expect(bare.status == 0, "\(bare.stdout)")
        // Into an existing store made from the model: written with the model, markers kept.
        let existing = scratch.path("Existing.sqlite")
        #expect(try TasksBinary.run(["model", "new-store", model, "-o", existing]).status == 0)
        let into = try TasksBinary.run(["import", "--store", existing, "--model", model, "--verify", archive])
        #expect(into.status == 0, "\(into.stderr)")
        let data = try Database(path: existing, mode: .readOnly(immutable: false)).scalar(
            "SELECT quote(ZDATA) FROM ZPHOTO")
        #expect(data?.string == "X'0168690A'")
        // inspect describes it with the model: names, types, external storage, and its layout checked.
        let inspect = try TasksBinary.run(["inspect", "--store", source, "--model", model])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("    data: binaryData (optional, external storage)\n"), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("  every table and column is where the model puts it\n"))
    }
}
