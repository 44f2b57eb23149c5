import Foundation
import Testing
import TaskInterchange

/// A store `tasks model new-store` made names its own model: later commands read it with no model argument.
@Suite(
    "tasks with a new store's model cache",
    .enabled(
        if: SharedFixtures.exists("models"),
        "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared)"))
struct NewStoreModelCacheCommandTests {
    static let model = SharedFixtures.path("models/CoreDataPlus-SampleModel/SampleModel.xcdatamodeld")

    @Test("export of a new-store store without any model argument gives the model's names and typed values")
    func exportWithoutModel() throws {
        let scratch = try Scratch()
        let store = scratch.path("new.sqlite")
        let made = try TasksBinary.run(["model", "new-store", Self.model, "-o", store])
        #expect(made.status == 0 && !made.stderr.contains("no model cache"), "\(made.stderr)")
        // A row as the app would save it: a UUID in a blob, a date as seconds since 2001.
        let database = try Database(path: store, mode: .readWrite)
        try database.execute(
            """
            INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME, ZID, ZUPDATEDAT) \
            VALUES (1, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'), 1, 'Ada', 'Lovelace', \
            x'1B9FD00DCB9246CD871152970025B782', 700000000.5); \
            UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Person'
            """)
        let inspect = try TasksBinary.run(["inspect", store])
        #expect(
            inspect.status == 0 && inspect.stdout.contains("Model: decoded from Z_MODELCACHE\n"), "\(inspect.stdout)")
        let identify = try TasksBinary.run(["model", "identify", "--store", store, "--model", Self.model])
        #expect(identify.status == 0 && identify.stdout.contains("model cache: yes"), "\(identify.stdout)")

        let export = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("out.json")])
        #expect(export.status == 0 && !export.stderr.contains("no model cache"), "\(export.stderr)")
        let archive = try #require(
            try JSONSerialization.jsonObject(with: try scratch.bytes("out.json")) as? [String: Any])
        let entities = try #require(archive["entities"] as? [String: [[String: Any]]])
        let values = try #require(entities["Person"]?.first?["values"] as? [String: Any])
        // The model's own names (not the columns' lower case), the UUID as a UUID, the date as a date.
        #expect(values["firstName"] as? String == "Ada")
        #expect(values["id"] as? String == "1B9FD00D-CB92-46CD-8711-52970025B782")
        #expect(values["updatedAt"] as? String == "2023-03-08T20:26:40.5Z")
        let model = try #require((archive["source"] as? [String: Any])?["model"] as? [String: Any])
        let car = try #require(model["Car"] as? [String: Any])
        let owner = (car["relationships"] as? [String: Any])?["owner"] as? [String: Any]
        #expect(owner?["destination"] as? String == "Person" && owner?["inverse"] as? String == "cars")
    }

    @Test("new-store says when a model gets no cache, and why")
    func noCache() throws {
        let scratch = try Scratch()
        let made = try TasksBinary.run([
            "model", "new-store", SharedFixtures.path("models/EasyLife/EasyLife.xcdatamodeld"), "-o",
            scratch.path("e.sqlite"),
        ])
        #expect(made.status == 0)
        #expect(
            made.stderr.contains(
                "note: no model cache written (attribute repeats of entity TodoItem has validation bounds"))
        let snapshot = try StoreSnapshot(path: scratch.path("e.sqlite"))
        #expect(try snapshot.database.scalar("SELECT count(*) FROM Z_MODELCACHE")?.int64 == 0)
    }
}
