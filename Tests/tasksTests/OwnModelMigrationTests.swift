import Foundation
import TaskInterchange
import Testing

/// A store no version of the app's model wrote: with a model cache it is read with that, its own model, and mapped
/// from it onto the closest version and through the versions after; without one it is refused (65) naming the
/// closest version.
@Suite("migrate --model from the store's own model")
struct OwnModelMigrationTests {
    /// The rows of every entity table of a store, for comparing two stores' contents.
    static func contents(_ path: String) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        var lines: [String] = []
        for table in try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' "
                + "AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE') ORDER BY name")
        {
            let name = table[0].string ?? ""
            lines.append("== \(name)")
            lines += try database.rows("SELECT * FROM \(Database.quote(name)) ORDER BY 1, 2").map { "\($0)" }
        }
        return lines
    }

    @Test(
        "a store whose version was deleted from the model: carried from its model cache through the closest version",
        .enabled(
            if: SharedFixtures.exists("models/CoreDataPlus-SampleModel"),
            "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
        ))
    func fromModelCache() throws {
        let scratch = try Scratch()
        let legacy = try SharedFixtures.copy("models/CoreDataPlus-SampleModel/SampleModel_V1.sqlite", into: scratch)
        let full = scratch.path("Full.xcdatamodeld")
        try FileManager.default.copyItem(
            atPath: SharedFixtures.path("models/CoreDataPlus-SampleModel/SampleModel.xcdatamodeld"), toPath: full)
        // The same model without the version that wrote the store, SampleModel3 current.
        let reduced = scratch.path("Reduced.xcdatamodeld")
        try FileManager.default.copyItem(atPath: full, toPath: reduced)
        try FileManager.default.removeItem(atPath: reduced + "/SampleModel.xcdatamodel")
        try ModelVersionPropertyTests.setCurrentVersion("SampleModel3", of: reduced)
        func migrate(_ model: String, to target: String, _ extra: [String] = []) throws -> TasksBinary.Run {
            try TasksBinary.run(
                [
                    "migrate", "--from", legacy, "--to", scratch.path(target), "--backup", scratch.path("backups"),
                    "--model", model, "--model-version", "SampleModel3",
                ] + extra)
        }
        let plan = try migrate(reduced, to: "plan.sqlite", ["--dry-run"])
        #expect(plan.status == 0, "\(plan.stderr)")
        let first = plan.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            first.contains("from the store's own model (its model cache: no version of")
                && first.contains("the closest is SampleModel2"), "\(plan.stdout)")
        #expect(plan.stdout.contains("  the store's own model → SampleModel2: "), "\(plan.stdout)")
        #expect(plan.stdout.contains("  SampleModel2 → SampleModel3: "), "\(plan.stdout)")

        let fromCache = try migrate(reduced, to: "cache.sqlite")
        #expect(fromCache.status == 0, "\(fromCache.stderr)")
        #expect(fromCache.stderr.contains("; verified;"), "\(fromCache.stderr)")
        let withVersion = try migrate(full, to: "version.sqlite")
        #expect(withVersion.status == 0, "\(withVersion.stderr)")
        let cacheRows = try Self.contents(scratch.path("cache.sqlite"))
        #expect(cacheRows.count > 100)
        #expect(cacheRows == (try Self.contents(scratch.path("version.sqlite"))))
        // The store's export (read by its own model cache) verified against the new store through the same steps.
        let archive = scratch.path("legacy.json")
        #expect(try TasksBinary.run(["export", "--store", legacy, "-o", archive]).status == 0)
        let verify = try TasksBinary.run([
            "verify", "--store", scratch.path("cache.sqlite"), "--model", reduced, archive,
        ])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("a store made by a version since deleted from the model: read by its cache alone, carried through the rest")
    func deletedVersion() throws {
        let scratch = try Scratch()
        let model = scratch.path("Journal.xcdatamodeld")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal.xcdatamodeld"), toPath: model)
        // A Journal 1 store with a model cache (made for that version), holding the sample's records.
        let legacy = scratch.path("legacy.sqlite")
        try #require(
            try TasksBinary.run(["model", "new-store", model, "--model-version", "Journal 1", "-o", legacy]).status == 0
        )
        let sample = scratch.path("Journal-v1.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: sample)
        let archive = scratch.path("v1.json")
        try #require(try TasksBinary.run(["export", "--store", sample, "--model", model, "-o", archive]).status == 0)
        let filled = try TasksBinary.run(["import", archive, "--store", legacy])
        try #require(filled.status == 0, "\(filled.stderr)")
        let texts = try Database(path: legacy, mode: .readOnly(immutable: false)).rows(
            "SELECT Z_PK, ZTEXT FROM ZENTRY ORDER BY 1")
        #expect(texts.count == 6)
        try FileManager.default.removeItem(atPath: model + "/Journal 1.xcdatamodel")
        let target = scratch.path("new.sqlite")
        let run = try TasksBinary.run([
            "migrate", "--from", legacy, "--to", target, "--backup", scratch.path("backups"), "--model", model,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("from the store's own model"), "\(run.stderr)")
        #expect(run.stderr.contains("; verified;"), "\(run.stderr)")
        let contents = try Database(path: target, mode: .readOnly(immutable: false)).rows(
            "SELECT Z_PK, ZCONTENT FROM ZENTRY ORDER BY 1")
        #expect(contents == texts)
    }

    @Test("a store with no model cache that no version wrote: refused (65), the closest version named, nothing made")
    func noCacheNoVersion() throws {
        let scratch = try Scratch()
        let legacy = scratch.path("Journal-v1.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: legacy)
        let model = scratch.path("Journal.xcdatamodeld")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal.xcdatamodeld"), toPath: model)
        try FileManager.default.removeItem(atPath: model + "/Journal 1.xcdatamodel")
        let run = try TasksBinary.run([
            "migrate", "--from", legacy, "--to", scratch.path("new.sqlite"), "--backup", scratch.path("backups"),
            "--model", model,
        ])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("no version of \(model) wrote this store"), "\(run.stderr)")
        #expect(run.stderr.contains("the closest is Journal 2"), "\(run.stderr)")
        #expect(run.stderr.contains("keeps no model cache"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
    }
}
