import Foundation

/// A store's metadata (`Z_METADATA.Z_PLIST`, a binary plist): what Core Data compares with the app's model on
/// open. Only the keys Core Data defines are decoded; `keys` lists every key, the app's own included.
package struct StoreMetadata: Sendable, Hashable {
    /// `NSStoreType` ("SQLite").
    package var storeType: String?
    /// `NSStoreModelVersionHashes`: entity name → 32-byte version hash.
    package var versionHashes: [String: [UInt8]] = [:]
    /// `NSStoreModelVersionHashesVersion` (3 in every store seen).
    package var versionHashesVersion: Int?
    /// `NSStoreModelVersionIdentifiers`, in stored order (numbers are given as text).
    package var versionIdentifiers: [String] = []
    /// `NSPersistenceFrameworkVersion`: the Core Data build that wrote the store.
    package var frameworkVersion: Int?
    /// `NSPersistenceMaximumFrameworkVersion`, in newer stores.
    package var maximumFrameworkVersion: Int?
    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes in name order.
    package var checksum: String?
    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity name and hash in name order.
    package var digest: String?
    /// `_NSAutoVacuumLevel` ("2").
    package var autoVacuumLevel: String?
    /// Every key of the plist, in byte order.
    package var keys: [String] = []

    /// Creates empty metadata.
    package init() {}

    /// Decodes a `Z_PLIST` (a binary or XML property list).
    /// - Throws: `StoreMetadataError` — `.notAPropertyList`, `.notADictionary`, or `.malformed` when a known key
    ///   holds the wrong kind of value (such as a version hash that is not 32 bytes).
    package init(plist: Data) throws(StoreMetadataError) {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: plist, options: [], format: nil)
        } catch {
            throw .notAPropertyList(
                plist.starts(with: Array("bplist".utf8))
                    ? "a damaged or truncated binary property list"
                    : (error as NSError).localizedDescription)
        }
        let value: KeyedArchive.Value
        do {
            value = try KeyedArchive.Value(foundation: object, depth: 0, limit: KeyedArchive.defaultDepthLimit)
        } catch {
            throw .notAPropertyList(error.description)
        }
        guard case .dictionary(let fields) = value else { throw .notADictionary }
        keys = fields.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        storeType = try Self.text(fields, "NSStoreType")
        checksum = try Self.text(fields, "NSStoreModelVersionChecksumKey")
        digest = try Self.text(fields, "NSStoreModelVersionHashesDigest")
        autoVacuumLevel = try Self.text(fields, "_NSAutoVacuumLevel")
        versionHashesVersion = try Self.number(fields, "NSStoreModelVersionHashesVersion")
        frameworkVersion = try Self.number(fields, "NSPersistenceFrameworkVersion")
        maximumFrameworkVersion = try Self.number(fields, "NSPersistenceMaximumFrameworkVersion")
        if let hashes = fields["NSStoreModelVersionHashes"] {
            guard case .dictionary(let entries) = hashes else {
                throw .malformed("NSStoreModelVersionHashes is \(hashes.kindName), not a dictionary")
            }
            for (entity, hash) in entries {
                guard case .data(let bytes) = hash, bytes.count == 32 else {
                    throw .malformed("the version hash of \(entity) is \(Self.describe(hash)), not 32 bytes of data")
                }
                versionHashes[entity] = Array(bytes)
            }
        }
        if let identifiers = fields["NSStoreModelVersionIdentifiers"] {
            guard case .array(let elements) = identifiers else {
                throw .malformed("NSStoreModelVersionIdentifiers is \(identifiers.kindName), not an array")
            }
            versionIdentifiers = try elements.map {
                (element: KeyedArchive.Value) throws(StoreMetadataError) -> String in
                switch element {
                case .string(let text): return text
                case .integer(let number): return String(number)
                case .real(let number): return String(number)
                default: throw .malformed("a model version identifier is \(element.kindName)")
                }
            }
        }
    }

    /// The metadata of a store, or nil when `Z_METADATA` is absent, empty or its plist NULL.
    /// - Throws: `TaskInterchangeError` — `.invalidData` when the plist cannot be decoded, or the classified SQLite
    ///   error when the store cannot be read.
    package init?(of snapshot: StoreSnapshot) throws(TaskInterchangeError) {
        try self.init(in: snapshot.database, path: snapshot.path)
    }

    /// The metadata of the store open as `database`; `path` only names the store in messages.
    /// - Throws: `TaskInterchangeError`, as `init(of:)`.
    package init?(in database: Database, path: String) throws(TaskInterchangeError) {
        let plist: SQLValue?
        do {
            let tables = try database.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(CoreDataNames.metadataTable)'")
            guard tables?.int64 == 1 else { return nil }
            plist = try database.scalar(CoreDataNames.readMetadataPlist)
        } catch {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read \(CoreDataNames.metadataTable)")
        }
        let bytes: [UInt8]
        switch plist {
        case nil, .null?: return nil
        case .blob(let blob)?: bytes = blob
        case .text(let text)?: bytes = Array(text.utf8)  // an XML plist stored as text by another tool
        case .integer?, .real?:
            throw TaskInterchangeError(
                .invalidData,
                "\(path): \(CoreDataNames.metadataTable).\(CoreDataNames.metadataPlistColumn) is a number, not a property list"
            )
        }
        do {
            try self.init(plist: Data(bytes))
        } catch {
            throw TaskInterchangeError(.invalidData, "\(path): \(error)")
        }
    }

    private static func text(_ fields: [String: KeyedArchive.Value], _ key: String) throws(StoreMetadataError)
        -> String?
    {
        guard let value = fields[key] else { return nil }
        guard case .string(let text) = value else { throw .malformed("\(key) is \(value.kindName), not a string") }
        return text
    }

    private static func number(_ fields: [String: KeyedArchive.Value], _ key: String) throws(StoreMetadataError) -> Int?
    {
        guard let value = fields[key] else { return nil }
        if let number = value.integer, let result = Int(exactly: number) { return result }
        if case .string(let text) = value, let number = Int(text) { return number }
        throw .malformed("\(key) is \(value.kindName), not an integer")
    }

    private static func describe(_ value: KeyedArchive.Value) -> String {
        if case .data(let bytes) = value { return "\(bytes.count) bytes" }
        return value.kindName
    }
}
