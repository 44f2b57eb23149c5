import Foundation
import Testing

@testable import TaskInterchange

/// One-to-one pairs as stores hold them: a key column on each side, filled independently (one side only, both, or
/// disagreeing), keys that point at no row, and pairs on a sub-entity sharing its root's table. Every cell travels:
/// the export names what disagrees, the archive carries both columns and dangling keys, and a restore that keeps
/// identity writes the same cells back.
@Suite("One-to-one pairs: both sides, dangling keys, sub-entities")
struct OneToOneTests {
    /// `Item.badge ↔ Badge.item`; `GenericAsset` (root) with the sub-entity `Asset`, whose
    /// `extendedAttributes ↔ ExtendedAttributes.asset` lives in `GenericAsset`'s table.
    static let model = ObjectModel(entities: [
        ObjectModel.Entity(
            "Badge", attributes: [.init("label", .string, optional: true)],
            relationships: [.init("item", to: "Item", inverse: "badge", toMany: false)]),
        ObjectModel.Entity(
            "Item", attributes: [.init("name", .string, optional: true)],
            relationships: [.init("badge", to: "Badge", inverse: "item", toMany: false)]),
        ObjectModel.Entity("GenericAsset", attributes: [.init("kind", .integer16, optional: true)]),
        ObjectModel.Entity(
            "Asset", superentity: "GenericAsset", attributes: [.init("title", .string, optional: true)],
            relationships: [.init("extendedAttributes", to: "ExtendedAttributes", inverse: "asset", toMany: false)]),
        ObjectModel.Entity(
            "ExtendedAttributes", attributes: [.init("make", .string, optional: true)],
            relationships: [.init("asset", to: "Asset", inverse: "extendedAttributes", toMany: false)]),
    ])

    /// A store of `model` holding: items 1–5 and badges 1–4 whose keys say
    /// item 1 ↔ badge 1 (both sides), item 2 → badge 2 (badge's side NULL), badge 3 → item 3 (item's side NULL),
    /// item 4 → badge 4 but badge 4 → item 5 (different keys), item 5 → 99 (no such badge: dangling);
    /// assets 1–2 (and a plain GenericAsset) with extended attributes 1–2, asset 1 ↔ 1 both sides, asset 2 → 2 only.
    static func store(in directory: TemporaryDirectory) throws -> (path: String, schema: StoreSchema) {
        let path = directory.path("source.sqlite")
        try StoreTemplate(model: model).makeEmptyStore(at: path)
        let database = try Database(path: path, mode: .readWrite)
        var schema = try StoreSchema(reading: database, path: path)
        schema.locate(with: model)
        func number(_ name: String) -> Int64 { schema.entity(named: name)!.number }
        func key(_ property: String, of entity: String) -> String {
            schema.locator.toOne(property, in: schema.entity(named: entity)!)!.key
        }
        let (itemBadge, badgeItem) = (key("badge", of: "Item"), key("item", of: "Badge"))
        let (assetExtended, extendedAsset) = (
            key("extendedAttributes", of: "Asset"), key("asset", of: "ExtendedAttributes")
        )
        let items: [(Int64, Int64?)] = [(1, 1), (2, 2), (3, nil), (4, 4), (5, 99)]
        for (pk, badge) in items {
            try database.execute(
                "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, \(itemBadge)) VALUES "
                    + "(\(pk), \(number("Item")), 1, 'item \(pk)', \(badge.map(String.init) ?? "NULL"))")
        }
        let badges: [(Int64, Int64?)] = [(1, 1), (2, nil), (3, 3), (4, 5)]
        for (pk, item) in badges {
            try database.execute(
                "INSERT INTO ZBADGE (Z_PK, Z_ENT, Z_OPT, ZLABEL, \(badgeItem)) VALUES "
                    + "(\(pk), \(number("Badge")), 1, 'badge \(pk)', \(item.map(String.init) ?? "NULL"))")
        }
        try database.execute(
            "INSERT INTO ZGENERICASSET (Z_PK, Z_ENT, Z_OPT, ZKIND, ZTITLE, \(assetExtended)) VALUES "
                + "(1, \(number("Asset")), 1, 1, 'one', 1), (2, \(number("Asset")), 1, 1, 'two', 2), "
                + "(3, \(number("GenericAsset")), 1, 2, NULL, NULL)")
        try database.execute(
            "INSERT INTO ZEXTENDEDATTRIBUTES (Z_PK, Z_ENT, Z_OPT, ZMAKE, \(extendedAsset)) VALUES "
                + "(1, \(number("ExtendedAttributes")), 1, 'a', 1), (2, \(number("ExtendedAttributes")), 1, 'b', NULL)")
        for (entity, max) in [("Item", 5), ("Badge", 4), ("GenericAsset", 3), ("ExtendedAttributes", 2)] {
            try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(max) WHERE Z_NAME = '\(entity)'")
        }
        return (path, schema)
    }

