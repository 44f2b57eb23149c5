import Foundation
import Testing

@testable import TaskInterchange

/// The model-change list as a report: an entity the mapping leaves out is said to be left out (not missing from the
/// target's version), links into it are reported from the side that keeps them, and the report and the migration
/// report it belongs to read the same after a JSON round trip.
@Suite("ModelChangeReport")
struct ModelChangeReportTests {
    /// Journal 1 migrated into Journal 2 with `Label` left out by the mapping: verified, or a dry run.
    static func labelLeftOut(in directory: TemporaryDirectory, dryRun: Bool = false) throws -> MigrationReport {
        let legacy = try SampleStores.copy("Journal-v1.sqlite", to: directory)
        let versions = try VersionChainTests.versions()
        var migration = Migration(legacyStore: legacy, backupDirectory: directory.url.path)
        migration.legacyModel = versions[0].model
        migration.template = StoreTemplate(model: versions[1].model)
        var mapping = StoreMapping(kinds: [:])
        mapping.modelChange = ModelChangeOverrides(entities: ["Label": nil])
        migration.mapping = mapping
        migration.dryRun = dryRun
        return try migration.run(intoStore: directory.path("v2.sqlite"))
    }

    @Test("an entity the mapping leaves out is said to be left out; links into it are dropped and said so, counted")
    func leftOut() throws {
        let directory = try TemporaryDirectory()
        let report = try Self.labelLeftOut(in: directory)
        let records = try #require(report.plan.modelChange.droppedRecords["Label"])
        #expect(records > 0)
        let text = try #require(report.modelChange).description
        #expect(text.contains("  Label: dropped (left out by the mapping; \(records) records)\n"), "\(text)")
        #expect(!text.contains("no such entity"), "\(text)")
        // The entries' links into the labels left out: the same count the plan drops, named on Entry's side.
        let links = report.plan.modelChange.droppedValues["Entry.labels"] ?? 0
        #expect(links > 0, "\(report.plan.modelChange)")
        #expect(
            text.contains("  Entry.labels: links dropped (Label left out by the mapping; \(links) values)\n"),
            "\(text)")
        // The import's warnings say the same of both sides.
        #expect(report.warnings.contains { $0.hasPrefix("Label: left out by the mapping's modelChange;") })
        #expect(
            report.warnings.contains {
                $0.hasPrefix("Entry.labels: links into Label, which the mapping's modelChange leaves out;")
            }, "\(report.warnings)")
        // The verification drops the same links, counted alike, and finds nothing else missing; the keys of the
        // labels left out are no warning of their own (the model change names them).
        let verification = try #require(report.verification)
        #expect(verification.isEqual, "\(verification)")
        #expect(verification.modelChange?.droppedValues["Entry.labels"] == links, "\(verification)")
        #expect(!report.warnings.contains { $0.contains("maxKeys") }, "\(report.warnings)")
        // And the plan counts them on Entry's line, and the labels on their own.
        let plan = String(describing: report.plan)
        #expect(
            plan.contains(
                "  Entry (generic): 6 inserted; 21 values: 21 arrived, \(links) dropped by the model change\n"))
        #expect(plan.contains("  Label (generic): \(records) records dropped by the model change\n"), "\(plan)")
    }

    @Test("an entity the target's version lacks is said to be missing there, not left out")
    func missing() throws {
        let mapping = try VersionMappingTests.mapping(ModelChangeOverrides(fill: ["Memo.kind": .string("k")]))
        var tally = VersionMapping.Tally()
        let tag = EntityRecord(id: UUID(), entity: "Tag", values: ["name": .string("red")])
        #expect(try mapping.apply(tag, path: "$.entities.Tag[0]", tally: &tally) == nil)
        let entries = mapping.report(tally).entries
        #expect(entries.first { $0.subject == "Tag" }?.kind == .entityDropped)
        #expect(
            entries.map(\.description).contains("Tag: dropped (the target's version has no such entity; 1 records)"))
        // Memo.tags links into Tag records, which are dropped with their entity.
        #expect(
            entries.contains {
                $0.kind == .linksDropped && $0.subject == "Note.tags" && $0.detail == "the target's version has no Tag"
            }, "\(entries)")
    }

    @Test("the migration report and its model change read the same after a JSON round trip")
    func codable() throws {
        let directory = try TemporaryDirectory()
        let report = try Self.labelLeftOut(in: directory, dryRun: true)
        let decoded = try JSONDecoder().decode(MigrationReport.self, from: JSONEncoder().encode(report))
        #expect(decoded.description == report.description)
        #expect(decoded.modelChange == report.modelChange)
        #expect(decoded.plan == report.plan)
        #expect(decoded.versionMapping == nil)
        #expect(report.description.contains("Plan for migrating "))
        #expect(report.description.contains("Model change:\n"))
    }
}
