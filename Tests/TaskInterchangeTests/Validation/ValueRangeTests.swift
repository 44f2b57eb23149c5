import Foundation
import Testing

@testable import TaskInterchange

/// Values checked against their model type: the generic section by `source.model`, typed records' `extra` by the
/// import target's model. A value the store would change on the way in is refused with its path.
@Suite("Validator: values within their model type")
struct ValueRangeTests {
    static let id = "0A000000-0000-4000-8000-000000000001"

    /// A document with one `Item` record whose `values` are `values` (a JSON object's members).
    func document(_ values: String) -> String {
        """
        {"format":"tasks-interchange","version":2,"exportDate":"2024-01-01T00:00:00Z",
        "generator":{"name":"t","version":"1"},
        "source":{"store":"s","storeUUID":"S","entities":{},"model":{"Item":{"attributes":{"small":"integer16",
        "medium":"integer32","large":"integer64","flag":"boolean","price":"decimal","ref":"uuid","ratio":"float"},
        "relationships":{}}}},
        "projects":[],"categories":[],"tags":[],"tasks":[],
        "entities":{"Item":[
        {"id":"\(Self.id)","key":1,"values":{\(values)}}]},
        "counts":{"projects":0,"categories":0,"tags":0,"tasks":0,"subtasks":0,"entities":1}}
        """
    }

    func issues(_ values: String) throws -> [ValidationIssue] {
        var validator = Validator()
        try ArchiveInput(bytes: Array(document(values).utf8)).withBytes {
            try ArchiveReader().read($0, into: &validator)
        }
        return validator.report.issues
    }

    @Test(
        "values at the edges of their type pass",
        arguments: [
            #""small":32767"#, #""small":-32768"#, #""medium":2147483647"#, #""large":-9223372036854775808"#,
            #""flag":true"#, #""flag":0"#, #""flag":1"#, #""price":"12345678901234567""#,
            #""price":"0.30000000000000004""#, #""price":10.5"#, #""price":12"#,
            #""ref":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, #""ratio":3.4e38"#,
        ])
    func fits(values: String) throws {
        #expect(try issues(values).isEmpty)
    }

    @Test(
        "a value its type cannot hold is refused at its path",
        arguments: [
            (#""small":40000"#, "small", "40000 is outside the Integer 16 range -32768…32767"),
            (#""medium":2147483648"#, "medium", "2147483648 is outside the Integer 32 range"),
            (#""flag":2"#, "flag", "2 is not a boolean"),
            (#""price":"3.14159265358979323846""#, "price", "3.14159265358979323846 has more digits than"),
            // A JSON number keeps its digits for a decimal: read as a Double it would lose them silently.
            (#""price":3.14159265358979323846"#, "price", "(it would be stored as 3.141592653589793)"),
            (#""ratio":1e39"#, "ratio", "beyond the Float range"),
        ])
    func refused(values: String, property: String, message: String) throws {
        let found = try issues(values)
        #expect(found.map(\.code) == [.valueOutOfRange])
        #expect(found.first?.path == "$.entities.Item[0].values.\(property)")
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains(message) == true, "\(found)")
    }

    @Test("text that is no decimal number is the wrong type")
    func notADecimal() throws {
        #expect(try issues(#""price":"nan""#).map(\.code) == [.wrongType])
    }

    @Test("a lowercase UUID value is a warning: it is stored as that UUID, and exports in uppercase")
    func lowercaseUUID() throws {
        let found = try issues(#""ref":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f""#)
        #expect(found.map(\.severity) == [.warning])
        #expect(found.first?.path == "$.entities.Item[0].values.ref")
        #expect(found.first?.message.contains("write E621E1F8-C36C-495A-93FC-0C247A3E6E5F") == true)
    }

    @Test("typed records' extra values are checked against the target's model: the import writes nothing")
    func typedExtras() throws {
        var model = TaskManagerModel.model
        let task = try #require(model.entities.firstIndex { $0.name == "Task" })
        model.entities[task].attributes += [
            .init("estimate", .integer16, optional: true), .init("flagged", .boolean, optional: true),
        ]
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: model)
        var archive = ArchiveGenerator.archive(seed: 3, maxTasks: 4)
        try #require(archive.tasks.count >= 3)
        archive.tasks[0].extra = ["estimate": .integer(40000)]
        archive.tasks[1].extra = ["flagged": .integer(2)]
        archive.tasks[2].extra = ["estimate": .integer(-32768), "flagged": .bool(true)]
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        let error = try #require(throws: ArchiveValidationError.self) {
            try StoreImport.run(archive, into: path, options: options)
        }
        #expect(
            error.report.issues.map { "\($0.code.rawValue) \($0.path)" } == [
                "value-out-of-range $.tasks[0].extra.estimate", "value-out-of-range $.tasks[1].extra.flagged",
            ])
        #expect(!FileManager.default.fileExists(atPath: path))

        archive.tasks[0].extra = nil
        archive.tasks[1].extra = nil
        _ = try StoreImport.run(archive, into: path, options: options)
        let stored = try Database(path: path, mode: .readOnly(immutable: false)).rows(
            "SELECT ZESTIMATE FROM ZTASK WHERE ZESTIMATE IS NOT NULL")
        #expect(stored.map { $0[0].int64 } == [-32768])
    }
}
