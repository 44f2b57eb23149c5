import Foundation
import Testing

@testable import TaskInterchange

/// The generic `entities` section under `Validator`: every problem with its code, JSON path and line:column.
@Suite("Validator: generic entities")
struct GenericValidationTests {
    static let folder = "0A000000-0000-4000-8000-000000000001"
    static let note = "0B000000-0000-4000-8000-000000000002"
    static let smart = "0C000000-0000-4000-8000-000000000003"
    static let missing = "0D000000-0000-4000-8000-000000000004"

    static let model = #"""
        {"Folder":{"attributes":{"name":"string"},
                   "relationships":{"notes":{"destination":"Note","toMany":true,"ordered":true,"inverse":"folder"}}},
         "SmartFolder":{"superentity":"Folder","attributes":{"name":"string","query":"string"},"relationships":
             {"notes":{"destination":"Note","toMany":true,"ordered":true,"inverse":"folder"}}},
         "Note":{"attributes":{"title":"string","created":"date","pinned":"boolean","data":"binary"},
                 "relationships":{"parent":{"destination":"Folder","toMany":false,"ordered":false}}},
         "Base":{"abstract":true,"attributes":{},"relationships":{}}}
        """#

    /// A document whose `Note` record is `note` (one line each record, so issues have distinct lines).
    func document(note: String? = nil, folder: String? = nil, model: String = model, count: Int = 3) -> String {
        let noteRecord =
            note
            ?? #"{"id":"\#(Self.note)","key":1,"values":{"title":"Hi","created":"2024-01-01T00:00:00Z","#
            + #""parent":"\#(Self.smart)"}}"#
        let folderRecord =
            folder
            ?? #"{"id":"\#(Self.folder)","key":1,"values":{"name":"A","notes":["\#(Self.note)"]},"#
            + #""positions":{"notes":[2048]}}"#
        return """
            {"format":"tasks-interchange","version":2,"exportDate":"2024-01-01T00:00:00Z",
            "generator":{"name":"t","version":"1"},
            "source":{"store":"s","storeUUID":"S","entities":{},"model":\(model)},
            "projects":[],"categories":[],"tags":[],"tasks":[],
            "entities":{"Folder":[
            \(folderRecord)],
            "Note":[
            \(noteRecord)],
            "SmartFolder":[
            {"id":"\(Self.smart)","key":2,"values":{"name":"S","query":"q"}}]},
            "counts":{"projects":0,"categories":0,"tags":0,"tasks":0,"subtasks":0,"entities":\(count)}}
            """
    }

    func validate(_ text: String) throws -> [String] {
        var validator = Validator()
        try ArchiveInput(bytes: Array(text.utf8)).withBytes { try ArchiveReader().read($0, into: &validator) }
        // Problems the reader meets carry line:column; the validator's (references, types) carry the JSON path.
        return validator.report.issues.map { issue in
            "\(issue.code.rawValue) \(issue.path)" + (issue.line.map { " \($0):\(issue.column ?? 0)" } ?? "")
        }
    }

    @Test("a valid section: a link to a sub-entity's record is a link to the declared destination")
    func valid() throws {
        #expect(try validate(document()) == [])
        let archive = try Archive(json: Array(document().utf8))
        #expect(archive.entities.map(\.entity) == ["Folder", "Note", "SmartFolder"])
        #expect(archive.entities[0].positions == ["notes": [2048]])
        #expect(archive.header.source?.model["SmartFolder"]?.superentity == "Folder")
    }

    @Test(
        "each bad record is reported at its path (and line:column where the reader finds it)",
        arguments: [
            (
                #"{"id":"\#(note)","values":{"parent":"\#(missing)"}}"#,
                "missing-reference $.entities.Note[0].values.parent"
            ),
            (
                #"{"id":"\#(note)","values":{"parent":"\#(note)"}}"#,
                "missing-reference $.entities.Note[0].values.parent"
            ),
            (#"{"id":"\#(note)","values":{"parent":["\#(folder)"]}}"#, "wrong-type $.entities.Note[0].values.parent"),
            (#"{"id":"\#(note)","values":{"parent":"nope"}}"#, "invalid-uuid $.entities.Note[0].values.parent"),
            (#"{"id":"\#(note)","values":{"colour":"red"}}"#, "undeclared-property $.entities.Note[0].values.colour"),
            (#"{"id":"\#(note)","values":{"created":"yesterday"}}"#, "wrong-type $.entities.Note[0].values.created"),
            (#"{"id":"\#(note)","values":{"pinned":"yes"}}"#, "wrong-type $.entities.Note[0].values.pinned"),
            (#"{"id":"\#(note)","values":{"data":"%%%"}}"#, "wrong-type $.entities.Note[0].values.data"),
            (
                #"{"id":"\#(note)","values":{},"positions":{"parent":[1]}}"#,
                "wrong-type $.entities.Note[0].positions.parent"
            ),
            (#"{"id":"\#(folder)","values":{}}"#, "duplicate-id $.entities.Note[0].id"),
            (#"{"id":"0b000000-0000-4000-8000-000000000002","values":{}}"#, "invalid-uuid $.entities.Note[0].id 14:7"),
            (#"{"id":"\#(note)","key":0,"values":{}}"#, "wrong-type $.entities.Note[0].key 14:52"),
            (#"{"id":"\#(note)"}"#, "missing-field $.entities.Note[0].values 14:1"),
        ])
    func problems(note: String, expected: String) throws {
        let issues = try validate(document(note: note))
        #expect(issues.first == expected)
        // The folder's link to the note fails too when the note's id is gone or taken.
        #expect(issues.dropFirst().allSatisfy { $0 == "missing-reference $.entities.Folder[0].values.notes[0]" })
    }

    @Test("the library's file validation checks the generic section too (it once passed every entity unread)")
    func throughTheFileEntryPoints() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("bad.json").path
        let bad = document(note: #"{"id":"\#(Self.note)","values":{"pinned":"yes"}}"#)
        try Data(bad.utf8).write(to: URL(fileURLWithPath: path))
        for report in [
            try Validator.validate(archiveAt: path), try Validator.validate(ArchiveInput(path: path)),
        ] {
            #expect(!report.isValid)
            #expect(
                report.issues.first.map { "\($0.code.rawValue) \($0.path)" }
                    == "wrong-type $.entities.Note[0].values.pinned")
            #expect(report.counts.entities == 3)
        }
    }

    @Test("links: repeated ids, positions that do not match the ids, a record of another entity")
    func links() throws {
        #expect(
            try validate(
                document(folder: #"{"id":"\#(Self.folder)","values":{"notes":["\#(Self.note)","\#(Self.note)"]}}"#))
                == ["duplicate-id $.entities.Folder[0].values.notes[1]"])
        #expect(
            try validate(
                document(
                    folder:
                        #"{"id":"\#(Self.folder)","values":{"notes":["\#(Self.note)"]},"positions":{"notes":[1,2]}}"#))
                == ["wrong-type $.entities.Folder[0].positions.notes"])
        #expect(
            try validate(document(folder: #"{"id":"\#(Self.folder)","values":{"notes":["\#(Self.smart)"]}}"#))
                == ["missing-reference $.entities.Folder[0].values.notes[0]"])
    }

    @Test("a repeated id stands for its first record: a reference to it is checked against that one, before or after")
    func repeatedId() throws {
        // The smart folder takes the note's id: the folder's link to the note (read before both) still finds a note.
        let text = document().replacingOccurrences(
            of: #"{"id":"\#(Self.smart)","key":2"#, with: #"{"id":"\#(Self.note)","key":2"#)
        #expect(
            try validate(text) == [
                "duplicate-id $.entities.SmartFolder[0].id", "missing-reference $.entities.Note[0].values.parent",
            ])
    }

    @Test(
        "an id two records of one entity share is refused by an import into a new store, at the second record",
        arguments: [false, true])
    func repeatedIdImported(keepIdentity: Bool) throws {
        let twice = document().replacingOccurrences(
            of: #""parent":"\#(Self.smart)"}}"#,
            with: #""parent":"\#(Self.smart)"}},{"id":"\#(Self.note)","key":3,"values":{"title":"Again"}}"#)
        let text = twice.replacingOccurrences(of: #""entities":3}"#, with: #""entities":4}"#)
        #expect(try validate(text) == ["duplicate-id $.entities.Note[1].id"])
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        var options = StoreImportOptions()
        options.keepIdentity = keepIdentity
        let error = try #require(throws: ArchiveValidationError.self) {
            try StoreImport.run(ArchiveInput(bytes: Array(text.utf8)), into: path, options: options)
        }
        #expect(error.report.issues.map(\.path) == ["$.entities.Note[1].id"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("two records of one entity tree with one key (one row of its table) are refused at the second key")
    func duplicateKeys() throws {
        // SmartFolder is a sub-entity of Folder: their records share Folder's table, and key 1 is the folder's.
        let shared = document().replacingOccurrences(
            of: #""key":2,"values":{"name":"S""#, with: #""key":1,"values":{"name":"S""#)
        #expect(try validate(shared) == ["duplicate-record-key $.entities.SmartFolder[0].key"])
        var validator = Validator()
        try ArchiveInput(bytes: Array(shared.utf8)).withBytes { try ArchiveReader().read($0, into: &validator) }
        #expect(
            validator.report.issues.first?.message
                == "key 1 is also the key of $.entities.Folder[0] (Folder and SmartFolder share one table in the store)"
        )
        // A note's key 1 is another table's: no clash.
        #expect(try validate(document()) == [])
    }

    @Test("an inverse the target's model does not have is refused by the import, at its path; the real one imports")
    func inverseInTarget() throws {
        let model = ObjectModel(entities: [
            .init(
                "Folder", attributes: [.init("name", .string, optional: true)],
                relationships: [.init("notes", to: "Note", inverse: "folder", toMany: true)]),
            .init(
                "Note", attributes: [.init("title", .string, optional: true)],
                relationships: [.init("folder", to: "Folder", inverse: "notes", toMany: false)]),
        ])
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: model)
        func archive(inverse: String) -> String {
            """
            {"format":"tasks-interchange","version":2,"exportDate":"2024-01-01T00:00:00Z",
            "generator":{"name":"t","version":"1"},
            "source":{"store":"s","storeUUID":"S","entities":{},"model":{
            "Folder":{"attributes":{"name":"string"},"relationships":{}},
            "Note":{"attributes":{"title":"string"},"relationships":{
            "folder":{"destination":"Folder","toMany":false,"ordered":false,"inverse":"\(inverse)"}}}}},
            "projects":[],"categories":[],"tags":[],"tasks":[],
            "entities":{"Folder":[{"id":"\(Self.folder)","key":1,"values":{"name":"A"}}],
            "Note":[{"id":"\(Self.note)","key":1,"values":{"title":"Hi","folder":"\(Self.folder)"}}]},
            "counts":{"projects":0,"categories":0,"tags":0,"tasks":0,"subtasks":0,"entities":2}}
            """
        }
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        // The archive alone cannot tell (the inverse side does not travel); the target's model can.
        #expect(try validate(archive(inverse: "notez")) == [])
        let error = try #require(throws: ArchiveValidationError.self) {
            try StoreImport.run(
                ArchiveInput(bytes: Array(archive(inverse: "notez").utf8)), into: path, options: options)
        }
        #expect(error.report.issues.map(\.path) == ["$.source.model.Note.relationships.folder.inverse"])
        #expect(
            error.report.issues.first?.message
                == "the target's Folder has no relationship notez (did you mean 'notes'?); it has notes")
        #expect(!FileManager.default.fileExists(atPath: path))
        _ = try StoreImport.run(
            ArchiveInput(bytes: Array(archive(inverse: "notes").utf8)), into: path, options: options)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("records of undeclared or abstract entities, and counts that disagree")
    func entities() throws {
        let undeclared = document().replacingOccurrences(of: #""Note":["#, with: #""Memo":["#)
        #expect(try validate(undeclared).contains("undeclared-property $.entities.Memo[0]"))
        let abstract = document().replacingOccurrences(of: #""Note":["#, with: #""Base":["#)
        #expect(try validate(abstract).contains("wrong-type $.entities.Base[0]"))
        #expect(try validate(document(count: 2)).contains { $0.hasPrefix("counts-mismatch $.counts.entities") })
    }

    @Test("declarations must agree: destinations and superentities declared, inverses pointing back")
    func declarations() throws {
        let unknown = Self.model.replacingOccurrences(of: #""destination":"Folder""#, with: #""destination":"Shelf""#)
        #expect(
            try validate(document(model: unknown)).contains {
                $0.hasPrefix("undeclared-property $.source.model.Note.relationships.parent.destination")
            })
        let orphan = Self.model.replacingOccurrences(of: #""superentity":"Folder""#, with: #""superentity":"Drawer""#)
        #expect(
            try validate(document(model: orphan)).contains {
                $0.hasPrefix("undeclared-property $.source.model.SmartFolder.superentity")
            })
        let crossed = Self.model.replacingOccurrences(
            of: #""parent":{"destination":"Folder","toMany":false,"ordered":false}"#,
            with: #""folder":{"destination":"Note","toMany":false,"ordered":false}"#)
        #expect(
            try validate(document(model: crossed)).contains {
                $0.hasPrefix("wrong-type $.source.model.Folder.relationships.notes.inverse")
            })
        let attribute = Self.model.replacingOccurrences(of: #""inverse":"folder"}}},"#, with: #""inverse":"title"}}},"#)
        #expect(
            try validate(document(model: attribute)).contains {
                $0.hasPrefix("undeclared-property $.source.model.Folder.relationships.notes.inverse")
            })
        let badType = Self.model.replacingOccurrences(of: #""title":"string""#, with: #""title":"text""#)
        #expect(
            try validate(document(model: badType)).contains {
                $0.hasPrefix("wrong-type $.source.model.Note.attributes.title")
            })
    }
}