    /// The validator's report on `archive` as written.
    static func validate(_ archive: Archive) throws -> ValidationReport {
        var validator = Validator()
        let bytes = try archive.jsonData()
        try ArchiveInput(bytes: Array(bytes)).withBytes { try ArchiveReader().read($0, into: &validator) }
        return validator.report
    }

    static func export(_ path: String, to output: String) throws -> ExportSummary {
        var options = ExportOptions()
        options.model = model
        options.mapping = StoreMapping(kinds: [:])
        options.exportDate = Date(timeIntervalSinceReferenceDate: 0)
        return try Exporter.export(store: path, toFile: output, options: options)
    }

    @Test(
        "both columns travel as stored; disagreeing sides and dangling keys are named; keep-identity restores every cell"
    )
    func restore() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try Self.store(in: directory)
        let summary = try Self.export(path, to: directory.path("a.json"))
        #expect(summary.cells?.isComplete == true, "\(summary.findings)")
        let mismatches = summary.findings.filter { $0.code == .oneToOneMismatch }
        func count(_ entity: String, _ property: String, _ what: String) -> Int {
            mismatches.filter { $0.entity == entity && $0.property == property && $0.message.contains(what) }
                .reduce(0) { $0 + $1.count }
        }
        // Item 2 → badge 2 (NULL back); item 4 → badge 4 (→ item 5); badge 3 → item 3 (NULL back); badge 4 → item 5
        // (→ 99); asset 2 → extended 2 (NULL back).
        #expect(count("Item", "badge", "holds no key") == 1)
        #expect(count("Item", "badge", "another key") == 1)
        #expect(count("Badge", "item", "holds no key") == 1)
        #expect(count("Badge", "item", "another key") == 1)
        #expect(count("Asset", "extendedAttributes", "holds no key") == 1)
        #expect(count("ExtendedAttributes", "asset", "") == 0)
        #expect(!mismatches.contains { $0.isWarning })
        let dangling = summary.findings.filter { $0.code == .danglingReference }
        #expect(dangling.map(\.count) == [1] && dangling.first?.entity == "Item", "\(dangling)")

        let archive = try Archive(json: Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        func record(_ entity: String, _ key: Int64) -> EntityRecord? {
            archive.entities.first { $0.entity == entity && $0.key == key }
        }
        func id(_ entity: String, _ key: Int64) -> ExtraValue? { record(entity, key).map { .string($0.id.uuidString) } }
        #expect(record("Item", 2)?.values["badge"] == id("Badge", 2))
        #expect(record("Badge", 2)?.values["item"] == nil)
        #expect(record("Badge", 3)?.values["item"] == id("Item", 3))
        #expect(record("Item", 3)?.values["badge"] == nil)
        #expect(record("Badge", 4)?.values["item"] == id("Item", 5))
        #expect(record("Item", 5)?.values["badge"] == nil)
        #expect(record("Item", 5)?.dangling == ["badge": EntityRecord.DanglingKey(key: 99)])
        #expect(record("Asset", 2)?.values["extendedAttributes"] == id("ExtendedAttributes", 2))
        #expect(record("ExtendedAttributes", 1)?.values["asset"] == id("Asset", 1))
        #expect(archive.header.source?.model["Asset"]?.relationships["extendedAttributes"] != nil)
        #expect(archive.header.source?.model["ExtendedAttributes"]?.relationships["asset"] != nil)
        #expect(try Self.validate(archive).isValid)

        var options = StoreImportOptions()
        options.template = StoreTemplate(model: Self.model)
        options.keepIdentity = true
        _ = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: directory.path("restored.sqlite"), options: options)
        let source = try StoreTables.contents(of: path)
        let restored = try StoreTables.contents(of: directory.path("restored.sqlite"))
        for table in source.keys.sorted() { #expect(source[table] == restored[table], "\(table)") }
        #expect(source.keys.sorted() == restored.keys.sorted())
    }

