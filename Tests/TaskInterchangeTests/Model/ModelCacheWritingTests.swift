import Foundation
import Testing
@testable import TaskInterchange

/// The model caches `tasks` writes, proven against the ones Core Data wrote: for every shared store with a cache,
/// the model decoded from it is written again and must decode to the same object graph and the same `ObjectModel`.
@Suite(
    "Model cache writing",
    .enabled(
        if: RealStores.available,
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); model cache writing tests skipped"
    ))
struct ModelCacheWritingTests {
    /// Every shared store: real stores by name, model fixtures as `models/folder/name.sqlite`.
    static var stores: [String] {
        RealStores.names + (ModelFixtures.available ? ModelFixtures.stores.map { "models/" + $0 } : [])
    }

    /// A store's raw `Z_MODELCACHE` blob, read through a private copy; nil when it has none.
    static func cache(_ store: String) throws -> Data? {
        let directory = try TemporaryDirectory()
        let copy =
            store.hasPrefix("models/")
            ? try ModelFixtures.copy(String(store.dropFirst("models/".count)), to: directory)
            : try RealStores.copy(store, to: directory)
        let snapshot = try StoreSnapshot(path: copy)
        guard
            try snapshot.database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'")?.int64 == 1,
            case .blob(let bytes)? = try snapshot.database.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE")
        else { return nil }
        return Data(bytes)
    }

    /// What re-writing each store's cache gives, where it is not the same graph: no cache (the part that cannot be
    /// matched), or a graph whose first difference is known (a form of older frameworks or tools, or a part
    /// `ObjectModel` does not keep). Every other store with a cache must give the same graph.
    static let expected: [String: Outcome] = [
        "CartStorage_v1__Karim-ezzedine_CartKit.sqlite": .refused("default value of type decimal"),
        "EasyLife_1.5.0__larromba_EasyLife.sqlite": .refused("validation bounds"),
        "models/EasyLife/EasyLife 1.3.0.sqlite": .refused("validation bounds"),
        "models/EasyLife/EasyLife 1.5.0.sqlite": .refused("validation bounds"),
        "NoteStore-macOS-12__RhetTbull_apple-notes-parser.sqlite": .refused("validation bounds"),
        "Photos-13.0.1__RhetTbull_PhotoScript.sqlite": .refused("partial fetch index"),
        "SampleModel2_V1__alemar11_CoreDataPlus.sqlite": .refused("fetched properties"),
        // Frameworks before 1000 archive mutable strings and sets and a nil for no sub-entities (640 also proxies
        // for inherited properties and no fetch index keys); this writer writes the later form.
        "Accounts3__log2timeline_plaso.sqlite": .olderForm("NSMutableSet"),
        "CoreDataMigration_Example_WAL__wibosco_CoreDataMigration-Example.sqlite": .olderForm("NSMutableSet"),
        "store1-25__wireapp_wire-ios-data-model.sqlite": .olderForm("NSMutableSet"),
        // SwiftData's models archive a configuration (and an empty uniqueness list) the decoded model does not keep.
        "CartKitSwiftData_v1__Karim-ezzedine_CartKit.sqlite": .differs(["NSConfigurations"]),
        "default__sergd2005_ResourcesManager.sqlite": .differs(["NSConfigurations", "[\"NSUniqueTuples\"]"]),
        // Models compiled by older tools keep a declared fetch index's elements in a mutable array, some strings
        // as mutable strings, and (865) no compound index for a declared index of several properties.
        "store2-60-0__wireapp_wire-ios-data-model.sqlite": .differs([
            Self.mutableIndexElements, ": an NSMutableString vs", "NSCompoundIndexes<NSMutableArray>.NS.objects: 0",
        ]),
        "store2-100-0__wireapp_wire-ios-data-model.sqlite": .differs([
            Self.mutableIndexElements, ": an NSMutableString vs",
        ]),
        "models/CoreDataPlus-SampleModel/SampleModel_V2.sqlite": .differs([Self.mutableIndexElements]),
    ]

    static let mutableIndexElements = #"NSIndexElements: class ["NSMutableArray", "NSArray", "NSObject"] vs ["NSArray""#

    enum Outcome: Equatable {
        case same
        /// No cache is written; the reason names this part.
        case refused(String)
        /// Every difference names one of these (at most 20 are listed).
        case differs([String])
        /// The first difference names this: an older framework's form, which differs throughout.
        case olderForm(String)
    }

    @Test("re-written, every cache Core Data wrote decodes to the same object graph and model", arguments: stores)
    func rewrite(store: String) throws {
        guard let blob = try Self.cache(store) else { return }
        let model = try ObjectModel(modelCache: blob)
        guard let written = Self.check(model, against: blob, expected: Self.expected[store] ?? .same, store) else {
            return
        }
        // Whatever form differs, what the model keeps comes back; but framework 640 made no fetch index of an
        // indexed attribute, which the later form lists (and so decodes).
        if store != "store1-25__wireapp_wire-ios-data-model.sqlite" {
            #expect(try ObjectModel(modelCache: Data(written)) == model, "\(store): decodes to another model")
        }
    }

