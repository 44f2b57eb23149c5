import Foundation

/// Reading the model a store was last opened with, from its `Z_MODELCACHE` table (one row, one blob): raw DEFLATE of an
/// `NSKeyedArchiver` archive of the `NSManagedObjectModel`. Stores written by frameworks up to 519 have no cache.
extension ObjectModel {
    /// Decodes a `Z_MODELCACHE.Z_CONTENT` blob. Entities come in name order (byte-wise), each with only its own
    /// properties (inherited ones, which the archive repeats in every sub-entity, stay with the parent), attributes
    /// and relationships in name order; `versionIdentifiers` are the model's, sorted.
    /// - Parameter inflateLimit: the largest inflated size accepted, in bytes.
    /// - Throws: `ModelCacheError` — `.inflate` for bad DEFLATE, `.archive` for a bad archive, `.malformed` for an
    ///   inconsistent model (an unknown or cyclic superentity, a property without a name), `.unsupported` for a
    ///   model feature this reader cannot represent.
    init(modelCache: Data, inflateLimit: Int = RawInflate.defaultLimit) throws(ModelCacheError) {
        let inflated: Data
        do {
            inflated = try RawInflate.inflate(modelCache, limit: inflateLimit)
        } catch {
            throw .inflate(error)
        }
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: inflated)
        } catch {
            throw .archive(error)
        }
        try self.init(keyedArchive: archive)
    }

    /// Decodes an already inflated archive of an `NSManagedObjectModel`.
    /// - Throws: `ModelCacheError` — `.archive`, `.malformed` or `.unsupported`, as `init(modelCache:)`.
    init(keyedArchive: KeyedArchive) throws(ModelCacheError) {
        self = try ModelCacheDecoder(archive: keyedArchive).model()
    }

    /// The model cached in a store, or nil when the store has no `Z_MODELCACHE` table, no row or a NULL blob.
    /// - Throws: `TaskInterchangeError` — `.invalidData` when the cache cannot be decoded (the message names the
    ///   store and says why), or the classified SQLite error when the store cannot be read.
    package init?(modelCacheOf snapshot: StoreSnapshot) throws(TaskInterchangeError) {
        try self.init(modelCacheIn: snapshot.database, path: snapshot.path)
    }

    /// The model cached in the store open as `database`; `path` only names the store in messages.
    /// - Throws: `TaskInterchangeError`, as `init(modelCacheOf:)`.
    package init?(modelCacheIn database: Database, path: String) throws(TaskInterchangeError) {
        let content: SQLValue?
        do {
            let tables = try database.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(CoreDataNames.modelCacheTable)'")
            guard tables?.int64 == 1 else { return nil }
            content = try database.scalar(CoreDataNames.readModelCache)
        } catch {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read \(CoreDataNames.modelCacheTable)")
        }
        switch content {
        case nil, .null?:
            return nil
        case .blob(let bytes)?:
            guard !bytes.isEmpty else { return nil }
            do {
                try self.init(modelCache: Data(bytes))
            } catch {
                throw TaskInterchangeError(.invalidData, "\(path): \(CoreDataNames.modelCacheTable): \(error)")
            }
        case let other?:
            throw TaskInterchangeError(
                .invalidData, "\(path): \(CoreDataNames.modelCacheTable) holds \(Self.kind(of: other)), not a blob")
        }
    }

    private static func kind(of value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer: return "an integer"
        case .real: return "a real"
        case .text: return "text"
        case .blob: return "a blob"
        }
    }
}
