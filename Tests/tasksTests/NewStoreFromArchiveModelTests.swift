import Foundation
import Testing

/// `tasks export --store X | tasks import --store NEW` for stores outside the task model: the new store is made from
/// the archive's model declarations, every record and value arrives, and what cannot make a store is refused with
/// nothing left behind.
struct NewStoreFromArchiveModelTests {
    /// Pipes `store`'s export into a new store, checks every record and value arrived (the per-entity lines, `verify`),
    /// and that a restore (`--keep-identity`) exports what the source did.
    func roundTrip(_ store: String, in scratch: Scratch, entities: [String: Int]) throws {
        let pipe = try TasksBinary.shell(
            "\"$TASKS\" export --store '\(store)' | \"$TASKS\" import --store '\(scratch.path("new.sqlite"))'")
        #expect(pipe.status == 0, "\(pipe.stderr)")
        #expect(pipe.stderr.contains("warning: the new store was made from the archive's model declarations"))
        #expect(pipe.stderr.contains("made from the app's model (--model-from)"))
        #expect(!pipe.stderr.contains("not imported"), "\(pipe.stderr)")
        for (entity, count) in entities {
            #expect(pipe.stderr.contains("  \(entity) (generic): \(count) inserted; "), "\(entity): \(pipe.stderr)")
        }
        let arrived = pipe.stderr.split(separator: "\n").filter { $0.contains(" (generic): ") }
        #expect(arrived.count == entities.count)
        for line in arrived {
            // "N values: N arrived": the two counts agree.
            let numbers = line.split(separator: ";").last?.split(separator: " ").compactMap { Int($0) } ?? []
            #expect(numbers.count == 2 && numbers[0] == numbers[1], "\(line)")
        }

        let first = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("first.json")])
        #expect(first.status == 0, "\(first.stderr)")
        let verify = try TasksBinary.run(["verify", "--store", scratch.path("new.sqlite"), scratch.path("first.json")])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let restore = try TasksBinary.run([
            "import", "--store", scratch.path("restored.sqlite"), "--keep-identity", scratch.path("first.json"),
        ])
        #expect(restore.status == 0, "\(restore.stderr)")
        let second = try TasksBinary.run(["export", "--store", scratch.path("restored.sqlite")])
        #expect(second.status == 0)
        let original = try String(contentsOfFile: scratch.path("first.json"), encoding: .utf8)
        #expect(contentLines(second.stdout) == contentLines(original))
    }

    @Test("the Journal samples (no model cache, untyped key columns kept as integers)", arguments: ["v1", "v2"])
    func journal(version: String) throws {
        let scratch = try Scratch()
        let counts =
            version == "v1" ? ["Entry": 6, "Label": 3, "Notebook": 2] : ["Entry": 7, "Label": 3, "Notebook": 2]
        try roundTrip(TasksBinary.sample("Journal-\(version).sqlite"), in: scratch, entities: counts)
        let pipe = try TasksBinary.shell(
            "\"$TASKS\" export --store '\(TasksBinary.sample("Journal-\(version).sqlite"))' | "
                + "\"$TASKS\" import --store '\(scratch.path("again.sqlite"))'")
        #expect(pipe.stderr.contains("warning: Entry.Z_FOK_NOTEBOOK, Entry.notebook: untyped"))
    }

    @Test(
        "a Library store: inheritance, many-to-many, ordered, one-to-one",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is absent; skipped"))
    func library() throws {
        let scratch = try Scratch()
        let generate = try TasksBinary.shell(
            "'\(TasksBinary.repository.path)/bench/generate-library.sh' 60 '\(scratch.path("library.sqlite"))'")
        #expect(generate.status == 0, "\(generate.stderr)")
        try roundTrip(
            scratch.path("library.sqlite"), in: scratch,
            entities: ["Article": 30, "Book": 30, "Author": 1000, "Cover": 6, "Shelf": 100])
        // The new store's declarations are the source's.
        let again = try TasksBinary.run(["export", "--store", scratch.path("new.sqlite")])
        let source = try String(contentsOfFile: scratch.path("first.json"), encoding: .utf8)
        #expect(modelLine(again.stdout) == modelLine(source))
        #expect(modelLine(source).contains("\"abstract\":true"))
    }

    @Test(
        "real stores (Notes, Photos) round-trip into a new store without a template",
        .enabled(
            if: SharedFixtures.exists("real-stores/NoteStore-macOS-12__RhetTbull_apple-notes-parser.sqlite"),
            "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
        ),
        arguments: [
            "NoteStore-macOS-12__RhetTbull_apple-notes-parser.sqlite", "Photos-13.0.1__RhetTbull_PhotoScript.sqlite",
        ])
    func realStore(name: String) throws {
        let scratch = try Scratch()
        let store = try SharedFixtures.copy("real-stores/\(name)", into: scratch)
        let export = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")])
        #expect(export.status == 0, "\(export.stderr)")
        let load = try TasksBinary.run(["import", "--store", scratch.path("new.sqlite"), scratch.path("a.json")])
        #expect(load.status == 0, "\(load.stderr)")
        #expect(!load.stderr.contains("not imported"), "\(load.stderr)")
        let verify = try TasksBinary.run(["verify", "--store", scratch.path("new.sqlite"), scratch.path("a.json")])
        #expect(verify.status == 0, "\(verify.stdout)")
    }

    @Test("a new store none of the archive's records has a place in is refused, whatever --strict says")
    func nothingArrives() throws {
        let scratch = try Scratch()
        let archive = try journalExport(in: scratch)
        let load = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--model-from", TasksBinary.sample("TaskManager.sqlite"),
            archive,
        ])
        #expect(load.status == 65)
        #expect(
            load.stderr.contains(
                "the new store has no place for any of the archive's records: Entry (6), Label (3), Notebook (2)"))
        #expect(load.stderr.contains("--model-from"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["journal.json"])
    }

    @Test("declarations that cannot make a store: exit 65 naming the property, nothing left behind")
    func refused() throws {
        let scratch = try Scratch()
        let archive = try journalExport(in: scratch)
        let text = try String(contentsOfFile: archive, encoding: .utf8)
            .replacingOccurrences(of: "\"color\":\"string\"", with: "\"color\":\"objectID\"")
        #expect(text.contains("\"color\":\"objectID\""))
        try text.write(toFile: archive, atomically: true, encoding: .utf8)
        for extra in [[], ["--dry-run"]] {
            let load = try TasksBinary.run(["import", "--store", scratch.path("new.sqlite")] + extra + [archive])
            #expect(load.status == 65)
            #expect(
                load.stderr.contains(
                    "cannot make a new store from the archive's model declarations: Label.color is of type objectID"))
            #expect(load.stderr.contains("give the app's model (--model-from); nothing was written"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["journal.json"])
        }
    }

    /// The Journal v1 sample's export, as `journal.json` in `scratch`.
    func journalExport(in scratch: Scratch) throws -> String {
        let archive = scratch.path("journal.json")
        let export = try TasksBinary.run(["export", "--store", TasksBinary.sample("Journal-v1.sqlite"), "-o", archive])
        #expect(export.status == 0, "\(export.stderr)")
        return archive
    }

    /// The `source` line's `model` member.
    func modelLine(_ text: String) -> String {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("\"source\"") }),
            let range = line.range(of: "\"model\":")
        else { return "" }
        return String(line[range.lowerBound...]).components(separatedBy: ",\"maxKeys\"").first ?? ""
    }
}
