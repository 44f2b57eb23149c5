import Foundation
import Testing

/// What a newcomer's mix-ups are told: a store given where an archive goes, an empty input, and a second import of
/// the same file (many errors of one code, on one line).
@Suite("Input messages")
struct InputMessagesTests {
    static let storeMessage =
        "error: $ (1:1): malformed-json: this is a Core Data store (an SQLite database), not an "
        + "interchange file; did you mean 'tasks inspect' or 'tasks export --store'?\n"

    @Test("a store given as the archive to validate or import is named as a store, with the commands meant")
    func storeAsArchive() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let validate = try TasksBinary.run(["validate", store])
        #expect(validate.status == 65)
        #expect(validate.stderr == Self.storeMessage + "\(store): invalid: 1 error(s), 0 warning(s)\n")
        let piped = try TasksBinary.run(["validate"], stdin: try scratch.bytes("TaskManager.sqlite"))
        #expect(piped.status == 65 && piped.stderr.hasPrefix(Self.storeMessage))
        let target = scratch.path("new.sqlite")
        let imported = try TasksBinary.run(["import", "--store", target, store])
        #expect(imported.status == 65)
        #expect(imported.stderr == Self.storeMessage + "Error: the archive is invalid (1 error); nothing was written\n")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("an empty file, an empty FIFO and blank stdin are said to be empty")
    func emptyInput() throws {
        let scratch = try Scratch()
        try Data().write(to: scratch.url.appendingPathComponent("empty.json"))
        let file = try TasksBinary.run(["validate", scratch.path("empty.json")])
        #expect(file.status == 65)
        #expect(
            file.stderr == "error: $ (1:1): malformed-json: the input is empty; expected a JSON document\n"
                + "\(scratch.path("empty.json")): invalid: 1 error(s), 0 warning(s)\n")
        // A FIFO whose writer closes without writing (made here; never a device path).
        let fifo = try TasksBinary.shell(
            "mkfifo empty.fifo && ( : > empty.fifo & ) && \"$TASKS\" validate empty.fifo",
            in: scratch.url)
        #expect(fifo.status == 65)
        #expect(
            fifo.stderr == "error: $ (1:1): malformed-json: the input is empty; expected a JSON document\n"
                + "empty.fifo: invalid: 1 error(s), 0 warning(s)\n")
        let blank = try TasksBinary.run(["validate"], stdin: Data(" \n".utf8))
        #expect(blank.status == 65)
        #expect(
            blank.stderr.hasPrefix(
                "error: $ (2:1): malformed-json: the input contains only whitespace; expected a "
                    + "JSON document\n"))
    }

    @Test("a second insert-mode import lists its 147 id-exists-in-store errors on one line: a count and the first ids")
    func groupedErrors() throws {
        let scratch = try Scratch()
        let archive = TasksBinary.sample("TaskManager.v2.json")
        let store = scratch.path("new.sqlite")
        #expect(try TasksBinary.run(["import", "--store", store, archive]).status == 0)
        let before = try scratch.bytes("new.sqlite")
        let again = try TasksBinary.run(["import", "--store", store, archive])
        #expect(again.status == 65)
        let lines = again.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(again.stderr)")
        let grouped: String =
            "error: $.projects[0].id: id-exists-in-store: project "
            + "400CB70F-964E-43C0-B4A3-165DE1AB3E01 already exists in the target store (use --mode upsert, skip or "
            + "replace) [147 id-exists-in-store errors; also 4A894DB7-E48F-42B9-AA5D-670AF9A3638E, "
            + "5B08ACC2-13A5-4F07-9A1B-195060C40EB7, 82B9BFBC-91BA-4257-9ABE-22CAD37B17C6 and 143 more]"
        #expect(lines.first == grouped)
        // The archive is fine: what stands in the way is the target's ids, and the line says which modes take them.
        #expect(
            lines.last
                == "Error: 147 of the archive's records already exist in the target store (by id), so nothing was "
                + "written; --mode upsert, merge or skip imports into a store that holds them")
        #expect(try scratch.bytes("new.sqlite") == before)
        // validate --store prints the same line; --json still lists each issue (capped at 100).
        let validate = try TasksBinary.run(["validate", "--store", store, archive])
        #expect(validate.stderr.hasPrefix(lines[0] + "\n"))
        #expect(validate.status == 65)
        #expect(
            validate.stderr.hasSuffix(
                ": 147 of the archive's records already exist in the target store (by id); "
                    + "--mode upsert, merge or skip imports into a store that holds them\n"))
        let json = try TasksBinary.run(["validate", "--json", "--store", store, archive])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect((object["issues"] as? [Any])?.count == 100 && object["errorCount"] as? Int == 147)
        #expect(object["codeCounts"] == nil)
    }

    @Test("two errors of one code stay two lines; three share one")
    func groupThreshold() throws {
        func archive(_ missing: Int) -> String {
            let ids = (0..<missing).map { String(format: "%08X-0000-4000-8000-000000000000", $0 + 1) }
            let tasks = ids.enumerated().map { index, id in
                "{\"id\":\"\(String(format: "%08X", index + 100))-0000-4000-8000-000000000000\",\"title\":\"T\","
                    + "\"isCompleted\":false,\"createdAt\":\"2024-01-01T00:00:00Z\",\"priority\":0,"
                    + "\"projectId\":\"\(id)\","
                    + "\"tagIds\":[],\"subtasks\":[]}"
            }
            return "{\"format\":\"tasks-interchange\",\"version\":2,\"exportDate\":\"2024-01-01T00:00:00Z\","
                + "\"projects\":[],\"categories\":[],\"tags\":[],"
                + "\"tasks\":[\(tasks.joined(separator: ","))],\"counts\":{\"projects\":0,\"categories\":0,\"tags\":0,"
                + "\"tasks\":\(missing),\"subtasks\":0}}"
        }
        let two = try TasksBinary.run(["validate"], stdin: Data(archive(2).utf8))
        #expect(two.status == 65)
        #expect(two.stderr.components(separatedBy: "missing-project").count == 3)
        #expect(!two.stderr.contains("missing-project errors"))
        let three = try TasksBinary.run(["validate"], stdin: Data(archive(3).utf8))
        #expect(three.status == 65)
        #expect(
            three.stderr.hasPrefix(
                "error: $.tasks[0].projectId: missing-project: no project with id "
                    + "00000001-0000-4000-8000-000000000000 in the archive [3 missing-project errors; also "
                    + "00000002-0000-4000-8000-000000000000, 00000003-0000-4000-8000-000000000000]\n"))
        #expect(three.stderr.hasSuffix("stdin: invalid: 3 error(s), 0 warning(s)\n"))
    }
}
