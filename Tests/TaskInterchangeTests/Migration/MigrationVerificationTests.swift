import Foundation
import Testing
@testable import TaskInterchange

/// A migration into a new store verifies it against fingerprints taken as the backup's records streamed into the
/// import: the backup is read once, and read again only when a fingerprint differs, for the full report.
@Suite("Migration verification by fingerprints")
struct MigrationVerificationTests {
    /// What a migration's verification hook saw, from the migration's thread.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: (targetThere: Bool, tasks: Int64)?
        var facts: (targetThere: Bool, tasks: Int64)? { lock.withLock { seen } }
        func record(targetThere: Bool, tasks: Int64) { lock.withLock { seen = (targetThere, tasks) } }
    }

    /// Migrates `legacy` into a new store beside it; returns the report, its verification and the full comparison
    /// of the backup with the new store.
    static func migrated(_ legacy: String, in directory: TemporaryDirectory) async throws -> (
        report: MigrationReport, verification: GraphDiff, full: GraphDiff
    ) {
        let target = directory.path("new.sqlite")
        let report = try await Migration(legacyStore: legacy, backupDirectory: directory.url.path)
            .run(intoStore: target)
        let verification = try #require(report.verification)
        let full = try await GraphComparison.verify(.store(path: report.backupPath), against: .store(path: target))
        return (report, verification, full)
    }

    @Test("success: the backup is read once, and the verification equals the full comparison's")
    func readsBackupOnce() async throws {
        let directory = try TemporaryDirectory()
        let legacy = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let (report, verification, full) = try await Self.migrated(legacy, in: directory)
        #expect(report.backupReads == 1)
        #expect(verification.isEqual && full.isEqual)
        #expect(verification.kinds == full.kinds && verification.entities == full.entities)
        #expect(verification.kinds.first { $0.kind == .task }?.countA == 44)
        #expect(verification.modelChange == nil && full.modelChange == nil)
    }

    @Test("a generated store (subtasks, tags, notes, dates): verified with one read of the backup, as fully")
    func generatedStore() async throws {
        let directory = try TemporaryDirectory()
        let legacy = directory.path("generated.sqlite")
        _ = try StoreImport.run(SyntheticArchive(tasks: 3_000, seed: 11), into: legacy, options: StoreImportOptions())
        let (report, verification, full) = try await Self.migrated(legacy, in: directory)
        #expect(report.backupReads == 1)
        #expect(verification.isEqual && verification.kinds == full.kinds)
        #expect(verification.kinds.first { $0.kind == .subtask }?.countB ?? 0 > 0)
    }

    /// Migrates the sample Journal-v1 store into `version` of the Journal model; returns the report and the new
    /// store's path.
    static func journal(
        into version: String, in directory: TemporaryDirectory,
        beforeVerifying: (
            @Sendable (String) throws -> Void
        )? = nil
    ) async throws -> (
        report: MigrationReport, target: String, model: ObjectModel, legacyModel: ObjectModel, order: ModelVersionOrder
    ) {
        let legacy = try SampleStores.copy("Journal-v1.sqlite", to: directory)
        let source = try ModelSource(
            path: SampleStores.repository.appendingPathComponent("samples/Journal.xcdatamodeld").path)
        var migration = Migration(legacyStore: legacy, backupDirectory: directory.url.path)
        let model = try source.version(named: version).model
        migration.template = StoreTemplate(model: model)
        let legacyModel = try source.version(named: "Journal 1").model
        migration.legacyModel = legacyModel
        let order = ModelVersionOrder(
            inferring: source.versions.map { ModelVersionOrder.Version(name: $0.name, model: $0.model) })
        migration.modelVersions = order
        migration.beforeVerifying = beforeVerifying
        let target = directory.path("new.sqlite")
        return (try await migration.run(intoStore: target), target, model, legacyModel, order)
    }

    /// Into the app's model, its store's own version or a later one (renames, a type change, a new attribute filled,
    /// an attribute dropped): the fingerprints are taken through the import's model change, so the backup is read
    /// once, and the verification says what the full comparison of the backup's export with the new store says.
    @Test(
        "into the app's model, any version: one read of the backup, the full comparison's answer",
        arguments: ["Journal 1", "Journal 2", "Journal 3", "Journal 4"])
    func appModel(version: String) async throws {
        let directory = try TemporaryDirectory()
        let (report, target, model, legacyModel, order) = try await Self.journal(into: version, in: directory)
        #expect(report.backupReads == 1)
        let verification = try #require(report.verification)
        #expect(verification.isEqual)
        #expect(verification.entities.reduce(0) { $0 + $1.countA } > 0)
        let archive = directory.path("backup.json")
        var options = ExportOptions()
        // The store keeps no model cache: read with its version of the model, as the migration read it.
        options.model = legacyModel
        _ = try await Exporter.export(store: report.backupPath, toFile: archive, options: options)
        let full = try GraphComparison.verify(
            .archive(path: archive), against: .store(path: target, model: model), modelVersions: order,
            versionMapping: report.versionMapping)
        #expect(full.isEqual)
        #expect(verification.entities == full.entities && verification.kinds == full.kinds)
        #expect(verification.modelChange?.droppedValues == full.modelChange?.droppedValues)
        #expect(verification.modelChange?.filledValues == full.modelChange?.filledValues)
        #expect(verification.modelChange?.convertedValues == full.modelChange?.convertedValues)
        if version == "Journal 1" {
            #expect(verification.modelChange == nil)
        } else {
            #expect(verification.modelChange?.filledValues["Entry.isFavorite"] ?? 0 > 0)
        }
        if version >= "Journal 3" { #expect(verification.modelChange?.droppedValues["Label.color"] ?? 0 > 0) }
    }

    /// A version that makes an ordered to-many unordered: the new store reads its ids in id order, the backup in the
    /// order it kept; the fingerprints are taken of the ids in id order, so they still match.
    @Test("into a version where an ordered to-many is unordered: one read of the backup, verified")
    func orderedBecomesUnordered() async throws {
        func model(ordered: Bool) -> ObjectModel {
            ObjectModel(entities: [
                .init(
                    "Folder", attributes: [.init("name", .string, optional: true)],
                    relationships: [.init("notes", to: "Note", inverse: "folder", toMany: true, ordered: ordered)]),
                .init(
                    "Note", attributes: [.init("title", .string, optional: true)],
                    relationships: [.init("folder", to: "Folder", inverse: "notes", toMany: false)]),
            ])
        }
        let (first, second) = ("B0000000-0000-4000-8000-000000000001", "A0000000-0000-4000-8000-000000000002")
        let archive = """
            {"format":"tasks-interchange","version":2,"exportDate":"2024-01-01T00:00:00Z",
            "generator":{"name":"t","version":"1"},
            "source":{"store":"s","storeUUID":"5E000000-0000-4000-8000-000000000000","entities":{},"model":{
            "Folder":{"attributes":{"name":"string"},"relationships":{
            "notes":{"destination":"Note","toMany":true,"ordered":true,"inverse":"folder"}}},
            "Note":{"attributes":{"title":"string"},"relationships":{}}}},
            "projects":[],"categories":[],"tags":[],"tasks":[],
            "entities":{"Folder":[{"id":"F0000000-0000-4000-8000-000000000001","key":1,
            "values":{"name":"A","notes":["\(first)","\(second)"]},"positions":{"notes":[1024,2048]}}],
            "Note":[{"id":"\(first)","key":1,"values":{"title":"first"}},
            {"id":"\(second)","key":2,"values":{"title":"second"}}]},
            "counts":{"projects":0,"categories":0,"tags":0,"tasks":0,"subtasks":0,"entities":3}}
            """
        let directory = try TemporaryDirectory()
        let legacy = directory.path("legacy.sqlite")
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: model(ordered: true))
        _ = try StoreImport.run(ArchiveInput(bytes: Array(archive.utf8)), into: legacy, options: options)
        var migration = Migration(legacyStore: legacy, backupDirectory: directory.url.path)
        migration.template = StoreTemplate(model: model(ordered: false))
        migration.legacyModel = model(ordered: true)
        let report = try await migration.run(intoStore: directory.path("new.sqlite"))
        #expect(report.backupReads == 1)
        #expect(report.verification?.isEqual == true)
        #expect(report.verification?.entities.first { $0.entity == "Note" }?.countB == 2)
    }

    @Test("into the next version, a value changed after the import: verification fails naming it, two reads")
    func changedValueThroughModelChange() async throws {
        let directory = try TemporaryDirectory()
        let error = await #expect(throws: MigrationError.self) {
            _ = try await Self.journal(into: "Journal 4", in: directory) { path in
                let database = try Database(path: path, mode: .readWrite)
                try database.execute("UPDATE ZENTRY SET ZCONTENT = 'Changed after the import' WHERE Z_PK = 1")
            }
        }
        #expect(error?.stage == .verifying)
        #expect(error?.backupReads == 2)
        let verification = try #require(error?.verification)
        #expect(verification.differenceCount == 1)
        let record = try #require(verification.records.first)
        #expect(record.change == .changed && record.fields.map(\.field) == ["content"])
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
    }

    @Test("one value of one task changed after the import: verification fails naming it, the backup read once more")
    func changedValueFails() async throws {
        let directory = try TemporaryDirectory()
        let legacy = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let target = directory.path("new.sqlite")
        var migration = Migration(legacyStore: legacy, backupDirectory: directory.url.path)
        migration.beforeVerifying = { path in
            let database = try Database(path: path, mode: .readWrite)
            try database.execute("UPDATE ZTASK SET ZTITLE = 'Changed after the import' WHERE Z_PK = 2")
        }
        let error = await #expect(throws: MigrationError.self) {
            _ = try await migration.run(intoStore: target)
        }
        #expect(error?.stage == .verifying)
        #expect(error?.backupReads == 2)
        let verification = try #require(error?.verification)
        #expect(verification.differenceCount == 1)
        let record = try #require(verification.records.first)
        #expect(record.kind == .task && record.change == .changed && record.label == "Changed after the import")
        #expect(record.fields.map(\.field) == ["title"])
        #expect(verification.description.contains("Changed after the import"))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("the new store is verified before it appears: nothing is at its path until then, and it is that file")
    func verifiedBeforePlaced() async throws {
        let directory = try TemporaryDirectory()
        let legacy = try SampleStores.copy("TaskManager.sqlite", to: directory)
        let target = directory.path("new.sqlite")
        var migration = Migration(legacyStore: legacy, backupDirectory: directory.url.path)
        let seen = Seen()
        migration.beforeVerifying = { path in
            // A private file beside the target, holding every task already.
            let tasks = try Database(path: path, mode: .readOnly(immutable: true)).scalar("SELECT count(*) FROM ZTASK")
            seen.record(targetThere: access(target, F_OK) == 0, tasks: tasks?.int64 ?? -1)
            #expect(
                URL(fileURLWithPath: path).deletingLastPathComponent()
                    == URL(fileURLWithPath: target).deletingLastPathComponent())
            #expect(path != target)
        }
        let report = try await migration.run(intoStore: target)
        #expect(seen.facts?.targetThere == false)
        #expect(seen.facts?.tasks == 44)
        #expect(report.verification?.isEqual == true)
        let placed = try Database(path: target, mode: .readOnly(immutable: true)).scalar("SELECT count(*) FROM ZTASK")
        #expect(placed?.int64 == 44)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasPrefix(".new.sqlite") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("a fingerprint changes with any one compared value of a task")
    func digestCoversTask() throws {
        var task = TaskRecord(blank: UUID())
        task.title = "Title"
        task.tagIds = [UUID(), UUID()]
        task.subtasks = [SubtaskRecord(blank: UUID())]
        task.extra = ["colour": .string("red")]
        var buffer: [UInt8] = []
        let base = RecordDigest(.task(task), buffer: &buffer)
        var variants: [TaskRecord] = []
        func variant(_ change: (inout TaskRecord) -> Void) {
            var copy = task
            change(&copy)
            variants.append(copy)
        }
        variant { $0.title = "Title " }
        variant { $0.notes = "" }
        variant { $0.isCompleted.toggle() }
        variant { $0.createdAt = Date(timeIntervalSinceReferenceDate: -0.0) }
        variant { $0.dueDate = Date(timeIntervalSinceReferenceDate: 0) }
        variant { $0.priority += 1 }
        variant { $0.modifiedAt = Date(timeIntervalSinceReferenceDate: 1) }
        variant { $0.projectId = UUID() }
        variant { $0.categoryId = UUID() }
        variant { $0.tagIds.reverse() }
        variant { $0.subtasks[0].title = "x" }
        variant { $0.subtasks.append(SubtaskRecord(blank: UUID())) }
        variant { $0.extra = ["colour": .string("blue")] }
        variant { $0.extra = ["colour": .stored(.text("red"))] }
        for (index, changed) in variants.enumerated() {
            #expect(RecordDigest(.task(changed), buffer: &buffer) != base, "variant \(index)")
        }
        #expect(RecordDigest(.task(task), buffer: &buffer) == base)
    }
}
