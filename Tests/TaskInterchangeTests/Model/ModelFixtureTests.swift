import Foundation
import Testing
@testable import TaskInterchange

/// The real models of `../shared/fixtures/models` against the stores their versions made: identification, and new
/// stores made from the identified version compared with the real ones.
@Suite(
    "Real models beside real stores", .serialized,
    .enabled(
        if: ModelFixtures.available,
        "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared); real-model tests skipped"
    ))
struct ModelFixtureTests {
    /// The version that made each store, from the fixtures' file names and README (not from our hashes); nil for the
    /// store no version matches any more.
    static let makers: [String: String?] = [
        "BrowserServicesKit-Bookmarks/Bookmarks_V2.sqlite": "BookmarksModel 2",
        "BrowserServicesKit-Bookmarks/Bookmarks_V3.sqlite": "BookmarksModel 3",
        "BrowserServicesKit-Bookmarks/Bookmarks_V4.sqlite": "BookmarksModel 4",
        "BrowserServicesKit-Bookmarks/Bookmarks_V5.sqlite": "BookmarksModel 5",
        "CoreDataPlus-SampleModel/SampleModel_V1.sqlite": "SampleModel",
        "CoreDataPlus-SampleModel/SampleModel_V2.sqlite": "SampleModel2",
        "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite": "SampleModel3",
        "EasyLife/EasyLife 1.3.0.sqlite": nil,
        "EasyLife/EasyLife 1.5.0.sqlite": "EasyLife 1.5.0",
    ]

    @Test("every store is listed here", arguments: [0])
    func everyStoreKnown(_: Int) {
        #expect(Set(ModelFixtures.stores) == Set(Self.makers.keys))
    }

    @Test("identify names the version that made each store", arguments: ModelFixtures.stores)
    func identify(store: String) throws {
        let directory = try TemporaryDirectory()
        let path = try ModelFixtures.copy(store, to: directory)
        let source = try ModelSource(path: ModelFixtures.modelFolder(for: store))
        let result = try ModelIdentification(storePath: path, source: source)
        let expected = try #require(Self.makers[store])
        #expect(result.version == expected, "\(store)")
        #expect(result.matched == (expected != nil))
        #expect(result.tied.isEmpty)
        if let expected {
            #expect(result.candidates.filter(\.matches).map(\.name) == [expected])
            #expect(result.closest == nil && result.differences.isEmpty)
        }
    }

