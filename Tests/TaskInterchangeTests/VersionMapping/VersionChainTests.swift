import Foundation
import Testing

@testable import TaskInterchange

/// The mapping through the versions between a store's and the target's: `ModelVersionOrder` (by name, corrected by
/// renaming identifiers, or given), and `Migration` carrying the Journal sample's first version into its fourth,
/// where `Entry.text` became `body` and then `content`.
@Suite("Model change through the version chain")
struct VersionChainTests {
    static let journal = SampleStores.repository.appendingPathComponent("samples/Journal.xcdatamodeld").path

    static func versions() throws -> [ModelVersionOrder.Version] {
        try ModelSource(path: journal).versions.map { ModelVersionOrder.Version(name: $0.name, model: $0.model) }
    }

    @Test("the order: by name when the identifiers agree; the identifiers' when the names disagree; a path between")
    func order() throws {
        let versions = try Self.versions()
        let byName = ModelVersionOrder(inferring: versions.reversed())
        #expect(byName.versions.map(\.name) == ["Journal 1", "Journal 2", "Journal 3", "Journal 4"])
        #expect(byName.basis == .names)
        // Named so that the names sort Journal 4 ("A") first: its identifier `body` names Journal 2's and 3's
        // attribute, so it comes after them; Journal 2's `text` puts Journal 1 before it.
        var renamed = versions
        renamed[3].name = "A"
        let inferred = ModelVersionOrder(inferring: renamed)
        #expect(inferred.versions.map(\.name) == ["Journal 1", "Journal 2", "Journal 3", "A"])
        #expect(inferred.basis == .renamingIdentifiers)
        #expect(inferred.description.contains("from the renaming identifiers"))
        let path = byName.path(from: versions[0].model, to: versions[3].model)
        #expect(path?.map(\.name) == ["Journal 1", "Journal 2", "Journal 3", "Journal 4"])
        // Adjacent versions, or a target before the source: no chain.
        #expect(byName.path(from: versions[2].model, to: versions[3].model) == nil)
        #expect(byName.path(from: versions[3].model, to: versions[0].model) == nil)
    }

    @Test("Migration: Journal 1 into Journal 4 through every step; refused when mapped directly")
    func migration() async throws {
        let directory = try TemporaryDirectory()
        let legacy = try SampleStores.copy("Journal-v1.sqlite", to: directory)
        let versions = try Self.versions()
        var migration = Migration(legacyStore: legacy, backupDirectory: directory.url.path)
        migration.template = StoreTemplate(model: versions[3].model)
        migration.legacyModel = versions[0].model
        // Directly, `content` is a required attribute Journal 1 does not have, and `text` one Journal 4 drops.
        let direct = directory.path("direct.sqlite")
        await #expect(throws: MigrationError.self) { try await migration.run(intoStore: direct) }
        #expect(!FileManager.default.fileExists(atPath: direct))

        migration.modelVersions = ModelVersionOrder(inferring: versions)
        let target = directory.path("v4.sqlite")
        let report = try await migration.run(intoStore: target)
        let steps = try #require(report.versionMapping?.steps)
        #expect(
            steps.map { "\($0.from) → \($0.to)" } == [
                "Journal 1 → Journal 2", "Journal 2 → Journal 3", "Journal 3 → Journal 4",
            ])
        #expect(steps[2].mapping.entities["Entry"]?.properties["body"]?.target == "content")
        #expect(report.versionMapping?.entities["Entry"]?.properties["text"]?.target == "content")
        #expect(report.plan.modelChange.droppedValues == ["Label.color": 2])
        #expect(report.verification?.isEqual == true)
        // Every entry's text, by SQL, under its final column.
        let before = try Database(path: legacy, mode: .readOnly(immutable: true)).rows(
            "SELECT Z_PK, ZTEXT FROM ZENTRY ORDER BY Z_PK")
        let after = try Database(path: target, mode: .readOnly(immutable: true)).rows(
            "SELECT Z_PK, ZCONTENT FROM ZENTRY ORDER BY Z_PK")
        #expect(before.count == 6)
        #expect(
            before.map { [$0[0].int64, $0[1].string] as [AnyHashable?] } == after.map { [$0[0].int64, $0[1].string] })
    }

    @Test("overrides through a chain name the archive's elements; one the steps before the last removed is refused")
    func overrides() throws {
        let versions = try Self.versions()
        let declarations: [String: EntityDeclaration] = [
            "Entry": EntityDeclaration(attributes: ["text": "string", "mood": "integer16", "writtenAt": "date"]),
            "Label": EntityDeclaration(attributes: ["name": "string", "color": "string"]),
        ]
        let left = try VersionMapping(
            from: declarations, through: versions,
            overrides: ModelChangeOverrides(properties: ["Entry.text": nil]))
        #expect(left.entities["Entry"]?.properties["text"]?.target == nil)
        #expect(throws: TaskInterchangeError.self) {
            try VersionMapping(
                from: declarations, through: versions,
                overrides: ModelChangeOverrides(properties: ["Label.color": "name"]))
        }
        // A record: renamed twice, widened, the default Journal 2 added, the value Journal 3 removed counted.
        let mapping = try VersionMapping(from: declarations, through: versions)
        var tally = VersionMapping.Tally()
        let record = EntityRecord(
            id: UUID(), entity: "Entry", key: 1, values: ["text": .string("hi"), "mood": .integer(3)])
        let mapped = try mapping.apply(record, path: "$", tally: &tally)
        #expect(mapped?.values["content"] == .string("hi"))
        #expect(mapped?.values["mood"] == .integer(3))
        #expect(mapped?.values["isFavorite"] == .bool(false))
        #expect(tally.filledValues == ["Entry.isFavorite": 1])
        #expect(tally.convertedValues == ["Entry.mood": 1])
        _ = try mapping.apply(
            EntityRecord(id: UUID(), entity: "Label", key: 1, values: ["name": .string("a"), "color": .string("red")]),
            path: "$", tally: &tally)
        #expect(tally.droppedValues == ["Label.color": 1])
    }
}
