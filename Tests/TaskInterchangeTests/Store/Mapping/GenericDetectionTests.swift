import Foundation
import Testing

@testable import TaskInterchange

/// A kind is mapped only when the entity really looks like one; everything else travels generically.
@Suite("Detection that does not guess wrong")
struct GenericDetectionTests {
    /// A store shaped like Apple Notes: a `Folder` with a lone `name`, a `Note` with a title and dates.
    static let model = ObjectModel(entities: [
        ObjectModel.Entity(
            "Folder", attributes: [.init("name", .string, optional: true)],
            relationships: [.init("notes", to: "Note", inverse: "folder", toMany: true)]),
        ObjectModel.Entity(
            "Note",
            attributes: [
                .init("title", .string, optional: true), .init("creationDate", .date, optional: true),
                .init("modificationDate", .date, optional: true),
            ],
            relationships: [.init("folder", to: "Folder", inverse: "notes", toMany: false)]),
    ])

    func notesStore(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("Notes.sqlite")
        try StoreTemplate(model: Self.model).makeEmptyStore(at: path)
        let database = try Database(path: path, mode: .readWrite)
        // As Notes' stores from frameworks that kept no model cache.
        try database.execute("DELETE FROM Z_MODELCACHE")
        try database.execute("INSERT INTO ZFOLDER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'Notes')")
        try database.execute(
            "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZCREATIONDATE, ZFOLDER) "
                + "VALUES (1, 2, 1, 'Groceries', 700000000.5, 1)"
        )
        return path
    }

    @Test("Apple Notes' Folder is no category and its Note no task: both generic, the link kept")
    func notes() throws {
        let directory = try TemporaryDirectory()
        let path = try notesStore(in: directory)
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let schema = try StoreSchema(reading: database, path: path)
        let mapping = StoreMapping(detectingFrom: schema)
        #expect(StoreMapping.Kind.allCases.allSatisfy { mapping[$0] == nil })
        // The store keeps no model cache: without the app's model the key column travels raw, and says so.
        let untyped = try Exporter.export(store: path, toFile: directory.path("untyped.json"))
        #expect(untyped.findings.contains { $0.code == .untypedColumn && $0.entity == "Note" && !$0.isWarning })
        let raw = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("untyped.json")))
        #expect(raw.entities.first { $0.entity == "Note" }?.values["folder"] == .integer(1))
        var options = ExportOptions()
        options.model = Self.model
        let summary = try Exporter.export(store: path, toFile: directory.path("notes.json"), options: options)
        #expect(summary.counts.categories == 0 && summary.counts.tasks == 0)
        #expect(summary.generic == ["Folder": 1, "Note": 1])
        let archive = try Archive(json: try Data(contentsOf: directory.url.appendingPathComponent("notes.json")))
        let folder = try #require(archive.entities.first { $0.entity == "Folder" })
        let note = try #require(archive.entities.first { $0.entity == "Note" })
        #expect(note.values["title"] == .string("Groceries"))
        #expect(
            note.values["creationDate"]
                == .string(try LosslessDate.string(from: Date(timeIntervalSinceReferenceDate: 700000000.5))))
        #expect(note.values["folder"] == .string(folder.id.uuidString))
        #expect(archive.header.source?.model["Note"]?.relationships["folder"]?.destination == "Folder")
    }

    @Test("a task needs more than a title; what a task points at is a project, category or tag")
    func plausibility() {
        func kind(
            _ entity: String, _ fields: [String: String?], _ relationships: [String: String?] = [:]
        ) -> StoreMapping.KindMapping? {
            StoreMapping.KindMapping(entity: entity, fields: fields, relationships: relationships)
        }
        let loneName = StoreMapping.plausible([
            .task: kind("Item", ["title": "name", "isCompleted": nil, "dueDate": nil, "priority": nil])
        ])
        #expect(loneName.isEmpty)
        let todo = StoreMapping.plausible([
            .task: kind(
                "TodoItem", ["title": "name", "isCompleted": "done"],
                ["project": "project", "category": nil, "tags": nil]),
            .project: kind("Project", ["name": "name"]),
            .category: kind("Folder", ["name": "name"]),
        ])
        #expect(todo[.task] != nil && todo[.project] != nil)
        #expect(todo[.category] == nil)
    }
}
