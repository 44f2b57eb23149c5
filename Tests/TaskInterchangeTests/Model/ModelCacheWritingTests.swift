import Foundation
import Testing
@testable import TaskInterchange

/// The model caches `tasks` writes, proven against the ones Core Data wrote: for every shared store with a cache,
/// the model decoded from it is written again and must decode to the same object graph and the same `ObjectModel`.
@Suite(
    "Model cache writing",
    .enabled(if: RealStores.available, "../shared/fixtures/real-stores is absent; model cache writing tests skipped"))
struct ModelCacheWritingTests {
    /// Every shared store: real stores by name, model fixtures as `models/folder/name.sqlite`.
    static var stores: [String] {
        RealStores.names + (ModelFixtures.available ? ModelFixtures.stores.map { "models/" + $0 } : [])
    }

    /// A store's raw `Z_MODELCACHE` blob, read through a private copy; nil when it has none.
    static func cache(_ store: String) throws -> Data? {
        guard store.hasPrefix("models/") else { return try RealStores.modelCacheBlob(store) }
        let directory = try TemporaryDirectory()
        let snapshot = try StoreSnapshot(path: try ModelFixtures.copy(String(store.dropFirst(7)), to: directory))
        guard
            try snapshot.database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'")?.int64 == 1,
            case .blob(let bytes)? = try snapshot.database.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE")
        else { return nil }
        return Data(bytes)
    }

    @Test("re-written, every cache Core Data wrote decodes to the same object graph and model", arguments: stores)
    func rewrite(store: String) throws {
        guard let blob = try Self.cache(store) else { return }
        let coreData = try KeyedArchive(data: try RawInflate.inflate(blob))
        let model = try ObjectModel(modelCache: blob)
        let written: [UInt8]
        do {
            written = try model.modelCache()
        } catch {
            Issue.record("\(store): \(error)")
            return
        }
        let ours = try KeyedArchive(data: try RawInflate.inflate(Data(written)))
        let differences = ArchiveGraphComparison.differences(coreData, ours)
        #expect(differences.isEmpty, "\(store):\n\(differences.joined(separator: "\n"))")
        #expect(try ObjectModel(modelCache: Data(written)) == model, "\(store): decodes to another model")
    }
}
