import Foundation
import TaskInterchange
import Testing

/// `migrate --model` into a version that reshapes the inheritance tree never lowers the keys handed out: every root of
/// the new version that takes rows of an old tree gets at least the largest key that tree ever had (its `Z_MAX`, or
/// its largest `Z_PK` when `Z_MAX` is -1), so an object made later cannot take a deleted object's key.
@Suite("migrate --model keeps every key handed out")
struct ModelChangeMaxKeyTests {
    /// Version 1: `Animal` (abstract) with the sub-entities `Cat` and `Dog`, one table. Version 2 as given.
    static func model(version2 entities: String, in scratch: Scratch) throws -> String {
        let model = scratch.path("Zoo.xcdatamodeld")
        func write(_ version: String, _ body: String) throws {
            try FileManager.default.createDirectory(
                atPath: model + "/\(version).xcdatamodel", withIntermediateDirectories: true)
            try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23E224" \
            minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="\(version)">
            \(body)
            </model>
            """.write(toFile: model + "/\(version).xcdatamodel/contents", atomically: true, encoding: .utf8)
        }
        try write("v1", animal + cat + dog)
        try write("v2", entities)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>v2.xcdatamodel</string></dict></plist>
        """.write(toFile: model + "/.xccurrentversion", atomically: true, encoding: .utf8)
        return model
    }

    static let animal = """
        <entity name="Animal" representedClassName="Animal" isAbstract="YES" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>

        """
    static let cat = """
        <entity name="Cat" representedClassName="Cat" parentEntity="Animal" syncable="YES">
            <attribute name="lives" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
        </entity>

        """
    static let dog = """
        <entity name="Dog" representedClassName="Dog" parentEntity="Animal" syncable="YES">
            <attribute name="breed" optional="YES" attributeType="String"/>
        </entity>

        """

    /// A version 1 store: cats 1–2 and dog 3 (deleted objects had keys up to `maxKey`), `Z_MAX` set to `recorded`.
    static func store(model: String, recorded: Int64, dogKey: Int64 = 3, in scratch: Scratch) throws -> String {
        let path = scratch.path("Old.sqlite")
        let made = try TasksBinary.run(["model", "new-store", model, "--model-version", "v1", "-o", path])
        try #require(made.status == 0, "\(made.stderr)")
        let database = try Database(path: path, mode: .readWrite)
        var numbers: [String: Int64] = [:]
        for row in try database.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY") {
            numbers[row[0].string ?? ""] = row[1].int64
        }
        try database.execute(
            "INSERT INTO ZANIMAL (Z_PK, Z_ENT, Z_OPT, ZNAME, ZLIVES, ZBREED) VALUES "
                + "(1, \(numbers["Cat"]!), 1, 'Tom', 9, NULL), (2, \(numbers["Cat"]!), 1, 'Kit', 7, NULL), "
                + "(\(dogKey), \(numbers["Dog"]!), 1, 'Rex', NULL, 'collie')")
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(recorded) WHERE Z_NAME = 'Animal'")
        return path
    }

    static func maxKeys(_ path: String) throws -> [String: Int64] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        var result: [String: Int64] = [:]
        for row in try database.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0") {
            result[row[0].string ?? ""] = row[1].int64
        }
        return result
    }

    @Test("an inheritance tree split into two roots: each new root keeps the old root's Z_MAX")
    func split() throws {
        let scratch = try Scratch()
        let model = try Self.model(
            version2: """
                <entity name="Cat" representedClassName="Cat" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="lives" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                </entity>
                <entity name="Dog" representedClassName="Dog" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="breed" optional="YES" attributeType="String"/>
                </entity>
                """, in: scratch)
        let old = try Self.store(model: model, recorded: 36, in: scratch)
        let new = scratch.path("New.sqlite")
        let migrate = try TasksBinary.run([
            "migrate", "--from", old, "--to", new, "--backup", scratch.path("backup"), "--model", model,
            "--model-version", "v2",
        ])
        try #require(migrate.status == 0, "\(migrate.stderr)")
        #expect(!migrate.stderr.contains("maxKeys"), "\(migrate.stderr)")
        let keys = try Self.maxKeys(new)
        #expect(keys["Cat"] == 36 && keys["Dog"] == 36, "\(keys)")
        let rows = try Database(path: new, mode: .readOnly(immutable: false)).rows(
            "SELECT 'cat', Z_PK FROM ZCAT UNION ALL SELECT 'dog', Z_PK FROM ZDOG ORDER BY 1, 2")
        #expect(rows.map { "\($0[0].string ?? "")\($0[1].int64 ?? 0)" } == ["cat1", "cat2", "dog3"])
    }

    @Test("an entity removed, Z_MAX -1: the root keeps the largest key its rows had, the removed entity's too")
    func removed() throws {
        let scratch = try Scratch()
        let model = try Self.model(version2: Self.animal + Self.cat, in: scratch)
        // The dog, the largest key, goes with its entity; Z_MAX says -1, as seed stores copied between builds do.
        let old = try Self.store(model: model, recorded: -1, dogKey: 40, in: scratch)
        let new = scratch.path("New.sqlite")
        let migrate = try TasksBinary.run([
            "migrate", "--from", old, "--to", new, "--backup", scratch.path("backup"), "--model", model,
            "--model-version", "v2",
        ])
        try #require(migrate.status == 0, "\(migrate.stderr)")
        let keys = try Self.maxKeys(new)
        #expect(keys["Animal"] == 40, "\(keys)\n\(migrate.stderr)")
        #expect(
            try Database(path: new, mode: .readOnly(immutable: false)).scalar("SELECT count(*) FROM ZANIMAL")?.int64
                == 2)
    }
}
