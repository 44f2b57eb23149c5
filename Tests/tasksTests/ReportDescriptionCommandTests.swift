import Foundation
import TaskInterchange
import Testing

/// The reports the command line prints are the library's descriptions: for the same run, what `tasks` printed equals
/// `String(describing:)` of the report the library returns (times aside), so an app shows what the command shows.
@Suite("tasks prints the library's reports")
struct ReportDescriptionCommandTests {
    /// The text with every `in 0.12 s` made `in _ s`: the one part two runs do not share.
    static func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"in [0-9]+\.[0-9]{2} s"#, with: "in _ s", options: .regularExpression)
    }

    @Test("export: stderr is the summary's description")
    func export() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let run = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("cli.json")])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try Exporter.export(store: store, toFile: scratch.path("library.json"))
        #expect(Self.timeless(run.stderr) == Self.timeless(summary.description))
        #expect(run.stderr.contains("Exported \(summary.counts) from \(store)"), "\(run.stderr)")
    }

    @Test("validate: stderr is the report's issues, then the file's name with the verdict")
    func validate() throws {
        for name in ["v2-example.json", "invalid/duplicate-id.json", "invalid/missing-project.json"] {
            let file = TasksBinary.sample(name)
            let run = try TasksBinary.run(["validate", file])
            let report = try Validator.validate(archiveAt: file)
            #expect(run.stderr == report.notices + "\(file): \(report.verdict)\n")
            #expect(report.description == report.notices + report.verdict + "\n")
            #expect(run.status == (report.isValid ? 0 : 65))
        }
    }

    @Test("import into a new store: stderr is the result's description; its JSON round trip reads the same")
    func importResult() throws {
        let scratch = try Scratch()
        let archive = TasksBinary.sample("v2-example.json")
        let store = scratch.path("new.sqlite")
        let run = try TasksBinary.run(["import", archive, "--store", store])
        #expect(run.status == 0, "\(run.stderr)")
        for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) }
        let result = try StoreImport.run(try ArchiveInput(path: archive), into: store, options: StoreImportOptions())
        #expect(Self.timeless(run.stderr) == Self.timeless(result.description))
        #expect(result.description.hasPrefix(result.notices + "Imported "))
        let decoded = try JSONDecoder().decode(StoreImportResult.self, from: JSONEncoder().encode(result))
        #expect(decoded.description == result.description)
        #expect(decoded.plan == result.plan)
        let plan = try JSONDecoder().decode(ImportPlan.self, from: JSONEncoder().encode(result.plan))
        #expect(plan.description == result.plan.description)
        #expect(result.plan.description.contains("  task: "), "\(result.plan)")
    }

    @Test("migrate --dry-run across model versions: stdout is the migration report's summary, model change and steps")
    func migratePlan() throws {
        let scratch = try Scratch()
        let legacy = scratch.path("Journal-v1.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: legacy)
        let model = TasksBinary.sample("Journal.xcdatamodeld")
        let target = scratch.path("new.sqlite")
        let run = try TasksBinary.run([
            "migrate", "--from", legacy, "--to", target, "--backup", scratch.path("backups"), "--model", model,
            "--dry-run",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let source = try ModelSource(path: model)
        var migration = Migration(legacyStore: legacy, backupDirectory: scratch.path("backups"))
        migration.legacyModel = try source.version(named: "Journal 1").model
        migration.template = StoreTemplate(model: try source.version(named: nil).model)
        migration.modelVersions = ModelVersionOrder(
            inferring: source.versions.map { ModelVersionOrder.Version(name: $0.name, model: $0.model) })
        migration.dryRun = true
        let report = try migration.run(intoStore: target)
        #expect(run.stdout == report.summary)
        #expect(run.stderr.hasSuffix(report.notices), "\(run.stderr)")
        #expect(report.summary.contains("Model change:\n"), "\(report.summary)")
        #expect(report.summary.contains("Through 3 steps"), "\(report.summary)")
        let decoded = try JSONDecoder().decode(MigrationReport.self, from: JSONEncoder().encode(report))
        #expect(decoded.description == report.description)
        let change = try #require(report.modelChange)
        #expect(try JSONDecoder().decode(ModelChangeReport.self, from: JSONEncoder().encode(change)) == change)
    }

    @Test("diff: stdout is the names, the diff's description and its verdict; library text names no flag")
    func diff() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let archive = TasksBinary.sample("v2-example.json")
        let run = try TasksBinary.run(["diff", store, archive, "--limit", "1"])
        #expect(run.status == 1, "\(run.stderr)")
        let diff = try GraphComparison.compare(
            try GraphSource.detecting(path: store, mapping: nil), try GraphSource.detecting(path: archive, mapping: nil)
        )
        let text = diff.description(limit: 1)
        #expect(text.contains(GraphDiff.higherLimit), "\(text)")
        #expect(!text.contains("--"), "\(text)")
        let flags = text.replacingOccurrences(of: GraphDiff.higherLimit, with: "(--limit N or --json to see them)")
        #expect(run.stdout == "A: \(diff.nameA)\nB: \(diff.nameB)\n" + flags + "\n" + diff.comparisonVerdict + "\n")
    }
}
