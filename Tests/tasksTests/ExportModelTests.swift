import Foundation
import TaskInterchange
import Testing

/// `export --model`: a store that keeps no model cache read with the app's model — its camel-case property names and
/// types — the version found from the hashes the store records.
@Suite(
    "tasks export --model",
    .enabled(
        if: SharedFixtures.exists("models/CoreDataPlus-SampleModel/SampleModel_V1.sqlite"),
        "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct ExportModelTests {
    @Test("without a model cache: lower-cased column names; with --model: the model's names, the version identified")
    func modelNames() throws {
        let scratch = try Scratch()
        let store = try SharedFixtures.copy(
            "models/CoreDataPlus-SampleModel/SampleModel_V1.sqlite", into: scratch, as: "Sample.sqlite")
        // As a framework that kept no model cache would have left it.
        try Database(path: store, mode: .readWrite).execute("DELETE FROM Z_MODELCACHE")
        let model = SharedFixtures.path("models/CoreDataPlus-SampleModel/SampleModel.xcdatamodeld")

        let bare = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("bare.json")])
        #expect(bare.status == 0, "\(bare.stderr)")
        let bareText = try String(contentsOfFile: scratch.path("bare.json"), encoding: .utf8)
        #expect(bareText.contains("\"firstname\"") && !bareText.contains("\"firstName\""))

        let named = try TasksBinary.run(["export", "--store", store, "--model", model, "-o", scratch.path("m.json")])
        #expect(named.status == 0, "\(named.stderr)")
        let namedText = try String(contentsOfFile: scratch.path("m.json"), encoding: .utf8)
        #expect(namedText.contains("\"firstName\"") && !namedText.contains("\"firstname\""))
        #expect(named.stderr.contains("every stored value exported"), "\(named.stderr)")

        let wrong = try TasksBinary.run([
            "export", "--store", store, "--model", model, "--model-version", "Nope", "-o", scratch.path("x.json"),
        ])
        #expect(wrong.status == 64, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("has no version Nope"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.json")))
        let usage = try TasksBinary.run(["export", "--store", store, "--model-version", "SampleModel"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--model-version needs --model"))
    }
}
