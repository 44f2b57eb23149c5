import Foundation
import Testing
@testable import TaskInterchange

@Suite("Model version hashes")
struct VersionHashTests {
    @Test("SHA-256 and SHA-512 match the FIPS 180-4 test vectors")
    func sha2() {
        let abc = Array("abc".utf8)
        #expect(SHA2.sha256(abc).map { String(format: "%02x", $0) }.joined() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA2.sha512(abc).map { String(format: "%02x", $0) }.joined().hasPrefix("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"))
        #expect(SHA2.sha256([]).map { String(format: "%02x", $0) }.joined() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array(repeating: UInt8(ascii: "a"), count: 1000)
        #expect(SHA2.sha256(long).count == 32)
    }

    @Test("the built-in model's hashes equal those the sample generator computed independently (in Python)")
    func sampleStoreHashes() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let sample = url.appendingPathComponent("samples/TaskManager.sqlite").path
        let snapshot = try StoreSnapshot(path: sample)
        let blob = try #require(try snapshot.database.scalar("SELECT Z_PLIST FROM Z_METADATA")).self
        guard case .blob(let bytes) = blob else { Issue.record("no plist"); return }
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        let stored = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        let model = TaskManagerModel.model
        #expect(stored.mapValues { Array($0) } == model.versionHashes)
        #expect(plist["NSStoreModelVersionChecksumKey"] as? String == model.versionChecksum)
        #expect(plist["NSStoreModelVersionHashesDigest"] as? String == model.versionHashesDigest)
    }

    @Test("a new store's metadata carries the model's hashes")
    func newStoreMetadata() throws {
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(TaskManagerModel.metadataPlist()), format: nil) as? [String: Any])
        #expect((plist["NSStoreModelVersionHashes"] as? [String: Data])?.count == 5)
        #expect(plist["NSStoreType"] as? String == "SQLite")
    }
}
