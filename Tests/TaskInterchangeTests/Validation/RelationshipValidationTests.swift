import Foundation
import Testing
@testable import TaskInterchange

/// `source.relationships` and the relationship values under `extra`: read, checked with JSON paths, and imported.
@Suite("Validator: relationships under extra")
struct RelationshipValidationTests {
    static let a = "0A000000-0000-4000-8000-000000000001"
    static let b = "0B000000-0000-4000-8000-000000000002"
    static let p = "0C000000-0000-4000-8000-000000000003"
    static let missing = "0D000000-0000-4000-8000-000000000004"

    /// A version 2 document whose project links to a task that comes later, and whose tasks block each other.
    func document(
        taskExtra: String = #""blocking":["\#(b)"],"owner":"\#(p)""#, projectExtra: String = #""lead":"\#(a)""#,
        relationships: String? = nil, sourceLast: Bool = false
    ) -> String {
        let declared =
            relationships
            ?? #"{"project":{"lead":{"destination":"task","toMany":false,"ordered":false}},"task":{"blocking":{"destination":"task","toMany":true,"ordered":false,"inverse":"blockedBy"},"owner":{"destination":"project","toMany":false,"ordered":false}}}"#
        let source = #""source":{"store":"s","entities":{},"relationships":\#(declared)}"#
        let records = """
            "projects":[{"id":"\(Self.p)","name":"P","extra":{\(projectExtra)}}],"categories":[],"tags":[],
            "tasks":[{"id":"\(Self.a)","title":"A","isCompleted":false,"createdAt":"2024-01-01T00:00:00Z","priority":0,"tagIds":[],"subtasks":[],"extra":{\(taskExtra)}},
                     {"id":"\(Self.b)","title":"B","isCompleted":false,"createdAt":"2024-01-01T00:00:00Z","priority":0,"tagIds":[],"subtasks":[]}],
            "counts":{"projects":1,"categories":0,"tags":0,"tasks":2,"subtasks":0}
            """
        let header =
            #""format":"tasks-interchange","version":2,"exportDate":"2024-01-01T00:00:00Z","generator":{"name":"t","version":"1"}"#
        return sourceLast ? "{\(header),\(records),\(source)}" : "{\(header),\(source),\(records)}"
    }

    func validate(_ text: String) throws -> [String] {
        var validator = Validator()
        try ArchiveInput(bytes: Array(text.utf8)).withBytes { try ArchiveReader().read($0, into: &validator) }
        return validator.report.issues.map { "\($0.code.rawValue) \($0.path)" }
    }

    @Test(
        "declared relationships with existing targets are valid, forward references included, whichever place source has"
    )
    func valid() throws {
        #expect(try validate(document()) == [])
        #expect(try validate(document(sourceLast: true)) == [])
    }

    @Test(
        "each problem is reported at its path",
        arguments: [
            (#""blocking":["\#(missing)"]"#, "missing-reference $.tasks[0].extra.blocking[0]"),
            (#""blocking":["\#(b)","\#(b)"]"#, "duplicate-id $.tasks[0].extra.blocking[1]"),
            (#""blocking":["x"]"#, "invalid-uuid $.tasks[0].extra.blocking[0]"),
            (#""blocking":"\#(b)""#, "wrong-type $.tasks[0].extra.blocking"),
            (#""owner":["\#(p)"]"#, "wrong-type $.tasks[0].extra.owner"),
            (#""owner":"\#(missing)""#, "missing-reference $.tasks[0].extra.owner"),
            (#""other":["\#(b)"]"#, "wrong-type $.tasks[0].extra.other"),
            (#""blocking":[1]"#, "wrong-type $.tasks[0].extra.blocking[0]"),
        ])
    func problems(extra: String, expected: String) throws {
        #expect(try validate(document(taskExtra: extra)) == [expected])
    }

    @Test("a declaration must name kinds and say toMany")
    func badDeclarations() throws {
        #expect(
            try validate(document(relationships: #"{"task":{"blocking":{"destination":"person","toMany":true}}}"#))
                .contains("wrong-type $.source.relationships.task.blocking.destination"))
        #expect(
            try validate(document(relationships: #"{"person":{}}"#)).contains(
                "wrong-type $.source.relationships.person"))
        #expect(
            try validate(document(relationships: #"{"task":{"blocking":{"destination":"task"}}}"#))
                .contains("missing-field $.source.relationships.task.blocking.toMany"))
    }

    @Test("import refuses a dangling relationship id, names its path, and writes nothing")
    func importRefuses() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("t.sqlite")
        let error = #expect(throws: ArchiveValidationError.self) {
            _ = try StoreImport.run(
                ArchiveInput(bytes: Array(document(taskExtra: #""blocking":["\#(Self.missing)"]"#).utf8)), into: path,
                options: StoreImportOptions())
        }
        #expect(error?.report.issues.map(\.path) == ["$.tasks[0].extra.blocking[0]"])
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the importer links forward references in memory (project → task read in a later pass)")
    func importsForwardReferences() throws {
        var destination = MemoryDestination()
        var validator = Validator()
        _ = try Importer().run(
            ArchiveInput(bytes: Array(document().utf8)), into: &destination, validatingWith: &validator)
        #expect(validator.report.isValid)
        let archive = destination.archive
        #expect(archive.projects.first?.extra?["lead"] == .string(Self.a))
        #expect(archive.tasks.first?.extra?["blocking"] == .array([Self.b]))
        #expect(archive.tasks.first?.extra?["owner"] == .string(Self.p))
    }

    @Test("relationship declarations and id arrays survive writing and reading, in every layout")
    func writerRoundTrip() throws {
        var archive = Archive()
        archive.header.source = ArchiveHeader.Source(
            store: "s",
            relationships: [
                "task": [
                    "blocking": ExtraRelationship(destination: .task, toMany: true, ordered: true, inverse: "blockedBy")
                ]
            ])
        let first = UUID(uuidString: Self.a)!, second = UUID(uuidString: Self.b)!
        var task = TaskRecord(id: first, title: "A", createdAt: Date(timeIntervalSinceReferenceDate: 0))
        task.extra = ["blocking": .array([Self.b]), "note": .string("x")]
        archive.tasks = [task, TaskRecord(id: second, title: "B", createdAt: Date(timeIntervalSinceReferenceDate: 0))]
        for layout in [ArchiveWritingOptions.Layout.compact, .pretty, .ndjson] {
            var options = ArchiveWritingOptions()
            options.layout = layout
            let buffer = ByteBuffer()
            var writer = try ArchiveWriter(sink: buffer, options: options)
            try writer.begin(header: archive.header)
            for task in archive.tasks { try writer.write(task: task) }
            _ = try writer.finish()
            var collector = Collector()
            try ArchiveInput(bytes: Array(buffer.string.utf8)).withBytes {
                try ArchiveReader().read($0, into: &collector)
            }
            #expect(collector.issues.isEmpty, "\(layout)")
            #expect(collector.archive.header.source?.relationships == archive.header.source?.relationships, "\(layout)")
            #expect(collector.archive.tasks.map(\.extra) == archive.tasks.map(\.extra), "\(layout)")
        }
    }
}
