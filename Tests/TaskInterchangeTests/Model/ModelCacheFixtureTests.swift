import Foundation
import Testing
@testable import TaskInterchange

@Suite(
    "Model cache of real stores",
    .enabled(
        if: RealStores.available,
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); real-store model tests skipped"
    ))
struct ModelCacheFixtureTests {
    @Test(
        "every entity hash computed from the model cache equals the stored one; so do checksum and digest",
        arguments: RealStores.names)
    func versionHashes(name: String) throws {
        let (model, stored) = try RealStores.read(name)
        let metadata = try #require(stored, "\(name): no metadata")
        #expect(metadata.storeType == "SQLite")
        #expect(!metadata.versionHashes.isEmpty)
        guard let model else {
            // Only stores written by old frameworks lack a cache.
            #expect(
                (metadata.frameworkVersion ?? 0) <= 519,
                "\(name): no model cache, framework \(metadata.frameworkVersion ?? 0)")
            return
        }
        let computed = model.versionHashes
        #expect(Set(computed.keys) == Set(metadata.versionHashes.keys), "\(name): entity names differ")
        let matched = metadata.versionHashes.filter { computed[$0.key] == $0.value }.count
        #expect(
            matched == metadata.versionHashes.count, "\(name): \(matched)/\(metadata.versionHashes.count) entity hashes"
        )
        for (entity, hash) in metadata.versionHashes {
            #expect(computed[entity] == hash, "\(name): \(entity)")
        }
        if let checksum = metadata.checksum { #expect(model.versionChecksum == checksum, "\(name): checksum") }
        if let digest = metadata.digest { #expect(model.versionHashesDigest == digest, "\(name): digest") }
    }

    @Test("SampleModel2: inheritance, an abstract parent, a derived attribute, fetched properties, a transformer")
    func sampleModel2() throws {
        let model = try #require(try RealStores.read("SampleModel2_V1__alemar11_CoreDataPlus.sqlite").model)
        #expect(model.entities.map(\.name) == ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"])
        #expect(model.versionIdentifiers == [])
        let novel = try #require(model.entity(named: "GraphicNovel"))
        #expect(novel.superentity == "Book")
        #expect(novel.attributes.map(\.name) == ["isBlackAndWhite"])
        #expect(novel.attributes.first?.defaultValue == "NO")
        #expect(novel.relationships.isEmpty)
        let book = try #require(model.entity(named: "Book"))
        #expect(book.uniquenessConstraints == [["uniqueID"]])
        let attributes = Dictionary(uniqueKeysWithValues: book.attributes.map { ($0.name, $0) })
        #expect(attributes["pagesCount"]?.derivation == "count:(pages)")
        #expect(attributes["pagesCount"]?.isReadOnly == true)
        #expect(attributes["cover"]?.type == .transformable)
        #expect(attributes["cover"]?.valueTransformerName == "CoverTransformer")
        #expect(attributes["cover"]?.defaultValue == nil)  // a custom object has no text form
        #expect(attributes["price"]?.valueClassName == "NSDecimalNumber")
        let pages = try #require(book.relationships.first { $0.name == "pages" })
        #expect(
            pages.maxCount == 10000 && pages.minCount == 1 && pages.deleteRule == .cascade && pages.inverse == "book")
        #expect(try #require(model.entity(named: "Writer")).isAbstract)
        let author = try #require(model.entity(named: "Author"))
        #expect(author.superentity == "Writer")
        #expect(author.attributes.map(\.name) == ["alias", "siteURL"])
        #expect(author.fetchedProperties == ["favFeedbacks", "feedbacks"])
        #expect(author.relationships.first?.maxCount == -1)
    }

    @Test("Bookmarks: fetch indexes, hash modifiers, ordered self-relationships, a renaming identifier")
    func bookmarks() throws {
        let model = try #require(try RealStores.read("Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite").model)
        let entity = try #require(model.entity(named: "BookmarkEntity"))
        #expect(entity.fetchIndexes.map(\.name) == ["isPendingDeletion", "byUUID", "byURL", "byIsPendingDeletion"])
        #expect(entity.fetchIndexes[1].elements == [.init("uuid"), .init("isPendingDeletion")])
        let attributes = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0) })
        #expect(attributes["uuid"]?.versionHashModifier == "3")
        #expect(attributes["title"]?.versionHashModifier == nil)
        #expect(attributes["isPendingDeletion"]?.isIndexed == true)
        let relationships = Dictionary(uniqueKeysWithValues: entity.relationships.map { ($0.name, $0) })
        #expect(relationships["children"]?.isOrdered == true)
        #expect(relationships["children"]?.destination == "BookmarkEntity")
        #expect(relationships["parent"]?.inverse == "children")
        #expect(relationships["favoriteFolders"]?.renamingIdentifier == "favoriteFolder")
        #expect(model.versionIdentifiers == [""])
    }

    @Test("default values of other types read as text: UUID, decimal, integer, string")
    func defaultValues() throws {
        let resources = try #require(try RealStores.read("default__sergd2005_ResourcesManager.sqlite").model)
        let component = try #require(resources.entity(named: "Component"))
        #expect(component.attributes.first { $0.name == "id" }?.defaultValue == "1B9FD00D-CB92-46CD-8711-5297025B7822")
        let cart = try #require(try RealStores.read("CartStorage_v1__Karim-ezzedine_CartKit.sqlite").model)
        #expect(
            cart.entity(named: "CDCartItem")?.attributes.first { $0.name == "unitPriceAmount" }?.defaultValue == "0")
        let easyLife = try #require(try RealStores.read("EasyLife_1.5.0__larromba_EasyLife.sqlite").model)
        #expect(easyLife.entity(named: "Project")?.attributes.first { $0.name == "priority" }?.defaultValue == "-1")
        let accounts = try #require(try RealStores.read("Accounts3__log2timeline_plaso.sqlite").model)
        #expect(
            accounts.entity(named: "AccountType")?.attributes.first { $0.name == "owningBundleID" }?.defaultValue
                == "com.apple.accountsd")
        #expect(accounts.entity(named: "Authorization")?.renamingIdentifier == "Permission")
    }

    @Test("metadata keys: Core Data's and the app's own; framework versions; identifiers")
    func metadata() throws {
        let accounts = try #require(try RealStores.read("Accounts3__log2timeline_plaso.sqlite").metadata)
        #expect(accounts.keys.contains("ACAccountTypeVersion"))
        #expect(accounts.versionIdentifiers == ["25"])
        #expect(accounts.frameworkVersion == 977)
        #expect(accounts.versionHashesVersion == 3)
        #expect(accounts.autoVacuumLevel == "2")
        let cart = try #require(try RealStores.read("CartKitSwiftData_v1__Karim-ezzedine_CartKit.sqlite").metadata)
        #expect(cart.maximumFrameworkVersion == 1523)
        #expect(cart.checksum == "2wsb3KxvOg2fCKAI7XTcqex2LnE5kpf6CjcDP/Srhao=")
        let recipes = try RealStores.read("Recipes__fruitsamples_iPhoneCoreDataRecipes.sqlite")
        #expect(recipes.model == nil)  // no Z_MODELCACHE table at all
        #expect(recipes.metadata?.frameworkVersion == 241)
        #expect(recipes.metadata?.versionIdentifiers == [])
    }

    @Test("every cut of a real cache and random byte damage give errors or models, never a crash")
    func damagedCaches() throws {
        let blob = try #require(try RealStores.modelCacheBlob("SampleModel2_V1__alemar11_CoreDataPlus.sqlite"))
        for length in stride(from: 0, to: blob.count, by: 37) {
            #expect(throws: ModelCacheError.self) { try ObjectModel(modelCache: blob.prefix(length)) }
        }
        let inflated = try RawInflate.inflate(blob)
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<120 {
            var damaged = Array(inflated)
            for _ in 0..<Int(random.next() % 4 + 1) {
                damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            if let model = try? ObjectModel(modelCache: ModelArchiveBuilder.storedDeflate(Data(damaged))) {
                _ = model.versionHashes
            }
        }
    }

    @Test("random rewiring of a real archive's references gives errors or models, never a crash or a hang")
    func rewiredArchives() throws {
        let blob = try #require(try RealStores.modelCacheBlob("SampleModel2_V1__alemar11_CoreDataPlus.sqlite"))
        let archive = try KeyedArchive(data: try RawInflate.inflate(blob))
        var random = SplitMix64(seed: 42)
        var decoded = 0
        for _ in 0..<150 {
            var objects = archive.objects
            for _ in 0..<Int(random.next() % 3 + 1) {
                let index = Int(random.next() % UInt64(objects.count))
                guard case .dictionary(var fields) = objects[index],
                    let key = fields.keys.sorted().randomElement(using: &random)
                else { continue }
                switch random.next() % 4 {
                case 0: fields[key] = .reference(Int(random.next() % UInt64(objects.count)))
                case 1: fields[key] = .reference(index)
                case 2: fields[key] = .string("x")
                default: fields[key] = nil
                }
                objects[index] = .dictionary(fields)
            }
            if let model = try? ObjectModel(keyedArchive: KeyedArchive(objects: objects, top: archive.top)) {
                _ = model.versionHashes
                decoded += 1
            }
        }
        #expect(decoded > 0)
    }
}

/// A small seeded generator, so damage tests are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