    @Test("an import that does not keep identity leaves dangling keys out and says how many")
    func danglingDropped() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try Self.store(in: directory)
        _ = try Self.export(path, to: directory.path("a.json"))
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: Self.model)
        let result = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: directory.path("copy.sqlite"), options: options)
        #expect(
            result.warnings.contains { $0.hasPrefix("Item.badge: 1 key that named no row") && $0.contains("dangling") },
            "\(result.warnings)")
        let database = try Database(path: directory.path("copy.sqlite"), mode: .readOnly(immutable: false))
        #expect(try database.scalar("SELECT count(*) FROM ZITEM WHERE ZBADGE = 99")?.int64 == 0)
        // The links themselves arrive as each side held them.
        #expect(try database.scalar("SELECT count(ZBADGE) FROM ZITEM")?.int64 == 3)
        #expect(try database.scalar("SELECT count(ZITEM) FROM ZBADGE")?.int64 == 3)
    }

    @Test("an archive that carries one side of a pair (an older one) sets both columns on import")
    func oneSideArchive() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try Self.store(in: directory)
        _ = try Self.export(path, to: directory.path("a.json"))
        var archive = try Archive(json: Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        archive.header.source?.model["Badge"]?.relationships["item"] = nil
        for index in archive.entities.indices where archive.entities[index].entity == "Badge" {
            archive.entities[index].values["item"] = nil
        }
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: Self.model)
        options.keepIdentity = true
        _ = try StoreImport.run(archive, into: directory.path("mirrored.sqlite"), options: options)
        let database = try Database(path: directory.path("mirrored.sqlite"), mode: .readOnly(immutable: false))
        let pairs = try database.rows(
            "SELECT i.Z_PK, b.Z_PK FROM ZITEM i JOIN ZBADGE b ON b.Z_PK = i.ZBADGE AND b.ZITEM = i.Z_PK ORDER BY 1")
        #expect(pairs.map { [$0[0].int64, $0[1].int64] } == [[1, 1], [2, 2], [4, 4]])
        #expect(try database.scalar("SELECT count(ZITEM) FROM ZBADGE")?.int64 == 3)
        // The store holds what the file says; the side it set from the other is not a difference.
        let diff = try GraphComparison.verify(
            .records(archive),
            against: .store(
                path: directory.path("mirrored.sqlite"), mapping: StoreMapping(kinds: [:]), model: Self.model))
        #expect(diff.differenceCount == 0, "\(diff.records)")
    }

    @Test("a key a destination row holds for an owner that does not exist is counted as not exported and named")
    func orphanInverseKey() throws {
        let model = ObjectModel(entities: [
            ObjectModel.Entity(
                "Folder", attributes: [],
                relationships: [.init("items", to: "Item", inverse: "folder", toMany: true, ordered: true)]),
            ObjectModel.Entity(
                "Item", attributes: [], relationships: [.init("folder", to: "Folder", inverse: "items", toMany: false)]),
        ])
        let directory = try TemporaryDirectory()
        let path = directory.path("s.sqlite")
        try StoreTemplate(model: model).makeEmptyStore(at: path)
        let database = try Database(path: path, mode: .readWrite)
        try database.execute("INSERT INTO ZFOLDER (Z_PK, Z_ENT, Z_OPT) VALUES (1, 1, 1)")
        try database.execute(
            "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZFOLDER, Z_FOK_FOLDER) VALUES (1, 2, 1, 1, 2048), (2, 2, 1, 77, 2048)"
        )
        var options = ExportOptions()
        options.model = model
        options.mapping = StoreMapping(kinds: [:])
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: options)
        #expect(summary.cells?.notExported == 1, "\(String(describing: summary.cells))")
        #expect(
            summary.findings.contains {
                $0.code == .danglingReference && $0.entity == "Folder" && $0.property == "items" && $0.count == 1
                    && $0.message.contains("ZITEM.ZFOLDER")
            }, "\(summary.findings)")
    }

    @Test("dangling keys: the validator refuses one on an attribute, beside a value, or naming a record's key")
    func danglingValidation() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try Self.store(in: directory)
        _ = try Self.export(path, to: directory.path("a.json"))
        let archive = try Archive(json: Data(contentsOf: directory.url.appendingPathComponent("a.json")))
        let item = archive.entities.firstIndex { $0.entity == "Item" && $0.key == 1 }!
        for (dangling, expected) in [
            (["name": EntityRecord.DanglingKey(key: 7)], ".dangling.name"),
            (["badge": EntityRecord.DanglingKey(key: 77)], ".dangling.badge"),
            (["badge": EntityRecord.DanglingKey(key: 3, entity: "Item")], ".dangling.badge.entity"),
        ] {
            var edited = archive
            edited.entities[item].dangling = dangling
            let report = try Self.validate(edited)
            #expect(
                report.issues.contains { $0.severity == .error && $0.path.hasSuffix(expected) },
                "\(dangling): \(report.issues)")
        }
        // A key that is a record's own: not dangling at all.
        var edited = archive
        edited.entities[item].values["badge"] = nil
        edited.entities[item].dangling = ["badge": EntityRecord.DanglingKey(key: 3)]
        #expect(
            try Self.validate(edited).issues.contains {
                $0.severity == .error && $0.path.hasSuffix(".dangling.badge.key")
            })
        // Written and read back through both layouts.
        for layout in [ArchiveWritingOptions.Layout.compact, .ndjson] {
            var writing = ArchiveWritingOptions()
            writing.layout = layout
            let read = try Archive(json: try archive.jsonData(options: writing))
            #expect(read.entities == archive.entities, "\(layout)")
        }
    }
}
