import Foundation
import Testing
@testable import TaskInterchange

@Suite(
    "Real stores",
    .enabled(
        if: RealStores.available,
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); real-store tests skipped"
    ))
struct RealStoreTests {
    @Test(
        "every fixture inspects; entity row counts equal SELECT count(*); files stay byte-identical",
        arguments: RealStores.names)
    func inspect(name: String) throws {
        let directory = try TemporaryDirectory()
        let path = try RealStores.copy(name, to: directory)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        let before = try files.map { try Data(contentsOf: directory.url.appendingPathComponent($0)) }
        let inspection = try StoreInspection(snapshot: try StoreSnapshot(path: path))
        #expect(!inspection.entities.isEmpty)
        // An independent count through a private copy opened read-write by plain SQLite.
        let check = try TemporaryDirectory()
        let checkPath = try RealStores.copy(name, to: check)
        let database = try Database(path: checkPath, mode: .readWrite)
        for entity in inspection.entities where entity.superentity == nil {
            guard let table = entity.table else { continue }
            let subentities = inspection.entities.filter { $0.superentity == entity.name }
            guard subentities.isEmpty else { continue }
            let count = try database.scalar("SELECT count(*) FROM \(Database.quote(table))")?.int64
            #expect(count == Int64(entity.count), "\(name): \(entity.name)")
        }
        // Every entity hash computed from the model cache equals the one the framework stored.
        for entity in inspection.entities where entity.versionHash != nil || entity.storedVersionHash != nil {
            if inspection.model != nil, entity.entityNumber <= 16_000 {
                #expect(entity.versionHash == entity.storedVersionHash, "\(name): \(entity.name)")
            }
        }
        #expect(inspection.model != nil || inspection.modelSource.hasPrefix("no model cache"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == files)
        #expect(try files.map { try Data(contentsOf: directory.url.appendingPathComponent($0)) } == before)
    }

    @Test("a model cache cut short is reported as damaged, never as absent, and the store is still read whole")
    func damagedModelCache() throws {
        let directory = try TemporaryDirectory()
        let path = try RealStores.copy("SampleModel2_V1__alemar11_CoreDataPlus.sqlite", to: directory)
        let (intact, _) = try readStore(path)
        try Database(path: path, mode: .readWrite).execute(
            "UPDATE Z_MODELCACHE SET Z_CONTENT = substr(Z_CONTENT, 1, length(Z_CONTENT) / 2)")
        let (archive, findings) = try readStore(path)
        let damage = findings.filter { $0.code == .modelCache }
        #expect(damage.count == 1 && damage.allSatisfy(\.isWarning), "\(findings)")
        #expect(damage.first?.message.hasPrefix("model cache present but damaged (") == true, "\(damage)")
        #expect(!findings.contains { $0.message.hasPrefix("no model cache") }, "\(findings)")
        // Every record still travels (untyped where only the cache could name a column's meaning).
        #expect(archive.entities.count == intact.entities.count && !archive.entities.isEmpty)
        let inspection = try StoreInspection(snapshot: try StoreSnapshot(path: path))
        #expect(inspection.model == nil)
        #expect(inspection.modelSource.hasPrefix("model cache present but damaged"), "\(inspection.modelSource)")
    }

    @Test("EasyLife's TodoItem is detected as tasks, with derived ids that are the same on every read")
    func easyLifeDetection() throws {
        let directory = try TemporaryDirectory()
        let path = try RealStores.copy("EasyLife_1.5.0__larromba_EasyLife.sqlite", to: directory)
        let first = try readStore(path)
        let second = try readStore(path)
        #expect(first.archive.tasks.count == 6)
        #expect(first.archive.tasks == second.archive.tasks)
        // `repeats` has no interchange field: it travels under `extra`, so it is not reported as lost.
        #expect(first.archive.tasks.allSatisfy { $0.extra?["repeats"] != nil })
        #expect(!first.findings.contains { $0.code == .unmappedColumn && $0.property == "ZREPEATS" })
        #expect(first.findings.contains { $0.code == .derivedID && $0.count == 6 })
        let snapshot = try StoreSnapshot(path: path)
        let uuid = try #require(try StoreSchema(reading: snapshot.database, path: path).storeUUID)
        #expect(
            first.archive.tasks.map(\.id).contains(UUID.derived(storeUUID: uuid, entity: "TodoItem", primaryKey: 1)))
    }
}

@Suite(
    "EasyLife through the sample mapping",
    .enabled(
        if: RealStores.available,
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct EasyLifeMappingTests {
    @Test("samples/easylife-mapping.json reads TodoItem name/done/date/notes and its Project")
    func export() throws {
        let directory = try TemporaryDirectory()
        let path = try RealStores.copy("EasyLife_1.5.0__larromba_EasyLife.sqlite", to: directory)
        let mapping = try StoreMapping(
            contentsOf: SampleStores.repository.appendingPathComponent("samples/easylife-mapping.json").path)
        #expect(mapping[.task]?.entity == "TodoItem")
        let (archive, findings) = try readStore(path, mapping: mapping)
        #expect(archive.tasks.count == 6)
        #expect(Set(archive.tasks.map(\.title)).isSuperset(of: ["send letter", "call landlord", "fix bike"]))
        #expect(archive.tasks.allSatisfy { $0.dueDate != nil })
        // What the mapping has no field for travels under `extra`; what is missing is reported.
        #expect(archive.tasks.allSatisfy { $0.extra?.keys.contains("repeats") == true })
        #expect(findings.contains { $0.code == .missingRequiredValue && $0.property == "createdAt" })
    }
}
