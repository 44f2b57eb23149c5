import Foundation
import Testing
@testable import TaskInterchange

@Suite("Model version hashes")
struct VersionHashTests {
    @Test("SHA-256 and SHA-512 match the FIPS 180-4 test vectors")
    func sha2() {
        let abc = Array("abc".utf8)
        #expect(
            SHA2.sha256(abc).map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA2.sha512(abc).map { String(format: "%02x", $0) }.joined().hasPrefix(
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"))
        #expect(
            SHA2.sha256([]).map { String(format: "%02x", $0) }.joined()
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array(repeating: UInt8(ascii: "a"), count: 1000)
        #expect(SHA2.sha256(long).count == 32)
    }

    /// The built-in model's hashes as a separate implementation (a Python one, since retired) computed them and wrote
    /// them into the first sample store; the same code reproduced every entity hash of the real stores' model caches.
    static let independentHashes = [
        "Category": "8Qu3ClYq7QD6tkF7lZ+rt9rkC9pMOCRl5TW8X7Q2Z1A=",
        "Project": "ObF7JieYODmkEHHp9wk/BmvRkGYR3l1lLuE/NEmLouc=",
        "Subtask": "tUqHc/7UWm07rrzwqF5ZX1tVGCy6h39kEV8ECTsrneI=",
        "Tag": "R2woCgeZbO3rMjf33w0yzBMNpCH+Ojg+Xsyr01I+swU=",
        "Task": "3+kbhDwYw9hfWiPbk/oSxSnxSsgX4DhwK6fgvGNPyvk=",
    ]
    static let independentChecksum = "bPtBK96flOXy3MBkyz8QDXa7psQAQuXDAFOm09piaa4="
    static let independentDigest =
        "XzqTDXMc6DaAGcF90gBzDXZJeHmr8idf5nFpVNMLk4ZdDhkTEnp3gz0r75pboiQUbicsFskJ8X8YxM+XO1ZyTA=="

    @Test("the built-in model's hashes equal those an independent implementation computed; the sample store has them")
    func sampleStoreHashes() throws {
        let model = TaskManagerModel.model
        #expect(model.versionHashes.mapValues { Data($0).base64EncodedString() } == Self.independentHashes)
        #expect(model.versionChecksum == Self.independentChecksum)
        #expect(model.versionHashesDigest == Self.independentDigest)
        let sample = SampleStores.repository.appendingPathComponent("samples/TaskManager.sqlite").path
        let snapshot = try StoreSnapshot(path: sample)
        let blob = try #require(try snapshot.database.scalar("SELECT Z_PLIST FROM Z_METADATA")).self
        guard case .blob(let bytes) = blob else { Issue.record("no plist"); return }
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        let stored = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(stored.mapValues { $0.base64EncodedString() } == Self.independentHashes)
        #expect(plist["NSStoreModelVersionChecksumKey"] as? String == Self.independentChecksum)
        #expect(plist["NSStoreModelVersionHashesDigest"] as? String == Self.independentDigest)
    }

    @Test("a new store's metadata carries the model's hashes")
    func newStoreMetadata() throws {
        let metadata = try #require(TaskManagerModel.template.metadata)
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(metadata), format: nil) as? [String: Any])
        #expect((plist["NSStoreModelVersionHashes"] as? [String: Data])?.count == 5)
        #expect(plist["NSStoreType"] as? String == "SQLite")
    }

    // The next tests pin two rules read from decompiled Core Data, not yet verified on any real store: the expected
    // bytes are built here by hand from the hashing rules, independently of ObjectModel+VersionHashes.swift.

    private static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    private static func base(_ name: String, optional: Bool) -> [UInt8] {
        SHA2.sha256(Array(name.utf8) + u16(optional ? 1 : 0))
    }

    @Test("a relationship that is its own inverse is hashed without the inverse name (unverified on real stores)")
    func ownInverse() throws {
        var spouse = ObjectModel.Relationship("spouse", to: "Person", inverse: "spouse", toMany: false)
        spouse.isOptional = true
        let model = ObjectModel(entities: [.init("Person", attributes: [], relationships: [spouse])])
        let withoutInverse = SHA2.sha256(
            Self.base("spouse", optional: true) + Array("Person".utf8) + Self.u32(1) + Self.u32(0))
        #expect(model.versionHashes["Person"] == SHA2.sha256(Array("Person".utf8) + [0] + withoutInverse))
        // The same relationship declared with a different inverse name keeps that name in its hash.
        #expect(
            ObjectModel.hash(spouse)
                == SHA2.sha256(
                    Self.base("spouse", optional: true) + Array("Personspouse".utf8) + Self.u32(1) + Self.u32(0)))
        #expect(ObjectModel.hash(spouse, isOwnInverse: true) == withoutInverse)
    }

    @Test(
        "own inverse: destination the declaring entity or an ancestor, inherited by sub-entities; not for another destination"
    )
    func ownInverseScope() throws {
        var friends = ObjectModel.Relationship("friends", to: "Being", inverse: "friends", toMany: true)
        friends.isOptional = true
        // Declared on Person, pointing at its ancestor Being.
        let model = ObjectModel(entities: [
            .init("Being", attributes: []),
            .init("Person", superentity: "Being", attributes: [], relationships: [friends]),
            .init("Child", superentity: "Person", attributes: []),
        ])
        let person = try #require(model.entity(named: "Person"))
        #expect(model.isOwnInverse(friends, declaredBy: person))
        let hash = SHA2.sha256(Self.base("friends", optional: true) + Array("Being".utf8) + Self.u32(0) + Self.u32(0))
        let hashes = model.versionHashes
        let being = SHA2.sha256(Array("Being".utf8) + [0])
        let personHash = SHA2.sha256(Array("Person".utf8) + [0] + being + hash)
        #expect(hashes["Being"] == being)
        #expect(hashes["Person"] == personHash)
        #expect(hashes["Child"] == SHA2.sha256(Array("Child".utf8) + [0] + personHash + hash))
        // The same names on an unrelated destination: an ordinary relationship, inverse name hashed.
        var elsewhere = friends
        elsewhere.destination = "Robot"
        let other = ObjectModel(entities: [
            .init("Person", attributes: [], relationships: [elsewhere]), .init("Robot", attributes: []),
        ])
        #expect(!other.isOwnInverse(elsewhere, declaredBy: try #require(other.entity(named: "Person"))))
        let ordinary = SHA2.sha256(
            Self.base("friends", optional: true) + Array("Robotfriends".utf8) + Self.u32(0) + Self.u32(0))
        #expect(other.versionHashes["Person"] == SHA2.sha256(Array("Person".utf8) + [0] + ordinary))
    }

    @Test(
        "a composite attribute hashes as its flattened, name-sorted, non-transient leaves (unverified on real stores)")
    func composite() throws {
        func leaf(_ name: String, _ type: ObjectModel.AttributeType, rawType: UInt32, optional: Bool = false) -> (
            ObjectModel.Attribute, [UInt8]
        ) {
            (
                ObjectModel.Attribute(name, type, optional: optional),
                SHA2.sha256(Self.base(name, optional: optional) + Self.u32(rawType))
            )
        }
        let (street, streetHash) = leaf("street", .string, rawType: 700)
        let (zip, zipHash) = leaf("zip", .integer32, rawType: 200, optional: true)
        let (latitude, latitudeHash) = leaf("latitude", .double, rawType: 500)
        var note = ObjectModel.Attribute("note", .string)
        note.isTransient = true
        var location = ObjectModel.Attribute("location", .composite)
        location.elements = [latitude]
        var address = ObjectModel.Attribute("address", .composite)
        address.elements = [zip, note, street, location]
        let expected = SHA2.sha256(latitudeHash + streetHash + zipHash)
        #expect(ObjectModel.hash(address) == expected)
        #expect(ObjectModel.byteOrderedLeaves(of: address).map(\.name) == ["latitude", "street", "zip"])
        // Its own name, flags and type take no part.
        var renamed = address
        renamed.name = "home"
        renamed.isOptional = true
        renamed.versionHashModifier = "2"
        #expect(ObjectModel.hash(renamed) == expected)
        let model = ObjectModel(entities: [.init("Person", attributes: [address])])
        #expect(model.versionHashes["Person"] == SHA2.sha256(Array("Person".utf8) + [0] + expected))
    }

    @Test("hashing a hand-built model with a superentity cycle ends")
    func cycleEnds() {
        let model = ObjectModel(entities: [
            .init("A", superentity: "B", attributes: []), .init("B", superentity: "A", attributes: []),
        ])
        #expect(model.versionHashes.count == 2)
    }
}
