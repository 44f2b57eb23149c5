import Foundation
import Testing
@testable import TaskInterchange

/// Stores `tasks` makes from a model carry the model cache Core Data would write, so they name their own model: the
/// cache decodes to the model's version hashes, and inspection and identification read it as they read Core Data's.
@Suite(
    "Model cache of new stores",
    .enabled(
        if: ModelFixtures.available,
        "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared); new-store model cache tests skipped"
    ))
struct NewStoreModelCacheTests {
    /// Every version of every fixture model, as `folder/Model.xcdatamodeld|version`.
    static var versions: [String] {
        ModelFixtures.models.flatMap { model in
            ((try? ModelSource(path: ModelFixtures.path(model)))?.versions ?? []).map { model + "|" + $0.name }
        }
    }

    @Test("a store made from a model version has a cache with its hashes, or none and the reason", arguments: versions)
    func newStore(version key: String) throws {
        let parts = key.components(separatedBy: "|")
        let source = try ModelSource(path: ModelFixtures.path(parts[0]))
        let version = try source.version(named: parts[1])
        let directory = try TemporaryDirectory()
        let store = directory.path("new.sqlite")
        let template = StoreTemplate(model: version.model)
        try template.makeEmptyStore(at: store)
        let snapshot = try StoreSnapshot(path: store)
        let cached = try ObjectModel(modelCacheOf: snapshot)
        if let omission = template.modelCacheOmission {
            #expect(cached == nil, "\(key): a cache although \(omission)")
            // Only models with parts whose archived form is not matched go without (EasyLife: validation bounds).
            #expect(omission.contains("validation bounds"), "\(key): \(omission)")
            return
        }
        let model = try #require(cached, "\(key): no model cache")
        #expect(model.versionHashes == version.model.versionHashes, "\(key)")
        #expect(Set(model.entities.map(\.name)) == Set(version.model.entities.map(\.name)))

        // Identification: the store's own cache and the model files name the same version, and say it has a cache.
        let identified = try ModelIdentification(storePath: store, source: source)
        #expect(identified.storeHasModelCache)
        let tied = identified.tied.isEmpty ? [identified.version] : identified.tied.map(Optional.some)
        #expect(tied.contains(version.name), "\(key): identified as \(identified.version ?? "none")")
        let own = try ModelIdentification(storePath: store, source: try ModelSource(storePath: store))
        #expect(own.matched, "\(key): the store's own cache does not match its metadata")

        // Inspection reads the model from the cache, and every entity hash it computes is the stored one.
        let inspection = try StoreInspection(store: store)
        #expect(inspection.modelSource == "decoded from Z_MODELCACHE", "\(key): \(inspection.modelSource)")
        for entity in inspection.entities {
            #expect(
                entity.versionHash != nil && entity.versionHash == entity.storedVersionHash, "\(key): \(entity.name)")
        }
    }

    @Test("the model cache is written in the new store's one transaction, also when its schema is built in batches")
    func batched() throws {
        let source = try ModelSource(path: ModelFixtures.path("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld"))
        let template = StoreTemplate(model: try source.version(named: nil).model)
        let directory = try TemporaryDirectory()
        try template.makeEmptyStore(at: directory.path("plain.sqlite"), batchedAbove: 10_000)
        try template.makeEmptyStore(at: directory.path("batched.sqlite"), batchedAbove: 0)
        let plain = try StoreSnapshot(path: directory.path("plain.sqlite")).database
        let batched = try StoreSnapshot(path: directory.path("batched.sqlite")).database
        let blob = try #require(try plain.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE"))
        #expect(try batched.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE") == blob)
        #expect(try plain.scalar("SELECT count(*) FROM Z_MODELCACHE")?.int64 == 1)
    }
}
