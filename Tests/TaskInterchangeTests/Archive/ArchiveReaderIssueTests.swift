import Foundation
import Testing
@testable import TaskInterchange

/// Each issue the reader reports, with its exact path (and location where it matters).
@Suite struct ArchiveReaderIssueTests {
    static let project = "11111111-1111-1111-1111-111111111111"
    static let tag = "33333333-3333-3333-3333-333333333333"
    static let task = "AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA"
    static let subtask = "44444444-4444-4444-4444-444444444444"
    static let header = #""format":"tasks-interchange","version":2,"exportDate":"2025-01-01T00:00:00Z""#
    static let counts = #"{"projects":1,"categories":0,"tags":1,"tasks":1,"subtasks":1}"#
    static let subtaskJSON = #"{"id":"\#(subtask)","title":"s","isCompleted":false}"#

    /// A valid task with `members` replacing or adding members (a nil value removes the member).
    static func taskJSON(_ members: KeyValuePairs<String, String?> = [:]) -> String {
        var fields: [(String, String)] = [
            ("id", "\"\(task)\""), ("title", "\"x\""), ("isCompleted", "false"),
            ("createdAt", "\"2025-01-01T00:00:00Z\""), ("priority", "1"), ("projectId", "\"\(project)\""),
            ("tagIds", "[\"\(tag)\"]"), ("subtasks", "[\(subtaskJSON)]"),
        ]
        for (name, value) in members {
            if let index = fields.firstIndex(where: { $0.0 == name }) {
                if let value { fields[index].1 = value } else { fields.remove(at: index) }
            } else if let value {
                fields.append((name, value))
            }
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// Line 1 `{`, 2 header, 3 projects, 4 categories, 5 tags, 6 tasks (the task starts at column 10), 7 counts.
    static func document(
        header: String = header, task: String = taskJSON(), counts: String? = counts,
        sections: String? = nil
    ) -> String {
        let body =
            sections ?? """
                "projects":[{"id":"\(project)","name":"Home"}],
                "categories":[],
                "tags":[{"id":"\(tag)","name":"t"}],
                "tasks":[\(task)]
                """
        return "{\n\(header),\n\(body)" + (counts.map { ",\n\"counts\":\($0)" } ?? "") + "\n}\n"
    }

    /// `code path` for each issue.
    private func issues(_ text: String, kinds: Set<RecordKind> = Set(RecordKind.allCases)) throws -> [String] {
        try ArchiveFixtures.collect(text, kinds: kinds).issues.map { "\($0.code.rawValue) \($0.path)" }
    }

    private func firstIssue(_ text: String) throws -> ValidationIssue {
        try #require(try ArchiveFixtures.collect(text).issues.first)
    }

    @Test("the base document has no issues and delivers every record")
    func validBase() throws {
        let collector = try ArchiveFixtures.collect(Self.document())
        #expect(collector.issues.isEmpty, "\(collector.issues)")
        #expect(collector.archive.tasks.first?.subtasks.count == 1)
        #expect(collector.isComplete)
    }

    @Test(
        "wrong types are reported at their member, with expected and found",
        arguments: [
            (["title": "5"], "wrong-type $.tasks[0].title", "expected a string, found a number"),
            (["title": "null"], "wrong-type $.tasks[0].title", "expected a string, found null"),
            (["isCompleted": "\"yes\""], "wrong-type $.tasks[0].isCompleted", "expected true or false, found a string"),
            (["isCompleted": "1"], "wrong-type $.tasks[0].isCompleted", "expected true or false, found a number"),
            (["priority": "1.5"], "wrong-type $.tasks[0].priority", "expected an integer, found 1.5"),
            (
                ["priority": "70000"], "wrong-type $.tasks[0].priority",
                "expected an integer in the Int16 range, found 70000"
            ),
            (
                ["priority": "99999999999999999999"], "wrong-type $.tasks[0].priority",
                "expected an integer in the Int16 range, found 99999999999999999999"
            ),
            (["key": "0"], "wrong-type $.tasks[0].key", "expected an integer in 1…9223372036854775807, found 0"),
            (["tagIds": "{}"], "wrong-type $.tasks[0].tagIds", "expected an array of tag ids, found an object"),
            (
                ["subtasks": "[{\"id\":\"\(subtask)\",\"title\":[],\"isCompleted\":true}]"],
                "wrong-type $.tasks[0].subtasks[0].title", "expected a string, found an array"
            ),
            (["subtasks": "[7]"], "wrong-type $.tasks[0].subtasks[0]", "expected an object, found a number"),
        ] as [(KeyValuePairs<String, String?>, String, String)])
    func wrongType(members: KeyValuePairs<String, String?>, expected: String, message: String) throws {
        let collector = try ArchiveFixtures.collect(Self.document(task: Self.taskJSON(members)))
        #expect(collector.issues.map { "\($0.code.rawValue) \($0.path)" } == [expected])
        #expect(collector.issues.first?.message == message)
        // The id is usable, so the record is still delivered, with a neutral default.
        #expect(collector.archive.tasks.count == 1)
    }

    @Test("key, nulls and a subtask's position are read; a bad one is reported at its path")
    func storeForm() throws {
        let subtask =
            #"{"id":"\#(Self.subtask)","key":9,"position":4096,"title":"","isCompleted":false,"nulls":["title"]}"#
        let good = try ArchiveFixtures.collect(
            Self.document(
                task: Self.taskJSON([
                    "key": "7", "nulls": #"["isCompleted","priority"]"#, "subtasks": "[\(subtask)]",
                ])))
        #expect(good.issues.isEmpty, "\(good.issues)")
        let task = try #require(good.archive.tasks.first)
        #expect(task.key == 7 && task.nulls == ["isCompleted", "priority"])
        #expect(task.subtasks.first?.key == 9 && task.subtasks.first?.position == 4096)
        #expect(task.subtasks.first?.nulls == ["title"])

        let bad = try ArchiveFixtures.collect(
            Self.document(task: Self.taskJSON(["key": "0", "nulls": #"["title","notes","colour",5]"#])))
        #expect(
            bad.issues.map { "\($0.severity) \($0.code.rawValue) \($0.path)" } == [
                "error wrong-type $.tasks[0].key", "warning unknown-field $.tasks[0].nulls[1]",
                "warning unknown-field $.tasks[0].nulls[2]", "error wrong-type $.tasks[0].nulls[3]",
            ])
        #expect(bad.issues[1].message.contains("title, isCompleted, createdAt, priority"))
        #expect(bad.archive.tasks.first?.nulls == ["title"])
        // Not an array: one wrong-type issue, and the rest of the file reads on.
        #expect(
            try issues(Self.document(task: Self.taskJSON(["nulls": #""title""#]))) == ["wrong-type $.tasks[0].nulls"])
        // Version 1 has none of them.
        let version1 =
            #"{"id":"\#(Self.task)","title":"x","isCompleted":false,"createdAt":1.5,"priority":1,"tagIds":[],"key":7}"#
        #expect(
            try issues(#"{"version":1,"exportDate":0,"projects":[],"tags":[],"tasks":[\#(version1)]}"#)
                == ["version-mismatch $.tasks[0].key"])
    }

    @Test("a wrong type carries the line and column of the value")
    func wrongTypeLocation() throws {
        let issue = try firstIssue(Self.document(task: Self.taskJSON(["title": "5"])))
        // `"tasks":[` is 9 bytes; the task's `{"id":"…",` is 45 more; then `"title":`.
        #expect(issue.line == 6 && issue.column == 9 + 45 + 9)
    }

    @Test("null is absent for optional members")
    func nullOptional() throws {
        let collector = try ArchiveFixtures.collect(
            Self.document(
                task: Self.taskJSON(
                    ["projectId": "null", "notes": "null", "dueDate": "null", "categoryId": "null"])))
        #expect(collector.issues.isEmpty)
        #expect(collector.archive.tasks.first?.projectId == nil)
    }

    @Test("a repeated member is a duplicate-key error; the first value stays")
    func duplicateKeys() throws {
        let collector = try ArchiveFixtures.collect(
            Self.document(task: Self.taskJSON(["title": "\"first\",\"title\":\"second\""])))
        #expect(collector.issues.map { "\($0.code.rawValue) \($0.path)" } == ["duplicate-key $.tasks[0].title"])
        #expect(collector.archive.tasks.first?.title == "first")
        let header = Self.header + #","version":2"#
        #expect(try issues(Self.document(header: header)) == ["duplicate-key $.version"])
        let unknownTwice = Self.taskJSON(["remark": "1,\"remark\":2"])
        #expect(
            try issues(Self.document(task: unknownTwice)) == [
                "unknown-field $.tasks[0].remark",
                "duplicate-key $.tasks[0].remark",
            ])
        // `extra` is a known member; its own members may not repeat either.
        let extraTwice = Self.taskJSON(["extra": "{\"a\":1,\"a\":2}"])
        #expect(try issues(Self.document(task: extraTwice)) == ["duplicate-key $.tasks[0].extra.a"])
    }

    @Test("unknown members are warnings, with bracket paths for odd names")
    func unknownMembers() throws {
        let collector = try ArchiveFixtures.collect(
            Self.document(
                task: Self.taskJSON([
                    "colour": "\"red\"",
                    "weird key": "{}",
                ])))
        #expect(
            collector.issues.map { "\($0.code.rawValue) \($0.path)" }
                == ["unknown-field $.tasks[0].colour", #"unknown-field $.tasks[0]["weird key"]"#])
        #expect(collector.issues.allSatisfy { $0.severity == .warning })
        #expect(!collector.hasErrors)
    }

    @Test(
        "UUIDs must be canonical; the message explains the canonical form",
        arguments: [
            (
                "\"11111111-1111-1111-1111-11111111111a\"",
                "uses lowercase letters; write 11111111-1111-1111-1111-11111111111A"
            ),
            ("\"{\(project)}\"", "is wrapped in braces; write \(project)"),
            ("\"11111111111111111111111111111111\"", "has no hyphens; write \(project)"),
            ("\"not-a-uuid\"", "is not a UUID; canonical UUIDs are 36 characters"),
        ])
    func invalidUUID(value: String, explanation: String) throws {
        let issue = try firstIssue(Self.document(task: Self.taskJSON(["projectId": value])))
        #expect(issue.code == .invalidUUID && issue.path == "$.tasks[0].projectId")
        #expect(issue.message.contains(explanation), "\(issue.message)")
        #expect(
            try issues(Self.document(task: Self.taskJSON(["tagIds": "[\(value)]"])))
                == ["invalid-uuid $.tasks[0].tagIds[0]"])
    }

    @Test("a record without a usable id is reported and not delivered, but still counted")
    func unusableID() throws {
        let collector = try ArchiveFixtures.collect(Self.document(task: Self.taskJSON(["id": "\"x\""])))
        #expect(collector.issues.map { "\($0.code.rawValue) \($0.path)" } == ["invalid-uuid $.tasks[0].id"])
        #expect(collector.archive.tasks.isEmpty)
        let missing = try ArchiveFixtures.collect(Self.document(task: Self.taskJSON(["id": nil])))
        #expect(missing.issues.map { "\($0.code.rawValue) \($0.path)" } == ["missing-field $.tasks[0].id"])
        #expect(missing.archive.tasks.isEmpty)
    }

    @Test(
        "dates must be valid lossless ISO text in version 2",
        arguments: [
            ("\"2024-02-30T00:00:00Z\"", "day 30 does not exist"),
            ("\"2024-01-01\"", "expected 'T' between the date and the time"),
            ("757382400", "format version 2 writes dates as ISO-8601 text"),
        ])
    func invalidDate(value: String, reason: String) throws {
        let issue = try firstIssue(Self.document(task: Self.taskJSON(["createdAt": value])))
        #expect(issue.code == .invalidDate && issue.path == "$.tasks[0].createdAt")
        #expect(issue.message.contains(reason), "\(issue.message)")
    }

    @Test("missing required members are reported at the record's opening brace")
    func missingFields() throws {
        let issue = try firstIssue(Self.document(task: Self.taskJSON(["title": nil])))
        #expect(issue.code == .missingField && issue.path == "$.tasks[0].title")
        #expect(issue.line == 6 && issue.column == 10)
        #expect(
            try issues(
                Self.document(task: Self.taskJSON(["subtasks": "[{\"id\":\"\(Self.subtask)\",\"title\":\"s\"}]"])))
                == ["missing-field $.tasks[0].subtasks[0].isCompleted"])
        #expect(try issues(Self.document(header: #""version":2"#)) == ["missing-field $.format"])
    }

    @Test(
        "version problems",
        arguments: [
            (
                #""format":"tasks-interchange","version":3"#,
                "file format version 3 is newer than the newest this tool reads (2)"
            ),
            (
                #""format":"tasks-interchange","version":0"#,
                "version 0 is not a valid format version; versions start at 1"
            ),
            (#""format":"tasks-interchange","version":"2""#, "the version must be an integer, found a string"),
            (#""format":"tasks-interchange","version":1.5"#, "version 1.5 is not a supported format version (1 or 2)"),
            (
                #""format":"tasks-interchange","version":1e400"#,
                "version 1e400 is not a supported format version (1 or 2)"
            ),
            (
                #""format":"tasks-interchange","version":99999999999999999999"#,
                "version 99999999999999999999 is not a supported format version (1 or 2)"
            ),
        ])
    func unsupportedVersion(header: String, message: String) throws {
        let issue = try firstIssue(Self.document(header: header))
        #expect(issue.code == .unsupportedVersion && issue.path == "$.version")
        #expect(issue.message == message)
        #expect(issue.line == 2)
    }

    @Test("a missing version, an unknown format, a non-object top level")
    func headerProblems() throws {
        #expect(try issues(Self.document(header: #""format":"tasks-interchange""#)) == ["missing-version $.version"])
        #expect(
            try issues(Self.document(header: #""format":"todo-export","version":2"#)) == ["unknown-format $.format"])
        let topLevel = try ArchiveFixtures.collect("[1, 2]")
        #expect(topLevel.issues.map { "\($0.code.rawValue) \($0.path)" } == ["wrong-type $"])
        #expect(topLevel.issues.first?.message == "the top level must be an object, found an array")
        #expect(topLevel.isComplete)
    }

    @Test("counts must be present and agree with the elements present")
    func countsMismatch() throws {
        let wrong = #"{"projects":1,"categories":0,"tags":1,"tasks":2,"subtasks":1}"#
        let issue = try firstIssue(Self.document(counts: wrong))
        #expect("\(issue.code.rawValue) \(issue.path)" == "counts-mismatch $.counts.tasks")
        #expect(issue.message == "counts.tasks is 2 but the file has 1 tasks; it may be truncated or edited")
        #expect(issue.line == 7 && issue.column == 56)
        let missing = try firstIssue(Self.document(counts: nil))
        #expect("\(missing.code.rawValue) \(missing.path)" == "counts-mismatch $.counts")
        #expect(missing.message == "no counts: the file may be truncated")
        #expect(
            try issues(Self.document(counts: #"{"projects":1,"categories":0,"tags":1,"tasks":1}"#))
                == ["counts-mismatch $.counts.subtasks"])
        // Invalid records still count as elements.
        #expect(try issues(Self.document(task: Self.taskJSON(["id": "7"]))) == ["wrong-type $.tasks[0].id"])
    }

    @Test("sections of the wrong type, and elements that are not objects")
    func sectionTypes() throws {
        let sections = """
            "projects":[],"categories":[],"tags":[1],"tasks":{}
            """
        let counts = #"{"projects":0,"categories":0,"tags":1,"tasks":0,"subtasks":0}"#
        #expect(
            try issues(Self.document(counts: counts, sections: sections))
                == ["wrong-type $.tags[0]", "wrong-type $.tasks"])
        #expect(
            try issues(Self.document(counts: counts, sections: #""projects":[],"tags":[1],"tasks":[]"#))
                == ["wrong-type $.tags[0]", "missing-field $.categories"])
    }

    @Test("malformed JSON stops the read with its location and the record being read; no visitEnd")
    func malformed() throws {
        let text = Self.document(task: Self.taskJSON(["title": "\"x\",,"]))
        let collector = try ArchiveFixtures.collect(text)
        let issue = try #require(collector.issues.last)
        #expect(issue.code == .malformedJSON && issue.path == "$.tasks[0]")
        #expect(issue.line == 6 && issue.column == 9 + 45 + 13)
        #expect(!collector.isComplete)
        let bom = try ArchiveFixtures.collect([0xEF, 0xBB, 0xBF] + Array(Self.document().utf8))
        #expect(bom.issues.map(\.code) == [.malformedJSON])
        #expect(bom.issues.first?.message.contains("byte order mark") == true)
        let empty = try ArchiveFixtures.collect("")
        #expect(empty.issues.first?.message == "the input is empty; expected a JSON document")
        let deep = Self.document(task: Self.taskJSON(["remark": String(repeating: "[", count: 100_000)]))
        #expect(try ArchiveFixtures.collect(deep).issues.last?.message.contains("nested more than 64 levels") == true)
    }

    @Test(
        "version 1 dates may be numbers, but not out of range",
        arguments: [
            ("1e400", "1e400 seconds from 2001-01-01 is out of range for a date"),
            ("1e18", "1e18 seconds from 2001-01-01 is out of range for a date"),
            ("\"yesterday\"", "\"yesterday\" is not a valid date: expected a four-digit year"),
        ])
    func version1Dates(value: String, message: String) throws {
        let header = #""version":1,"exportDate":0"#
        let task =
            #"{"id":"\#(Self.task)","title":"x","isCompleted":false,"createdAt":\#(value),"priority":1,"tagIds":[]}"#
        let sections = #""projects":[],"tags":[],"tasks":[\#(task)]"#
        let issue = try firstIssue(Self.document(header: header, counts: nil, sections: sections))
        #expect("\(issue.code.rawValue) \(issue.path)" == "invalid-date $.tasks[0].createdAt")
        #expect(issue.message == message)
    }

    @Test(
        "a file labelled version 1 with members only version 2 has is refused at the first of them (it looks like version 2)"
    )
    func version1Members() throws {
        let header = #""version":1,"exportDate":0"#
        let task = #"{"id":"\#(Self.task)","title":"x","isCompleted":false,"createdAt":1.5,"priority":1,"tagIds":[]}"#
        #expect(try issues(Self.document(header: header, task: task)) == ["version-mismatch $.categories"])
        let withNotes = task.replacingOccurrences(of: "}", with: #","notes":"n","dueDate":2.5}"#)
        let sections = #"{"version":1,"exportDate":0,"projects":[],"tags":[],"tasks":[\#(withNotes)]}"#
        #expect(try issues(sections) == ["version-mismatch $.tasks[0].notes"])
        let issue = try firstIssue(sections)
        #expect(issue.severity == .error && issue.message.contains("looks like a version 2 file") && issue.line == 1)
        #expect(
            try issues(Self.document(header: #""version":1"#, task: task, counts: nil))
                == ["version-mismatch $.categories", "missing-field $.exportDate"])
        // Version 1's own members stay accepted.
        #expect(try issues(#"{"version":1,"exportDate":0,"projects":[],"tags":[],"tasks":[\#(task)]}"#) == [])
    }
}

@Suite struct NDJSONReaderTests {
    static let header = #"{"type":"header","format":"tasks-interchange","version":2}"#
    static let project = #"{"type":"project","id":"11111111-1111-1111-1111-111111111111","name":"Home"}"#
    static func task(_ id: Character) -> String {
        #"{"type":"task","id":"\#(ArchiveFixtures.uuid(id).uuidString)","title":"t","isCompleted":false,"#
            + #""createdAt":"2025-01-01T00:00:00Z","priority":0,"tagIds":[],"subtasks":[]}"#
    }
    static func trailer(projects: Int = 1, tasks: Int = 1) -> String {
        #"{"type":"trailer","counts":{"projects":\#(projects),"categories":0,"tags":0,"tasks":\#(tasks),"subtasks":0}}"#
    }

    private func issues(_ lines: [String]) throws -> [String] {
        try ArchiveFixtures.collect(lines.joined(separator: "\n") + "\n").issues
            .map { "\($0.code.rawValue) \($0.path) @\($0.line ?? 0)" }
    }

    @Test("a well-formed NDJSON file has no issues; records keep per-kind indexes")
    func valid() throws {
        let collector = try ArchiveFixtures.collect(
            [
                Self.header, Self.project, Self.task("A"), Self.task("B"),
                Self.trailer(tasks: 2),
            ].joined(separator: "\n") + "\n")
        #expect(collector.issues.isEmpty, "\(collector.issues)")
        #expect(collector.archive.tasks.map(\.id) == [ArchiveFixtures.uuid("A"), ArchiveFixtures.uuid("B")])
        #expect(collector.archive.header.version == 2)
    }

    @Test("record issues use $.kind[index] paths and the record's line")
    func recordPaths() throws {
        let bad = Self.task("B").replacingOccurrences(of: #""priority":0"#, with: #""priority":"high""#)
        #expect(
            try issues([Self.header, Self.project, Self.task("A"), bad, Self.trailer(tasks: 2)])
                == ["wrong-type $.tasks[1].priority @4"])
    }

    @Test("structure problems: no header first, a late header, a record after the trailer, a missing trailer")
    func structure() throws {
        #expect(try issues([Self.project, Self.task("A"), Self.trailer()]) == ["missing-version $.version @1"])
        #expect(
            try issues([Self.header, Self.project, Self.header, Self.task("A"), Self.trailer()])
                == ["wrong-type $ @3"])
        #expect(
            try issues([Self.header, Self.project, Self.task("A"), Self.trailer(), Self.task("B")])
                == ["counts-mismatch $.tasks[1] @5"])
        #expect(try issues([Self.header, Self.project, Self.task("A")]) == ["counts-mismatch $.counts @4"])
        #expect(
            try issues([Self.header, Self.project, Self.task("A"), Self.trailer(tasks: 3)])
                == ["counts-mismatch $.counts.tasks @4"])
        #expect(
            try issues([Self.header, #"{"type":"widget"}"#, Self.project, Self.task("A"), Self.trailer()])
                == ["unknown-field $ @2"])
    }

    @Test("two values on one line are malformed NDJSON")
    func oneValuePerLine() throws {
        let collector = try ArchiveFixtures.collect(
            [
                Self.header, Self.project + " " + Self.task("A"),
                Self.trailer(),
            ].joined(separator: "\n"))
        #expect(collector.issues.map(\.code) == [.malformedJSON])
        #expect(!collector.isComplete)
    }
}