    /// Writes `model`'s cache and checks it against Core Data's `blob` as `expected` says; returns what was written
    /// (nil when nothing was).
    static func check(_ model: ObjectModel, against blob: Data, expected: Outcome, _ label: String) -> [UInt8]? {
        let written: [UInt8]
        do {
            written = try model.modelCache()
        } catch {
            guard case .refused(let part) = expected, case .unsupported(let reason) = error else {
                Issue.record("\(label): \(error)")
                return nil
            }
            #expect(reason.contains(part), "\(label): \(reason)")
            return nil
        }
        guard let coreData = try? KeyedArchive(data: try RawInflate.inflate(blob)),
            let ours = try? KeyedArchive(data: try RawInflate.inflate(Data(written)))
        else {
            Issue.record("\(label): an archive cannot be read")
            return nil
        }
        let differences = ArchiveGraphComparison.differences(coreData, ours)
        switch expected {
        case .same:
            #expect(differences.isEmpty, "\(label):\n\(differences.joined(separator: "\n"))")
        case .differs(let known):
            #expect(!differences.isEmpty, "\(label): now the same graph")
            for difference in differences {
                #expect(known.contains { difference.contains($0) }, "\(label): \(difference)")
            }
        case .olderForm(let known):
            #expect(differences.first?.contains(known) == true, "\(label): \(differences.first ?? "no difference")")
        case .refused(let part):
            Issue.record("\(label): a cache was written although \(part) was expected to prevent it")
        }
        return written
    }

    @Test(
        "Core Data compresses its caches as raw DEFLATE at level 5: re-compressing gives its bytes", arguments: stores)
    func compression(store: String) throws {
        guard let blob = try Self.cache(store) else { return }
        let inflated = try RawInflate.inflate(blob)
        #expect(try RawDeflate.deflate(Array(inflated)) == Array(blob), "\(store)")
        // No zlib header: a header's first byte would be 0x78.
        #expect(blob.first != 0x78)
    }

    @Test("the archive of a cache written twice is the same bytes (numbering and key order fixed)")
    func deterministic() throws {
        let blob = try #require(try Self.cache("Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite"))
        let model = try ObjectModel(modelCache: blob)
        #expect(try model.modelCache() == (try model.modelCache()))
    }
}

extension ModelCacheWritingTests {
    /// Each model fixture's store with every model folder beside it (`.xcdatamodeld`, and `.momd` where there is one).
    static var storesWithModels: [String] {
        guard ModelFixtures.available else { return [] }
        return ModelFixtures.stores.flatMap { store in
            ModelFixtures.models.filter {
                ($0 as NSString).deletingLastPathComponent == (store as NSString).deletingLastPathComponent
            }.map { store + " | " + ($0 as NSString).lastPathComponent }
        }
    }

    @Test(
        "the cache written for the model version that made a fixture store matches the store's own",
        arguments: storesWithModels)
    func fromModel(pair: String) throws {
        let parts = pair.components(separatedBy: " | ")
        let store = parts[0]
        let folder = ModelFixtures.path((store as NSString).deletingLastPathComponent + "/" + parts[1])
        guard let blob = try Self.cache("models/" + store) else { return }
        let directory = try TemporaryDirectory()
        let copy = try ModelFixtures.copy(store, to: directory)
        let source = try ModelSource(path: folder)
        let identification = try ModelIdentification(storePath: copy, source: source)
        guard let name = identification.version, let version = source.versions.first(where: { $0.name == name })
        else {
            // EasyLife 1.3.0's version was edited after the store was made: no version matches it.
            return
        }
        _ = Self.check(version.model, against: blob, expected: Self.expectedFromModel[pair] ?? .same, pair)
    }

    /// Where the model's files say something other than the cache of the store its version made.
    static let expectedFromModel: [String: Outcome] = [
        "EasyLife/EasyLife 1.5.0.sqlite | EasyLife.xcdatamodeld": .refused("validation bounds"),
        // Framework 1044 archived no class name for a transformable's custom class; later ones do.
        "CoreDataPlus-SampleModel/SampleModel_V1.sqlite | SampleModel.xcdatamodeld": .differs([
            #"NSAttributeValueClassName: string("$null") vs string("Color")"#
        ]),
        // This store's cache names no entity classes although its model version does (the test app that made it
        // ran without them).
        "CoreDataPlus-SampleModel/SampleModel_V2.sqlite | SampleModel.momd": .differs([
            #"NSClassNameForEntity: string("$null") vs string("#, Self.mutableIndexElements,
        ]),
        "CoreDataPlus-SampleModel/SampleModel_V2.sqlite | SampleModel.xcdatamodeld": .differs([
            #"NSClassNameForEntity: string("$null") vs string("#, Self.mutableIndexElements,
        ]),
    ]
}
