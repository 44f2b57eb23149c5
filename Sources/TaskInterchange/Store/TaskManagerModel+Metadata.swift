import Foundation

extension TaskManagerModel {
    /// The `Z_METADATA` plist of a new store (binary plist, as Core Data writes it), with the model's version hashes so
    /// an app with the same model opens the store without a migration.
    static func metadataPlist() -> [UInt8] {
        let plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": model.versionHashes.mapValues { Data($0) },
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionHashesDigest": model.versionHashesDigest,
            "NSStoreModelVersionChecksumKey": model.versionChecksum,
            "NSStoreModelVersionIdentifiers": model.versionIdentifiers,
            "NSPersistenceFrameworkVersion": 1338,
            "_NSAutoVacuumLevel": "2",
        ]
        // A dictionary of strings, numbers, arrays and data always serializes.
        let data = (try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)) ?? Data()
        return Array(data)
    }
}
