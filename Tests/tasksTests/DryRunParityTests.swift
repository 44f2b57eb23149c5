import Foundation
import Testing
import TaskInterchange

/// `import --dry-run` and `validate --store` run the import itself (on a private copy): whenever the import fails they
/// fail with the same exit code and the same message, they succeed only when it does, and they write nothing.
@Suite("Dry run = import")
struct DryRunParityTests {
    struct Case {
        var label: String
        var store: String
        var archive: String
        var mode = "insert"
        var extra: [String] = []
    }

    /// The lines that say what went wrong: issue lines and `Error:` lines (the closing summary lines of an invalid
    /// archive, or of ids the target holds, differ by command).
    static func problems(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter {
            ($0.hasPrefix("error: ") || $0.hasPrefix("Error: ")) && !$0.hasPrefix("Error: the archive is invalid")
                && !$0.contains("already exist in the target store (by id), so nothing was written")
        }
    }

    static func check(_ entry: Case, expectFailure: Bool) throws {
        let directory = URL(fileURLWithPath: entry.store).deletingLastPathComponent()
        let before = try storeFiles(directory)
        let base = ["--store", entry.store, "--mode", entry.mode] + entry.extra
        let dryRun = try TasksBinary.run(["import"] + base + ["--dry-run", entry.archive])
        let validate = try TasksBinary.run(["validate"] + base + [entry.archive])
        #expect(try storeFiles(directory) == before, "\(entry.label): a dry run or validate wrote to the target")
        let real = try TasksBinary.run(["import"] + base + [entry.archive])
        #expect((real.status != 0) == expectFailure, "\(entry.label): import exited \(real.status): \(real.stderr)")
        #expect(
            dryRun.status == real.status,
            "\(entry.label): dry run \(dryRun.status), import \(real.status): \(dryRun.stderr)")
        #expect(
            validate.status == real.status,
            "\(entry.label): validate \(validate.status), import \(real.status): \(validate.stderr)")
        if expectFailure {
            let expected = problems(real.stderr)
            #expect(!expected.isEmpty, "\(entry.label): \(real.stderr)")
            #expect(problems(dryRun.stderr) == expected, "\(entry.label): dry run said \(dryRun.stderr)")
            #expect(problems(validate.stderr) == expected, "\(entry.label): validate said \(validate.stderr)")
            #expect(try storeFiles(directory) == before, "\(entry.label): the failed import wrote to the target")
        } else {
            // The plan a dry run prints is what the import then did.
            let plan = dryRun.stdout.split(separator: "\n").dropFirst().map(String.init)
            #expect(
                !plan.isEmpty && real.stderr.contains(plan.joined(separator: "\n")),
                "\(entry.label): plan \(plan), import \(real.stderr)")
        }
    }

    @Test("every invalid sample, ids already in the store, and a target without an entity the archive needs")
    func failingImports() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let expected = try String(contentsOfFile: TasksBinary.sample("invalid/EXPECTED.tsv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        for row in expected {
            for mode in ["insert", "upsert"] {
                try Self.check(
                    Case(
                        label: "\(row[0]) (\(mode))", store: store, archive: TasksBinary.sample("invalid/" + row[0]),
                        mode: mode),
                    expectFailure: true)
            }
        }
        let own = scratch.path("own.json")
        #expect(try TasksBinary.run(["export", "--store", store, "-o", own]).status == 0)
        try Self.check(Case(label: "ids already in the store", store: store, archive: own), expectFailure: true)

        // A store whose model has no Category entity, while the archive carries categories.
        let other = try Scratch()
        let lacking = other.path("lacking.sqlite")
        #expect(try TasksBinary.run(["import", "--store", lacking, TasksBinary.sample("v2-example.json")]).status == 0)
        do {
            let database = try Database(path: lacking, mode: .readWrite)
            try database.execute("DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Category'; DROP TABLE ZCATEGORY")
        }
        let sample = scratch.path("sample.json")
        #expect(try TasksBinary.run(["export", "--store", store, "-o", sample]).status == 0)
        try Self.check(
            Case(label: "target without a category entity", store: lacking, archive: sample), expectFailure: true)
        let refused = try TasksBinary.run(["import", "--store", lacking, sample])
        #expect(refused.status == 65 && refused.stderr.contains("no category entity"), "\(refused.stderr)")

        // A new store from a template that lacks the entity: the dry run builds it and fails as the import does.
        let newStore = other.path("new.sqlite")
        let dryRun = try TasksBinary.run(["import", "--store", newStore, "--model-from", lacking, "--dry-run", sample])
        let real = try TasksBinary.run(["import", "--store", newStore, "--model-from", lacking, sample])
        #expect(real.status == 65 && dryRun.status == 65, "\(real.stderr) / \(dryRun.stderr)")
        #expect(Self.problems(dryRun.stderr) == Self.problems(real.stderr))
        #expect(!real.stderr.contains(".tasks-"), "the error names the hidden temporary file: \(real.stderr)")
        #expect(
            try !FileManager.default.contentsOfDirectory(atPath: other.url.path).contains {
                $0.hasPrefix("new.sqlite") || $0.contains(".tasks-")
            })
    }

    @Test("imports that succeed: the dry run and validate succeed too, and the plan is what the import did")
    func succeedingImports() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let own = scratch.path("own.json")
        #expect(try TasksBinary.run(["export", "--store", store, "-o", own]).status == 0)
        for mode in ["upsert", "skip"] {
            try Self.check(Case(label: mode, store: store, archive: own, mode: mode), expectFailure: false)
        }
        try Self.check(
            Case(label: "insert of new ids", store: store, archive: TasksBinary.sample("v2-example.json")),
            expectFailure: false)
    }
}
