import Foundation
import Testing
@testable import TaskInterchange

@Suite("Store metadata")
struct StoreMetadataTests {
    private func plist(_ value: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }

    @Test("known keys decode into fields; every key is listed in byte order")
    func fields() throws {
        let hash = Data(repeating: 7, count: 32)
        let metadata = try StoreMetadata(
            plist: try plist(
                [
                    "NSStoreType": "SQLite", "NSStoreModelVersionHashes": ["Task": hash],
                    "NSStoreModelVersionHashesVersion": 3,
                    "NSStoreModelVersionIdentifiers": ["", 2], "NSPersistenceFrameworkVersion": 1338,
                    "_NSAutoVacuumLevel": "2",
                    "NSStoreModelVersionChecksumKey": "c", "NSStoreModelVersionHashesDigest": "d", "MyAppKey": true,
                ] as [String: Any]))
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.versionHashes == ["Task": Array(hash)])
        #expect(metadata.versionHashesVersion == 3)
        #expect(metadata.versionIdentifiers == ["", "2"])
        #expect(metadata.frameworkVersion == 1338)
        #expect(metadata.checksum == "c" && metadata.digest == "d" && metadata.autoVacuumLevel == "2")
        #expect(metadata.maximumFrameworkVersion == nil)
        #expect(
            metadata.keys == [
                "MyAppKey", "NSPersistenceFrameworkVersion", "NSStoreModelVersionChecksumKey",
                "NSStoreModelVersionHashes", "NSStoreModelVersionHashesDigest", "NSStoreModelVersionHashesVersion",
                "NSStoreModelVersionIdentifiers", "NSStoreType", "_NSAutoVacuumLevel",
            ])
    }

    @Test("the metadata this tool writes for new stores reads back with the model's hashes")
    func ownMetadata() throws {
        let plist = try #require(TaskManagerModel.template.metadata)
        let metadata = try StoreMetadata(plist: Data(plist))
        #expect(metadata.versionHashes == TaskManagerModel.model.versionHashes)
        #expect(metadata.checksum == TaskManagerModel.model.versionChecksum)
        #expect(metadata.digest == TaskManagerModel.model.versionHashesDigest)
    }

    @Test("garbage, a non-dictionary and wrongly typed known keys are errors")
    func errors() throws {
        #expect { try StoreMetadata(plist: Data([0x00, 0xFF, 0x10])) } throws: { error in
            if case .notAPropertyList = error as? StoreMetadataError { return true }
            return false
        }
        #expect(throws: StoreMetadataError.notADictionary) { try StoreMetadata(plist: try plist(["a", "b"])) }
        #expect(throws: StoreMetadataError.malformed("the version hash of Task is 16 bytes, not 32 bytes of data")) {
            try StoreMetadata(plist: try plist(["NSStoreModelVersionHashes": ["Task": Data(count: 16)]]))
        }
        #expect(throws: StoreMetadataError.malformed("NSStoreType is an integer, not a string")) {
            try StoreMetadata(plist: try plist(["NSStoreType": 5]))
        }
        #expect(throws: StoreMetadataError.malformed("NSPersistenceFrameworkVersion is data, not an integer")) {
            try StoreMetadata(plist: try plist(["NSPersistenceFrameworkVersion": Data()]))
        }
    }

    @Test("a store without Z_METADATA or with a NULL plist has no metadata; a bad plist names the store")
    func stores() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("plain.sqlite")
        let database = try Database(path: path, mode: .create)
        #expect(try StoreMetadata(in: database, path: path) == nil)
        #expect(try ObjectModel(modelCacheIn: database, path: path) == nil)
        try database.execute(
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        try database.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        try database.execute("INSERT INTO Z_METADATA VALUES (1, 'U', NULL)")
        try database.execute("INSERT INTO Z_MODELCACHE VALUES (NULL)")
        #expect(try StoreMetadata(in: database, path: path) == nil)
        #expect(try ObjectModel(modelCacheIn: database, path: path) == nil)
        try database.execute("UPDATE Z_METADATA SET Z_PLIST = x'0102'")
        try database.execute("UPDATE Z_MODELCACHE SET Z_CONTENT = x'FFFFFFFF'")
        #expect { try StoreMetadata(in: database, path: path) } throws: { error in
            (error as? TaskInterchangeError)?.kind == .invalidData
                && (error as? TaskInterchangeError)?.message.hasPrefix(path) == true
        }
        #expect { try ObjectModel(modelCacheIn: database, path: path) } throws: { error in
            let error = error as? TaskInterchangeError
            return error?.kind == .invalidData
                && error?.message.hasPrefix("\(path): Z_MODELCACHE: the model cache cannot be inflated") == true
        }
    }
}
