import Foundation
import Testing
@testable import TaskInterchange

@Suite("Store writer configuration")
struct StoreWriterConfigurationTests {
    @Test("archive settings are settled once, before writing; settling again fails loudly")
    func settleOnce() throws {
        let directory = try TemporaryDirectory()
        let writer = try StoreWriter(path: directory.path("new.sqlite"), create: true)
        #expect(writer.phase == .opened)
        var settings = StoreWriter.ArchiveSettings()
        settings.modelChanged = true
        settings.identityNames = ["Memo": "Note"]
        try writer.settle(settings)
        #expect(writer.phase == .settled)
        #expect(writer.archive.modelChanged && writer.archive.identityNames == ["Memo": "Note"])
        let twice = try #require(throws: TaskInterchangeError.self) { try writer.settle(StoreWriter.ArchiveSettings()) }
        #expect(twice.kind == .internal && twice.message.hasSuffix("settled already"))
        #expect(writer.archive.modelChanged)
    }

    @Test("settings cannot be settled once writing began")
    func settleAfterWriting() throws {
        let directory = try TemporaryDirectory()
        let writer = try StoreWriter(path: directory.path("new.sqlite"), create: true)
        try writer.transaction {}
        #expect(writer.phase == .writing)
        let error = try #require(throws: TaskInterchangeError.self) { try writer.settle(StoreWriter.ArchiveSettings()) }
        #expect(error.kind == .internal && error.message.hasSuffix("after writing began"))
    }

    @Test("a writer that keeps identity writes only after adopting one, adopts once, and only when configured to")
    func identity() throws {
        let directory = try TemporaryDirectory()
        let uuid = UUID().uuidString
        let keeping = try StoreWriter(
            path: directory.path("a.sqlite"), create: true, configuration: .init(keepIdentity: true))
        let early = try #require(throws: TaskInterchangeError.self) { try keeping.transaction {} }
        #expect(early.kind == .internal)
        try keeping.adoptIdentity(storeUUID: uuid, maxKeys: [:])
        #expect(keeping.schema.storeUUID == uuid)
        let again = try #require(throws: TaskInterchangeError.self) {
            try keeping.adoptIdentity(storeUUID: uuid, maxKeys: [:])
        }
        #expect((again as TaskInterchangeError).kind == .internal)
        try keeping.transaction {}

        let plain = try StoreWriter(path: directory.path("b.sqlite"), create: true)
        let unconfigured = try #require(throws: TaskInterchangeError.self) {
            try plain.adoptIdentity(storeUUID: uuid, maxKeys: [:])
        }
        #expect(unconfigured.kind == .internal)
        #expect(plain.schema.storeUUID != uuid)
    }

    @Test("external files go under the configured store, and existing ones are read where configured")
    func externalStore() throws {
        let directory = try TemporaryDirectory()
        let placed = directory.path("placed.sqlite")
        let existing = directory.path("existing.sqlite")
        let writer = try StoreWriter(
            path: directory.path("temporary.sqlite"), create: true,
            configuration: .init(externalStore: placed, existingExternalData: existing))
        #expect(writer.externalDataWriter.data.directory == ExternalData(store: placed).directory)
        #expect(writer.externalDataWriter.existing.directory == ExternalData(store: existing).directory)
        let plain = try StoreWriter(path: directory.path("plain.sqlite"), create: true)
        #expect(plain.externalDataWriter.data.directory == ExternalData(store: plain.path).directory)
        #expect(plain.externalDataWriter.existing.directory == plain.externalDataWriter.data.directory)
    }
}

extension StoreWriterConfigurationTests {
    /// The link queue runs in parts (bounding its memory) unless links may be written from the other side of a
    /// pair: only under a model change, and only when the archive declares a relationship the target does not have.
    @Test("the link queue runs whole only when a model change may write links from the other side")
    func runsWhole() throws {
        let directory = try TemporaryDirectory()
        let source = try ModelSource(
            path: SampleStores.repository.appendingPathComponent("samples/Journal.xcdatamodeld").path)
        let model = try source.version(named: "Journal 2").model
        let archive = try ArchiveInput(
            path: SampleStores.repository.appendingPathComponent("samples/journal-v2.json").path)
        let declared = try #require(try archive.header()?.source?.model)
        var unknown = declared
        unknown["Label"]?.relationships["notebooks"] = EntityRelationship(
            destination: "Notebook", toMany: true, inverse: "labels")
        let cases: [(changed: Bool, declarations: [String: EntityDeclaration]?, runsWhole: Bool)] = [
            (false, declared, false), (true, declared, false), (false, unknown, false), (true, unknown, true),
            (true, nil, true),
        ]
        for (index, example) in cases.enumerated() {
            let writer = try StoreWriter(
                path: directory.path("\(index).sqlite"), create: true, template: StoreTemplate(model: model))
            var settings = StoreWriter.ArchiveSettings()
            settings.modelChanged = example.changed
            settings.declarations = example.declarations
            try writer.settle(settings)
            #expect(writer.linkWriting.entityRows.runsWhole == example.runsWhole, "case \(index)")
        }
    }
}
