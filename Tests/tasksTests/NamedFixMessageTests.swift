import Foundation
import Testing

/// Messages that name the fix, end to end: a JSON file that is no archive, an archive cut off, a mistyped path.
@Suite("tasks: messages that name the fix")
struct NamedFixMessageTests {
    /// A scratch directory with the sample store, a package manifest and the sample mapping file.
    static func scratch() throws -> (Scratch, String) {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        try #"{"name": "app", "version": "1.0.0", "scripts": {"test": "swift test"}}"#.write(
            toFile: scratch.path("package.json"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: TasksBinary.sample("easylife-mapping.json"), toPath: scratch.path("mapping.json"))
        return (scratch, store)
    }

    @Test("validate, import, verify and diff name a package manifest and a mapping file as no archive: 65")
    func notAnArchive() throws {
        let (scratch, store) = try Self.scratch()
        let sample = TasksBinary.sample("v2-example.json")
        for (file, looksLike) in [
            ("package.json", "an object with the members \"name\", \"version\", \"scripts\""),
            ("mapping.json", "it looks like a mapping file, with mappingVersion and kinds"),
        ] {
            let path = scratch.path(file)
            let target = scratch.path("new-\(file).sqlite")
            for arguments in [
                ["validate", path], ["import", "--store", target, path], ["verify", "--store", store, path],
                ["diff", sample, path],
            ] {
                let run = try TasksBinary.run(arguments)
                let label = "\(arguments[0]) \(file)"
                #expect(run.status == 65, "\(label): \(run.stderr)")
                #expect(run.stdout.isEmpty, "\(label)")
                #expect(run.stderr.contains("this is not a tasks archive (\(looksLike)"), "\(label): \(run.stderr)")
                #expect(!run.stderr.contains("unsupported-version"), "\(label): \(run.stderr)")
                #expect(!run.stderr.contains("missing-field"), "\(label): \(run.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: target), "import wrote a store for \(file)")
        }
        // The command line adds its flags: a mapping is given with --mapping; an archive is what export writes.
        let mapping = try TasksBinary.run(["validate", scratch.path("mapping.json")])
        #expect(mapping.stderr.contains("give it with --mapping"), "\(mapping.stderr)")
        let manifest = try TasksBinary.run([
            "import", "--store", scratch.path("n.sqlite"), scratch.path("package.json"),
        ])
        #expect(
            manifest.stderr.contains("Error: this is not a tasks archive (")
                && manifest.stderr.contains("an archive is what 'tasks export' writes"), "\(manifest.stderr)")
        let json = try TasksBinary.run(["validate", "--json", scratch.path("package.json")])
        #expect(json.status == 65 && json.stdout.contains("\"code\" : \"not-an-archive\""), "\(json.stdout)")
    }

    @Test("an archive cut mid-string, mid-record or between NDJSON lines: validate and import say it ends early, 65")
    func truncated() throws {
        let (scratch, store) = try Self.scratch()
        let json = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")])
        let ndjson = try TasksBinary.run(["export", "--store", store, "--ndjson", "-o", scratch.path("a.ndjson")])
        #expect(json.status == 0 && ndjson.status == 0, "\(json.stderr)\(ndjson.stderr)")
        let text = try scratch.bytes("a.json")
        let lines = try scratch.bytes("a.ndjson")
        let titleAt = try #require(
            text.range(of: Data("\"title\" : \"".utf8)) ?? text.range(of: Data("\"title\":\"".utf8)))
        let newlines = lines.indices.filter { lines[$0] == 0x0A }
        try #require(newlines.count > 3)
        let secondLine = newlines[0] + 1
        let fourthLine = newlines[2] + 1
        let cuts: [(String, Data, String)] = [
            ("mid-string.json", text.prefix(titleAt.upperBound + 3), "inside the string that starts at line"),
            ("mid-record.json", text.prefix(titleAt.lowerBound - 1), "the file ends early ("),
            ("mid-record.ndjson", lines.prefix(secondLine + 20), "the file ends early ("),
            ("between-lines.ndjson", lines.prefix(fourthLine), "no trailer line"),
        ]
        for (name, bytes, detail) in cuts {
            try bytes.write(to: URL(fileURLWithPath: scratch.path(name)))
            let validate = try TasksBinary.run(["validate", scratch.path(name)])
            #expect(validate.status == 65, "\(name): \(validate.stderr)")
            #expect(validate.stderr.contains(detail), "\(name): \(validate.stderr)")
            #expect(
                validate.stderr.contains(
                    "\(scratch.path(name)): the file ends early (")
                    && validate.stderr.contains(
                        "it is incomplete (cut off while it was written or copied); export it again with 'tasks export'"
                    ),
                "\(name): \(validate.stderr)")
            // Where: a JSON path and line:column.
            #expect(validate.stderr.range(of: #"error: \$[^ ]* \(\d+:\d+\): "#, options: .regularExpression) != nil)
            let target = scratch.path("\(name).sqlite")
            let imported = try TasksBinary.run(["import", "--store", target, scratch.path(name)])
            #expect(imported.status == 65, "\(name): \(imported.stderr)")
            #expect(imported.stderr.contains("Error: the file ends early ("), "\(name): \(imported.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target), "\(name): import wrote a store")
        }
    }

    @Test("a mistyped path (case, a typo) gets the near name in its directory; nothing near, nothing offered: 66")
    func nearNames() throws {
        let (scratch, store) = try Self.scratch()
        let near = "did you mean '\(store)'?"
        for arguments in [
            ["export", "--store", scratch.path("taskmanager.sqlite"), "-o", scratch.path("x.json")],
            ["inspect", "--store", scratch.path("TaskManger.sqlite")],
            ["verify", "--store", scratch.path("TaskManager.sqlit"), TasksBinary.sample("v2-example.json")],
            ["migrate", "--from", scratch.path("TaskManagr.sqlite"), "--to", scratch.path("new.sqlite")],
        ] {
            let run = try TasksBinary.run(arguments)
            #expect(run.status == 66, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("no such store file; \(near)"), "\(arguments): \(run.stderr)")
        }
        let mapping = try TasksBinary.run([
            "export", "--store", store, "--mapping", scratch.path("maping.json"), "-o", scratch.path("x.json"),
        ])
        #expect(mapping.status == 66 && mapping.stderr.contains("did you mean '\(scratch.path("mapping.json"))'?"))
        let archive = try TasksBinary.run(["validate", scratch.path("package.jsn")])
        #expect(archive.status == 66 && archive.stderr.contains("did you mean '\(scratch.path("package.json"))'?"))
        let far = try TasksBinary.run(["inspect", "--store", scratch.path("Completely.db")])
        #expect(far.status == 66 && !far.stderr.contains("did you mean"), "\(far.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
    }
}
