import Foundation

extension CoreDataModel {
    /// The `Z_METADATA` plist of a new store (binary plist, as Core Data writes it).
    static func metadataPlist() -> [UInt8] {
        let plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""],
            "NSPersistenceFrameworkVersion": 1338,
            "_NSAutoVacuumLevel": "2",
        ]
        let data = (try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)) ?? Data()
        return Array(data)
    }
}
