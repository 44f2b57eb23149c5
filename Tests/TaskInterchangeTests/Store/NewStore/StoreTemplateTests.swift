import Foundation
import Testing
@testable import TaskInterchange

@Suite("Store templates (--model-from)")
struct StoreTemplateTests {
    static func schema(_ path: String) throws -> [String] {
        try StoreSnapshot(path: path).database.rows(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite%' ORDER BY name"
        )
        .map { $0.map { $0.string ?? "" }.joined(separator: "|") }
    }

    static func metadata(_ path: String) throws -> (plist: SQLValue?, entities: [[SQLValue]]) {
        let database = try StoreSnapshot(path: path).database
        return (
            try database.scalar("SELECT Z_PLIST FROM Z_METADATA"),
            try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        )
    }

    @Test("a new store built from a template has its exact schema, entities and metadata plist, and a new UUID")
    func sameSchema() throws {
        let directory = try TemporaryDirectory()
        let template = directory.path("template.sqlite")
        // A template with a trigger and a store-specific plist, as an app's own store would have.
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 1, maxTasks: 3), into: template, options: StoreImportOptions())
        let database = try Database(path: template, mode: .readWrite)
        try database.execute(
            "CREATE TABLE ZAUDIT (Z_PK INTEGER PRIMARY KEY, ZNOTE VARCHAR); CREATE TRIGGER Z_DA_AUDIT AFTER INSERT ON ZTASK BEGIN INSERT INTO ZAUDIT (ZNOTE) VALUES ('x'); END;"
        )
        try database.execute(
            "UPDATE Z_METADATA SET Z_PLIST = x'62706C6973743030D0080000000000000101000000000000000100000000000000000000000000000009'"
        )
        let archive = ArchiveGenerator.archive(seed: 2)
        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: template)
        let target = directory.path("new.sqlite")
        _ = try StoreImport.run(archive, into: target, options: options)
        #expect(try Self.schema(target) == Self.schema(template))
        #expect(try Self.metadata(target).plist == Self.metadata(template).plist)
        #expect(try Self.metadata(target).entities == Self.metadata(template).entities)
        #expect(try readStore(target).archive.tasks == archive.tasks)
        // The template's trigger exists in the new store but never fired during the import.
        #expect(
            try Database(path: target, mode: .readOnly(immutable: false)).scalar("SELECT count(*) FROM ZAUDIT")?.int64
                == 0)
        let uuids = try [template, target].map {
            try StoreSnapshot(path: $0).database.scalar("SELECT Z_UUID FROM Z_METADATA")?.string
        }
        #expect(uuids[0] != uuids[1])
    }

    @Test("a template only shapes new stores")
    func existingTarget() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.sqlite")
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 1, maxTasks: 2), into: path, options: StoreImportOptions())
        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: path)
        let error = try #require(throws: TaskInterchangeError.self) {
            try StoreImport.run(ArchiveGenerator.archive(seed: 3), into: path, options: options)
        }
        #expect(error.kind == .cannotCreate)
    }
}
