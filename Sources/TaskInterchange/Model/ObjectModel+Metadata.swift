import Foundation

/// The `Z_METADATA` plist of a new store for a model (the binary plist in `Z_METADATA.Z_PLIST`): what Core Data
/// compares with the app's model when it opens the store.
extension ObjectModel {
    /// The first framework versions seen writing each optional key. Real stores show the digest at 977 and not at
    /// 865, the checksum at 1333 and not at 1251, the maximum framework version at 1523 and not at 1345; the exact
    /// versions that introduced them lie somewhere in those ranges (Bookmarks_V4, written by 1333, has a checksum).
    enum MetadataKeysSince {
        static let digest = 977
        static let checksum = 1333
        static let maximumFrameworkVersion = 1523
    }

    /// A binary plist (`bplist00`) dictionary, keys sorted, with what Core Data writes: `NSStoreType`, `NSStoreModelVersionHashes` (the
    /// model's version hashes), `NSStoreModelVersionHashesVersion` 3, `NSStoreModelVersionIdentifiers`,
    /// `NSPersistenceFrameworkVersion`, `_NSAutoVacuumLevel` "2", and — as the framework version that wrote real
    /// stores did — `NSStoreModelVersionHashesDigest` (from 977), `NSStoreModelVersionChecksumKey` (from 1344) and
    /// `NSPersistenceMaximumFrameworkVersion` (from 1523, equal to `frameworkVersion`).
    /// - Parameters:
    ///   - storeType: `NSStoreType`.
    ///   - frameworkVersion: `NSPersistenceFrameworkVersion`, the Core Data build the store claims to come from.
    package func metadataPlist(storeType: String = "SQLite", frameworkVersion: Int) -> [UInt8] {
        let hashes = versionHashes
        var plist: [String: BinaryPropertyList.Value] = [
            "NSStoreType": .string(storeType),
            "NSStoreModelVersionHashes": .dictionary(hashes.mapValues { .data($0) }),
            "NSStoreModelVersionHashesVersion": .integer(3),
            "NSStoreModelVersionIdentifiers": .array(versionIdentifiers.map { .string($0) }),
            "NSPersistenceFrameworkVersion": .integer(Int64(frameworkVersion)),
            "_NSAutoVacuumLevel": .string("2"),
        ]
        if frameworkVersion >= MetadataKeysSince.digest {
            plist["NSStoreModelVersionHashesDigest"] = .string(Self.digest(of: hashes))
        }
        if frameworkVersion >= MetadataKeysSince.checksum {
            plist["NSStoreModelVersionChecksumKey"] = .string(Self.checksum(of: hashes))
        }
        if frameworkVersion >= MetadataKeysSince.maximumFrameworkVersion {
            plist["NSPersistenceMaximumFrameworkVersion"] = .integer(Int64(frameworkVersion))
        }
        // Keys sorted: the same model gives the same bytes in every process (`PropertyListSerialization` would write
        // them in the dictionary's per-process hash order).
        return BinaryPropertyList.encode(.dictionary(plist))
    }
}