    @Test("EasyLife 1.3.0: no version matches; the closest is the edited 1.3.0, which added one relationship pair")
    func easyLifeExplained() throws {
        let directory = try TemporaryDirectory()
        let path = try ModelFixtures.copy("EasyLife/EasyLife 1.3.0.sqlite", to: directory)
        let result = try ModelIdentification(
            storePath: path, source: try ModelSource(path: ModelFixtures.path("EasyLife/EasyLife.xcdatamodeld")))
        #expect(result.version == nil && !result.matched && result.storeHasModelCache)
        #expect(result.closest == "EasyLife 1.3.0")
        #expect(
            result.differences.map(\.description) == [
                "Project.todoItem: added: relationship todoItem is new in the version",
                "TodoItem.project: added: relationship project is new in the version",
            ])
    }

    @Test(
        "SampleModel_V1 against SampleModel3 alone: an entity renamed by its renaming identifier, property changes, a sub-entity inheriting them"
    )
    func renamedEntityExplained() throws {
        let directory = try TemporaryDirectory()
        let path = try ModelFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: directory)
        let source = try ModelSource(
            path: ModelFixtures.path("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel"))
        let result = try ModelIdentification(storePath: path, source: source)
        #expect(result.version == nil && result.closest == "SampleModel3")
        #expect(
            result.differences.map(\.description) == [
                "Car.color: removed: attribute color is not in the version",
                "Car.maker: removed: attribute maker is not in the version",
                "Car.createdBy: added: relationship createdBy is new in the version",
                "Car.previousOwners: added: relationship previousOwners is new in the version",
                "ExpensiveSportCar: renamed: entity ExpensiveSportCar is LuxuryCar in the version (renaming identifier ExpensiveSportCar)",
                "Person.id: removed: attribute id is not in the version",
                "Person.previousCars: added: relationship previousCars is new in the version",
                "SportCar: changed: inherits the changes of Car",
                "Maker: added: entity Maker is new in the version",
            ])
    }

    @Test(
        "a store made from the identified version has the real store's layout, entity numbers and metadata",
        arguments: ModelFixtures.stores)
    func newStoreEqualsRealStore(store: String) throws {
        guard let maker = Self.makers[store] ?? nil else { return }
        let directory = try TemporaryDirectory()
        let real = try StoreSnapshot(path: try ModelFixtures.copy(store, to: directory))
        let metadata = try #require(try StoreMetadata(of: real))
        let version = try ModelSource(path: ModelFixtures.modelFolder(for: store)).version(named: maker)
        let made = directory.path("made.sqlite")
        try StoreTemplate(model: version.model, frameworkVersion: metadata.frameworkVersion ?? 1344).makeEmptyStore(
            at: made)
        let database = try Database(path: made, mode: .readOnly(immutable: false))

        let theirs = try ObjectModel.normalizedSchema(of: real.database, includingInternalTables: false)
        let ours = try ObjectModel.normalizedSchema(of: database, includingInternalTables: false)
        #expect(ours.filter { !theirs.contains($0) } == [], "\(store): statements the real store lacks")
        // What the real store has beyond ours: only indexes of attributes its own model (the model cache) marks as
        // indexed and the XML no longer does — the model was edited after the store was made.
        let cached = try #require(try ObjectModel(modelCacheOf: real))
        let editedAway = cached.entities.flatMap { entity in
            entity.fetchIndexes.filter { index in
                !(version.model.entity(named: entity.name)?.fetchIndexes.contains(index) ?? false)
            }
            .map { "CREATE INDEX Z_\(entity.name)_\($0.name) " }
        }
        let missing = theirs.filter { !ours.contains($0) }
        #expect(
            missing.allSatisfy { statement in editedAway.contains { statement.hasPrefix($0) } }, "\(store): \(missing)")
        #expect(missing.count == editedAway.count, "\(store): \(missing) vs \(editedAway)")

        // A store migrated across an entity renaming keeps the old name in Z_PRIMARYKEY (SampleModel_V2 still says
        // ExpensiveSportCar for LuxuryCar, whose renaming identifier it is); numbers and parents are the same.
        let rows = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT"
        let renamed = Dictionary(
            version.model.entities.compactMap { entity in entity.renamingIdentifier.map { ($0, entity.name) } },
            uniquingKeysWith: { first, _ in first })
        let realRows = try real.database.rows(rows).map { row in
            [row[0], row[1].string.map { .text(renamed[$0] ?? $0) } ?? row[1], row[2]]
        }
        #expect(try database.rows(rows) == realRows, "\(store): Z_PRIMARYKEY")
        let ourMetadata = try #require(try StoreMetadata(in: database, path: made))
        #expect(ourMetadata.versionHashes == metadata.versionHashes)
        #expect(ourMetadata.versionIdentifiers == metadata.versionIdentifiers)
        #expect(ourMetadata.checksum == metadata.checksum && ourMetadata.digest == metadata.digest)
        #expect(ourMetadata.frameworkVersion == metadata.frameworkVersion)
        #expect(try database.scalar("PRAGMA journal_mode")?.string == "wal")
    }

    @Test(
        "a .momd's versions equal the .xcdatamodeld's: the same entities and properties, the hashes VersionInfo.plist holds",
        arguments: ["CoreDataPlus-SampleModel/SampleModel", "CoreDataPlus-SampleModel3/SampleModel3"])
    func compiledEqualsSource(model: String) throws {
        let compiled = try ModelSource(path: ModelFixtures.path(model + ".momd"))
        let source = try ModelSource(path: ModelFixtures.path(model + ".xcdatamodeld"))
        #expect(compiled.kind == .momd && source.kind == .xcdatamodeld)
        #expect(compiled.versions.map(\.name) == source.versions.map(\.name))
        #expect(compiled.currentVersionName == source.currentVersionName)
        #expect(Set(compiled.compiledVersionHashes.keys) == Set(compiled.versions.map(\.name)))
        for (mom, xml) in zip(compiled.versions, source.versions) {
            #expect(mom.model.versionHashes == xml.model.versionHashes, "\(mom.name)")
            #expect(
                compiled.compiledVersionHashes[mom.name] == xml.model.versionHashes, "\(mom.name): VersionInfo.plist")
            #expect(mom.model.versionIdentifiers == xml.model.versionIdentifiers)
            #expect(Self.comparable(mom.model) == Self.comparable(xml.model), "\(mom.name)")
        }
    }

    @Test(
        "the model read from XML equals the store's model cache, bar what the XML leaves to the compiler",
        arguments: ModelFixtures.stores)
    func xmlEqualsModelCache(store: String) throws {
        guard let maker = Self.makers[store] ?? nil else { return }
        let directory = try TemporaryDirectory()
        let snapshot = try StoreSnapshot(path: try ModelFixtures.copy(store, to: directory))
        var cached = Self.comparable(try #require(try ObjectModel(modelCacheOf: snapshot)))
        let xml = Self.comparable(
            try ModelSource(path: ModelFixtures.modelFolder(for: store)).version(named: maker).model)
        // Bookmarks: the store's model had indexed attributes the XML has since replaced by fetch indexes (see above).
        for index in cached.entities.indices {
            cached.entities[index].fetchIndexes.removeAll { fetchIndex in
                !(xml.entities[index].fetchIndexes.contains(fetchIndex))
            }
            for a in cached.entities[index].attributes.indices {
                cached.entities[index].attributes[a].isIndexed = false
            }
        }
        #expect(cached.entities.map(\.name) == xml.entities.map(\.name))
        for (a, b) in zip(cached.entities, xml.entities) where a != b {
            Issue.record("\(store): entity \(a.name) differs:\n  cache \(a)\n  xml   \(b)")
        }
    }

    /// Leaves out what only one side has: the compiled model fills in value class names and leaves some class names
    /// out.
    static func comparable(_ model: ObjectModel) -> ObjectModel {
        var copy = model
        for e in copy.entities.indices {
            copy.entities[e].className = nil
            for a in copy.entities[e].attributes.indices { copy.entities[e].attributes[a].valueClassName = nil }
        }
        copy.configurations = [:]
        return copy
    }

    @Test("new-store refuses an existing path and a missing directory, and leaves nothing behind")
    func newStoreAtomic() throws {
        let directory = try TemporaryDirectory()
        let model = try ModelSource(path: ModelFixtures.path("CoreDataPlus-SampleModel3/SampleModel3.momd")).version(
            named: nil
        ).model
        let template = StoreTemplate(model: model)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: directory.path("taken.sqlite")))
        #expect(
            throws: TaskInterchangeError(
                .cannotCreate, "\(directory.path("taken.sqlite")): already exists; choose a new path")
        ) {
            try template.makeEmptyStore(at: directory.path("taken.sqlite"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("taken.sqlite"))) == Data("keep".utf8))
        #expect(throws: TaskInterchangeError.self) {
            try template.makeEmptyStore(at: directory.path("no/such/dir.sqlite"))
        }
        try template.makeEmptyStore(at: directory.path("new.sqlite"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path("")).sorted() == [
                "new.sqlite", "taken.sqlite",
            ])
    }
}
