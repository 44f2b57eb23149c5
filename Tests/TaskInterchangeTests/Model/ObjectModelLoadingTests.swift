import Foundation
import Testing

@testable import TaskInterchange

/// The public loader and identification of `ObjectModel` against the real models and the stores their versions made:
/// each gives what the package's model source and identification give.
@Suite(
    "ObjectModel loader and identification",
    .enabled(
        if: ModelFixtures.available,
        "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared); real-model tests skipped"
    ))
struct ObjectModelLoadingTests {
    @Test("a model folder gives its current version, or the one named; a .momd the same as its source")
    func contents() throws {
        let folder = ModelFixtures.path("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld")
        let source = try ModelSource(path: folder)
        #expect(try ObjectModel(contentsOf: folder) == source.version(named: nil).model)
        let second = try ObjectModel(contentsOf: folder, version: "SampleModel2")
        #expect(second == (try source.version(named: "SampleModel2").model))
        #expect(second != (try ObjectModel(contentsOf: folder)))
        let compiled = try ObjectModel(contentsOf: ModelFixtures.path("CoreDataPlus-SampleModel3/SampleModel3.momd"))
        #expect(
            compiled.versionHashes
                == (try ObjectModel(
                    contentsOf: ModelFixtures.path(
                        "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld"))).versionHashes)
    }

    @Test("a missing model is no input; a version the model lacks is a usage error")
    func failures() throws {
        let directory = try TemporaryDirectory()
        #expect { try ObjectModel(contentsOf: directory.path("Missing.xcdatamodeld")) } throws: {
            ($0 as? TaskInterchangeError)?.kind == .noInput
        }
        let folder = ModelFixtures.path("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld")
        #expect { try ObjectModel(contentsOf: folder, version: "SampleModel9") } throws: {
            ($0 as? TaskInterchangeError)?.kind == .usage
        }
    }

    @Test("the version that wrote a store, by name and as a model; none for a store no version matches")
    func identification() throws {
        let directory = try TemporaryDirectory()
        let folder = ModelFixtures.path("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld")
        let store = try ModelFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: directory)
        #expect(try ObjectModel.versionName(in: folder, thatWrote: store) == "SampleModel")
        #expect(
            try ObjectModel(contentsOf: folder, versionThatWrote: store)
                == ModelSource(path: folder).version(named: "SampleModel").model)

        let easyLife = ModelFixtures.path("EasyLife/EasyLife.xcdatamodeld")
        let old = try ModelFixtures.copy("EasyLife/EasyLife 1.3.0.sqlite", to: directory)
        #expect(try ObjectModel.versionName(in: easyLife, thatWrote: old) == nil)
        #expect { try ObjectModel(contentsOf: easyLife, versionThatWrote: old) } throws: {
            ($0 as? TaskInterchangeError)?.kind == .invalidData
        }
    }

    @Test("a store's model cache, as the package reads it")
    func cache() throws {
        let directory = try TemporaryDirectory()
        let store = try ModelFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: directory)
        let cached = try #require(try ObjectModel(cachedIn: store))
        #expect(cached == (try ObjectModel(modelCacheOf: StoreSnapshot(path: store))))
        #expect(
            cached.versionHashes
                == (try ObjectModel(
                    contentsOf: ModelFixtures.path(
                        "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld"), version: "SampleModel")).versionHashes)
    }
}
