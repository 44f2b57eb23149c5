import Foundation
import Testing
@testable import TaskInterchange

/// Stores written by Apple's frameworks, from `../shared/fixtures/real-stores`, always read through copies.
enum RealStores {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("shared/fixtures/real-stores")
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: directory.path) }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".sqlite") }.sorted()
    }

    /// Copies a fixture and its sidecars into `temporary`; returns the copy's path.
    static func copy(_ name: String, to temporary: TemporaryDirectory) throws -> String {
        for suffix in ["", "-wal", "-shm"] {
            let source = directory.appendingPathComponent(name + suffix).path
            guard FileManager.default.fileExists(atPath: source) else { continue }
            try FileManager.default.copyItem(atPath: source, toPath: temporary.path(name + suffix))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: temporary.path(name + suffix))
        }
        return temporary.path(name)
    }
}

@Suite("Real stores", .enabled(if: RealStores.available, "../shared/fixtures/real-stores is absent; real-store tests skipped"))
struct RealStoreTests {
    @Test("every fixture inspects; entity row counts equal SELECT count(*); files stay byte-identical", arguments: RealStores.names)
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
        #expect(inspection.model != nil || inspection.modelSource.hasPrefix("no usable model cache"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == files)
        #expect(try files.map { try Data(contentsOf: directory.url.appendingPathComponent($0)) } == before)
    }

    @Test("EasyLife's TodoItem is detected as tasks, with derived ids that are the same on every read")
    func easyLifeDetection() throws {
        let directory = try TemporaryDirectory()
        let path = try RealStores.copy("EasyLife_1.5.0__larromba_EasyLife.sqlite", to: directory)
        let first = try readStore(path)
        let second = try readStore(path)
        #expect(first.archive.tasks.count == 6)
        #expect(first.archive.tasks == second.archive.tasks)
        #expect(first.findings.contains { $0.code == .unmappedColumn && $0.property == "ZREPEATS" })
        #expect(first.findings.contains { $0.code == .derivedID && $0.count == 6 })
        let snapshot = try StoreSnapshot(path: path)
        let uuid = try #require(try StoreSchema(reading: snapshot.database, path: path).storeUUID)
        #expect(first.archive.tasks.map(\.id).contains(UUID.derived(storeUUID: uuid, entity: "TodoItem", primaryKey: 1)))
    }
}

@Suite("EasyLife through the sample mapping", .enabled(if: RealStores.available, "../shared/fixtures/real-stores is absent; skipped"))
struct EasyLifeMappingTests {
    @Test("samples/easylife-mapping.json reads TodoItem name/done/date/notes and its Project")
    func export() throws {
        let directory = try TemporaryDirectory()
        let path = try RealStores.copy("EasyLife_1.5.0__larromba_EasyLife.sqlite", to: directory)
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let mapping = try StoreMapping(contentsOf: url.appendingPathComponent("samples/easylife-mapping.json").path)
        #expect(mapping[.task]?.entity == "TodoItem")
        let (archive, findings) = try readStore(path, mapping: mapping)
        #expect(archive.tasks.count == 6)
        #expect(Set(archive.tasks.map(\.title)).isSuperset(of: ["send letter", "call landlord", "fix bike"]))
        #expect(archive.tasks.allSatisfy { $0.dueDate != nil })
        // What the mapping cannot carry is reported, not dropped silently.
        #expect(findings.contains { $0.code == .unmappedColumn && $0.property == "ZREPEATS" && $0.count == 6 })
        #expect(findings.contains { $0.code == .missingRequiredValue && $0.property == "createdAt" })
    }
}
