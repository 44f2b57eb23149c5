import Foundation
import Testing
@testable import TaskInterchange

/// `diff`, `verify` and `import --match Entity.attribute` on the generic `entities` section, end to end through the
/// built binary, on copies of real stores from `../shared/fixtures/real-stores`.
@Suite(
    "diff, verify and --match on generic entities",
    .enabled(
        if: SharedFixtures.exists("real-stores/SampleModel2_V1__alemar11_CoreDataPlus.sqlite"),
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct GenericCompareCommandTests {
    static let books = "SampleModel2_V1__alemar11_CoreDataPlus.sqlite"
    static let accounts = "Accounts3__log2timeline_plaso.sqlite"
    static let bookmarks = "Bookmarks_V5__duckduckgo_BrowserServicesKit.sqlite"

    /// A private copy of a real store (with its sidecars): the originals are never opened.
    static func copy(_ name: String, into scratch: Scratch) throws -> String {
        try SharedFixtures.copy("real-stores/" + name, into: scratch)
    }

    /// Exports `store` to `file` in the scratch directory and returns the archive's text.
    static func export(_ store: String, _ file: String, in scratch: Scratch) throws -> String {
        let run = try TasksBinary.run(["export", "--store", store, "-o", scratch.path(file)])
        #expect(run.status == 0, "\(run.stderr)")
        return try String(contentsOfFile: scratch.path(file), encoding: .utf8)
    }

    /// The archive line of the generic record with `id`.
    static func line(of id: String, in text: String) throws -> String {
        try #require(text.split(separator: "\n").first { $0.hasPrefix("{\"id\":\"\(id)\"") }.map(String.init))
    }

    /// A record line of an archive as JSON (a line ends with a comma unless it is its entity's last).
    static func record(_ line: Substring) throws -> [String: Any] {
        let text = line.hasSuffix(",") ? line.dropLast() : line
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a store and its own export compare equal (diff both ways, verify): exit 0, every entity counted")
    func storeEqualsItsExport() throws {
        let scratch = try Scratch()
        for (name, expected) in [
            (
                Self.books,
                [
                    "Author       2 ↔ 2", "Page         4970 ↔ 4970",
                    "GraphicNovel 1 ↔ 1",
                ]
            ),
            (Self.accounts, ["AccountProperty  145 ↔ 145", "Dataclass        41 ↔ 41"]),
        ] {
            let store = try Self.copy(name, into: scratch)
            _ = try Self.export(store, name + ".json", in: scratch)
            for (a, b) in [(store, scratch.path(name + ".json")), (scratch.path(name + ".json"), store)] {
                let run = try TasksBinary.run(["diff", a, b])
                #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
                #expect(run.stderr.isEmpty)
                for line in expected { #expect(run.stdout.contains(line), "\(run.stdout)") }
                #expect(run.stdout.contains("A and B hold the same graph"))
            }
            let verify = try TasksBinary.run(["verify", "--store", store, scratch.path(name + ".json")])
            #expect(verify.status == 0, "\(verify.stdout)")
            #expect(verify.stdout.contains("verified: "))
        }
    }

    @Test(
        "each generic change is found and named: attribute, date bit, to-one, record on one side, sub-entity; text and --json"
    )
    func changesInBooks() throws {
        let scratch = try Scratch()
        let store = try Self.copy(Self.books, into: scratch)
        var text = try Self.export(store, "before.json", in: scratch)
        let archive = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        let entities = archive["entities"] as! [String: [[String: Any]]]
        let book = entities["Book"]![0], other = entities["Book"]![1]
        let novel = entities["GraphicNovel"]![0], page = entities["Page"]![0]
        let bookId = book["id"] as! String, novelId = novel["id"] as! String, pageId = page["id"] as! String
        let bookValues = book["values"] as! [String: Any]
        let authors = entities["Author"]!.map { $0["id"] as! String }
        let author = bookValues["author"] as! String
        let newAuthor = authors.first { $0 != author }!
        // One book: another author (to-one). Another: its publishedAt one bit later. The graphic novel (a
        // sub-entity): a new title. One page: gone.
        let bookLine = try Self.line(of: bookId, in: text)
        text = text.replacingOccurrences(
            of: bookLine,
            with: bookLine.replacingOccurrences(
                of: "\"author\":\"\(author)\"", with: "\"author\":\"\(newAuthor)\""))
        let otherLine = try Self.line(of: other["id"] as! String, in: text)
        let published = (other["values"] as! [String: Any])["publishedAt"] as! String
        let date = try LosslessDate.date(from: published)
        let later = try LosslessDate.string(
            from: Date(
                timeIntervalSinceReferenceDate:
                    date.timeIntervalSinceReferenceDate.nextUp))
        text = text.replacingOccurrences(
            of: otherLine, with: otherLine.replacingOccurrences(of: published, with: later))
        let novelLine = try Self.line(of: novelId, in: text)
        let novelTitle = (novel["values"] as! [String: Any])["title"] as! String
        text = text.replacingOccurrences(
            of: novelLine,
            with: novelLine.replacingOccurrences(
                of: "\"title\":\"\(novelTitle)\"", with: "\"title\":\"Renamed\""))
        text = text.replacingOccurrences(of: try Self.line(of: pageId, in: text) + "\n", with: "")
        text = text.replacingOccurrences(of: "\"entities\":5468}", with: "\"entities\":5467}")
        try text.write(toFile: scratch.path("after.json"), atomically: true, encoding: .utf8)

        let run = try TasksBinary.run(["diff", store, scratch.path("after.json")])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.contains("Book         51 ↔ 51  (2 changed)"))
        #expect(run.stdout.contains("GraphicNovel 1 ↔ 1  (1 changed)"))
        #expect(run.stdout.contains("Page         4970 ↔ 4969  (1 only in A)"))
        #expect(run.stdout.contains("  author: \"\(author)\" → \"\(newAuthor)\""))
        #expect(run.stdout.contains("  publishedAt: \"\(published)\" → \"\(later)\""))
        #expect(
            run.stdout.contains(
                "GraphicNovel \(novelId) \"Renamed\": changed\n  title: \"\(novelTitle)\" → \"Renamed\""))
        #expect(run.stdout.contains("Page \(pageId): only in A"))
        #expect(run.stdout.contains("A and B differ: 4 records"))

        // Capped per entity, with a count of the rest.
        let capped = try TasksBinary.run(["diff", "--limit", "1", store, scratch.path("after.json")])
        #expect(capped.status == 1)
        #expect(capped.stdout.contains("  … and 1 more Book difference (--limit N or --json to see them)"))

        let json = try TasksBinary.run(["diff", "--json", store, scratch.path("after.json")])
        #expect(json.status == 1)
        let diff = try JSONDecoder().decode(GraphDiff.self, from: json.stdoutData)
        #expect(diff.differenceCount == 4)
        #expect(
            diff.entities.first { $0.entity == "Page" }
                == GraphDiff.EntitySummary(
                    entity: "Page", countA: 4970, countB: 4969, onlyInA: 1))
        let renamed = try #require(diff.records.first { $0.id.uuidString == novelId })
        #expect(renamed.entity == "GraphicNovel" && renamed.kind == nil && renamed.change == .changed)
        #expect(renamed.fields == [.value("title", old: .string(novelTitle), new: .string("Renamed"))])
        #expect(diff.records.contains { $0.entity == "Page" && $0.change == .onlyInA && $0.id.uuidString == pageId })

        // verify: the file's missing page is not something the store lacks; its changes are.
        let verify = try TasksBinary.run(["verify", "--store", store, scratch.path("after.json")])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("Page         4969 ↔ 4970  (1 only in B (not a difference))"))
        #expect(verify.stdout.contains("not verified: 3 records of"))
    }

    @Test("ordered to-many relationships: a link removed and a new order are named (Bookmarks' children)")
    func orderedChildren() throws {
        let scratch = try Scratch()
        let store = try Self.copy(Self.bookmarks, into: scratch)
        var text = try Self.export(store, "before.json", in: scratch)
        let line = try #require(text.split(separator: "\n").first { $0.contains("\"title\":\"bookmarks_root\"") })
        let value = try Self.record(line)
        let id = value["id"] as! String
        let children = (value["values"] as! [String: Any])["children"] as! [String]
        #expect(children.count == 5)
        // Drop the last child, swap the first two.
        let edited = [children[1], children[0], children[2], children[3]]
        let quoted = { (ids: [String]) in ids.map { "\"\($0)\"" }.joined(separator: ",") }
        text = text.replacingOccurrences(
            of: String(line),
            with: line.replacingOccurrences(
                of: "\"children\":[\(quoted(children))]", with: "\"children\":[\(quoted(edited))]"))
        try text.write(toFile: scratch.path("after.json"), atomically: true, encoding: .utf8)
        let run = try TasksBinary.run(["diff", scratch.path("before.json"), scratch.path("after.json")])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("BookmarkEntity \(id) \"bookmarks_root\": changed"))
        #expect(run.stdout.contains("  children: − \(children[4])"))
        #expect(
            run.stdout.contains(
                "  children: order \(children[0]), \(children[1]), \(children[2]), \(children[3]) → "
                    + "\(children[1]), \(children[0]), \(children[2]), \(children[3])"))
    }

    @Test("verify after import into a new store (--model-from, keys kept, a new store UUID): exit 0; --verify too")
    func verifyNewStore() throws {
        let scratch = try Scratch()
        let store = try Self.copy(Self.books, into: scratch)
        _ = try Self.export(store, "books.json", in: scratch)
        let imported = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--model-from", store,
            "--verify", scratch.path("books.json"),
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("verified: "), "\(imported.stderr)")
        let verify = try TasksBinary.run(["verify", "--store", scratch.path("new.sqlite"), scratch.path("books.json")])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("Page         4970 ↔ 4970\n"))
        // A store of the built-in model, which has no such entities: counted, not compared.
        let plain = try TasksBinary.run([
            "import", "--store", scratch.path("plain.sqlite"), TasksBinary.sample("v2-example.json"),
        ])
        #expect(plain.status == 0, "\(plain.stderr)")
        let into = try TasksBinary.run(["import", "--store", scratch.path("plain.sqlite"), scratch.path("books.json")])
        #expect(into.stderr.contains("Page: the target has no such entity; 4970 records not imported"))
        let lacking = try TasksBinary.run([
            "verify", "--store", scratch.path("plain.sqlite"), scratch.path("books.json"),
        ])
        // Nothing of the file could be compared: no proof that the store holds it.
        #expect(lacking.status == 1, "\(lacking.stdout)")
        #expect(lacking.stdout.contains("Page         4970 ↔ —  (B has no such entity: not compared)"))
        #expect(lacking.stdout.contains("not verified: none of the 5468 records of"), "\(lacking.stdout)")
    }

    /// An archive of `books` (and both authors) from `archive`, the export of SampleModel2_V1.
    static func part(_ archive: [String: Any], books: [[String: Any]]) throws -> Data {
        var part = archive
        var entities = archive["entities"] as! [String: Any]
        let authors = entities["Author"] as! [[String: Any]]
        entities = ["Author": authors, "Book": books]
        part["entities"] = entities
        var counts = archive["counts"] as! [String: Any]
        counts["entities"] = authors.count + books.count
        part["counts"] = counts
        return try JSONSerialization.data(withJSONObject: part)
    }

    @Test(
        "--match Author.alias,Book.title merges two independently made stores: references follow, twice writes nothing")
    func matchMergesStores() throws {
        let scratch = try Scratch()
        let store = try Self.copy(Self.books, into: scratch)
        _ = try Self.export(store, "books.json", in: scratch)
        let archive = try JSONSerialization.jsonObject(with: try scratch.bytes("books.json")) as! [String: Any]
        let books = (archive["entities"] as! [String: Any])["Book"] as! [[String: Any]]
        // A holds books 0–29, B books 20–50, one of the shared ones with another price.
        var fromB = Array(books[20...])
        var changed = fromB[4]["values"] as! [String: Any]
        changed["price"] = "99.99"
        fromB[4]["values"] = changed
        try Self.part(archive, books: Array(books[..<30])).write(to: scratch.url.appendingPathComponent("a.json"))
        try Self.part(archive, books: fromB).write(to: scratch.url.appendingPathComponent("b.json"))
        for side in ["a", "b"] {
            let run = try TasksBinary.run([
                "import", "--store", scratch.path("\(side).sqlite"), "--model-from", store,
                scratch.path("\(side).json"),
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        _ = try Self.export(scratch.path("b.sqlite"), "b-export.json", in: scratch)
        let arguments = [
            "import", "--store", scratch.path("a.sqlite"), "--mode", "upsert",
            "--match", "Author.alias", "--match", "Book.title", scratch.path("b-export.json"),
        ]
        let dry = try TasksBinary.run(arguments + ["--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("  Author (generic): 0 inserted, 2 unchanged, 2 matched; 4 values: 4 arrived\n"))
        #expect(
            dry.stdout.contains(
                "  Book (generic): 21 inserted, 1 updated, 9 unchanged, 10 matched; 217 values: 217 arrived\n"))
        #expect(dry.stdout.contains("  match: Author "))
        let merged = try TasksBinary.run(arguments)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.contains("Imported into \(scratch.path("a.sqlite")) in "))
        #expect(merged.stderr.contains("21 inserted, 1 updated, 11 unchanged"))
        // Every book of the merged store points at one of A's two authors, and each title is there once.
        let after =
            try JSONSerialization.jsonObject(
                with: Data(try Self.export(scratch.path("a.sqlite"), "a-after.json", in: scratch).utf8))
            as! [String: Any]
        let merged2 = after["entities"] as! [String: [[String: Any]]]
        let authorIds = Set(merged2["Author"]!.map { $0["id"] as! String })
        #expect(authorIds.count == 2)
        #expect(merged2["Book"]!.count == 51)
        #expect(
            merged2["Book"]!.allSatisfy { authorIds.contains(($0["values"] as! [String: Any])["author"] as! String) })
        #expect(Set(merged2["Book"]!.map { ($0["values"] as! [String: Any])["title"] as! String }).count == 51)
        #expect(merged2["Book"]!.contains { ($0["values"] as! [String: Any])["price"] as? String == "99.99" })
        // Again: nothing to write, the store file byte for byte as it was.
        let before = try scratch.bytes("a.sqlite")
        let again = try TasksBinary.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("Nothing written to \(scratch.path("a.sqlite")) in "))
        #expect(
            again.stderr.contains("  Book (generic): 0 inserted, 31 unchanged, 31 matched; 217 values: 217 arrived\n"))
        #expect(try scratch.bytes("a.sqlite") == before)
    }

    @Test("--match on a value several target records share: not matched, inserted, and the warning names the value")
    func ambiguousValues() throws {
        let scratch = try Scratch()
        let store = try Self.copy(Self.books, into: scratch)
        _ = try Self.export(store, "books.json", in: scratch)
        let archive = try JSONSerialization.jsonObject(with: try scratch.bytes("books.json")) as! [String: Any]
        let books = (archive["entities"] as! [String: Any])["Book"] as! [[String: Any]]
        func titled(_ index: Int, _ uniqueID: String) -> [String: Any] {
            var book = books[index], values = book["values"] as! [String: Any]
            values["title"] = "Dup"
            values["uniqueID"] = uniqueID  // the model keeps uniqueID unique
            book["values"] = values
            return book
        }
        try Self.part(
            archive,
            books: [
                titled(0, "00000000-0000-4000-8000-0000000000AA"),
                titled(1, "00000000-0000-4000-8000-0000000000AB"),
            ]
        )
        .write(to: scratch.url.appendingPathComponent("c.json"))
        try Self.part(archive, books: [titled(2, "00000000-0000-4000-8000-0000000000AC")])
            .write(to: scratch.url.appendingPathComponent("d.json"))
        for side in ["c", "d"] {
            let run = try TasksBinary.run([
                "import", "--store", scratch.path("\(side).sqlite"), "--model-from", store,
                scratch.path("\(side).json"),
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        _ = try Self.export(scratch.path("d.sqlite"), "d-export.json", in: scratch)
        let run = try TasksBinary.run([
            "import", "--store", scratch.path("c.sqlite"), "--mode", "upsert",
            "--match", "Author.alias,Book.title", "--dry-run", scratch.path("d-export.json"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  Book (generic): 1 inserted; 7 values: 7 arrived\n"))
        #expect(run.stdout.contains("  Author (generic): 0 inserted, 2 unchanged, 2 matched; 4 values: 4 arrived\n"))
        #expect(
            run.stderr.contains(
                "warning: --match Book.title: 1 archive record not matched (imported as new) "
                    + "because their value is not unique: \"Dup\" (2 in the target, 1 in the archive)"))
        // insert keeps a matched record as the target has it.
        let insert = try TasksBinary.run([
            "import", "--store", scratch.path("c.sqlite"), "--match", "Author.alias",
            "--dry-run", scratch.path("d-export.json"),
        ])
        #expect(insert.status == 0, "\(insert.stderr)")
        #expect(insert.stdout.contains("  Author (generic): 0 inserted, 2 skipped, 2 matched; 4 values: 0 arrived\n"))
    }

    @Test("--match usage errors: unknown entity or attribute (with the closest), a relationship, a bare name: exit 64")
    func matchUsageErrors() throws {
        let scratch = try Scratch()
        let store = try Self.copy(Self.books, into: scratch)
        _ = try Self.export(store, "books.json", in: scratch)
        for (key, message) in [
            ("Authr.alias", "the archive has no entity 'Authr' in its entities section. Did you mean 'Author'?"),
            ("Author.alais", "Author has no attribute 'alais'. Did you mean 'alias'?"),
            ("Book.author", "Book has no attribute 'author' (it is a relationship)"),
            ("Author", "expected 'name' (projects, categories and tags by name) or 'Entity.attribute'"),
        ] {
            let run = try TasksBinary.run([
                "import", "--store", store, "--mode", "upsert", "--match", key,
                scratch.path("books.json"),
            ])
            #expect(run.status == 64, "\(key): \(run.stderr)")
            #expect(run.stderr.contains("Error: --match \(key): \(message)"), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test("--mode merge on generic records: a newer modifiedAt wins, an older one keeps the target's")
    func mergeByModificationDate() throws {
        let scratch = try Scratch()
        let store = try Self.copy(Self.bookmarks, into: scratch)
        var text = try Self.export(store, "before.json", in: scratch)
        let dated = text.split(separator: "\n").filter {
            $0.hasPrefix("{\"id\":") && $0.contains("\"modifiedAt\":\"") && $0.contains("\"title\":\"")
        }
        #expect(dated.count >= 2)
        func edit(_ line: Substring, title: String, seconds: Double) throws -> (id: String, title: String) {
            let record = try Self.record(line)
            let values = record["values"] as! [String: Any]
            let date = try LosslessDate.date(from: values["modifiedAt"] as! String)
            let moved = try LosslessDate.string(from: date.addingTimeInterval(seconds))
            text = text.replacingOccurrences(
                of: String(line),
                with:
                    line
                    .replacingOccurrences(
                        of: "\"title\":\"\(values["title"] as! String)\"", with: "\"title\":\"\(title)\""
                    )
                    .replacingOccurrences(of: values["modifiedAt"] as! String, with: moved))
            return (record["id"] as! String, values["title"] as! String)
        }
        let newer = try edit(dated[0], title: "newer", seconds: 60)
        let older = try edit(dated[1], title: "older", seconds: -60)
        try text.write(toFile: scratch.path("edited.json"), atomically: true, encoding: .utf8)
        let run = try TasksBinary.run([
            "import", "--store", store, "--mode", "merge", "--dry-run",
            scratch.path("edited.json"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("BookmarkEntity (generic): 0 inserted, 1 updated, 8 unchanged, 1 skipped, 2 conflicts"))
        #expect(run.stdout.contains("conflict: BookmarkEntity \(newer.id): archive's version wins"))
        #expect(run.stdout.contains("conflict: BookmarkEntity \(older.id): target's version kept"))
        let merged = try TasksBinary.run(["import", "--store", store, "--mode", "merge", scratch.path("edited.json")])
        #expect(merged.status == 0, "\(merged.stderr)")
        let after = try Self.export(store, "after.json", in: scratch)
        #expect(try Self.line(of: newer.id, in: after).contains("\"title\":\"newer\""))
        #expect(try Self.line(of: older.id, in: after).contains("\"title\":\"\(older.title)\""))
    }

    @Test("records whose ids are not derived from their keys are compared by id from a file; from stdin, exit 65")
    func idsNotDerivedFromKeys() throws {
        let scratch = try Scratch()
        let store = try Self.copy(Self.books, into: scratch)
        var text = try Self.export(store, "books.json", in: scratch)
        let archive = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        let page = ((archive["entities"] as! [String: [[String: Any]]])["Page"]!)[0]["id"] as! String
        let other = "00000000-0000-4000-8000-000000000001"
        text = text.replacingOccurrences(of: "{\"id\":\"\(page)\"", with: "{\"id\":\"\(other)\"")
        try text.write(toFile: scratch.path("renamed.json"), atomically: true, encoding: .utf8)
        let run = try TasksBinary.run(["diff", store, scratch.path("renamed.json")])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("Page         4970 ↔ 4970  (1 only in A, 1 only in B)"))
        #expect(run.stdout.contains("Page \(page): only in A"))
        #expect(run.stdout.contains("Page \(other): only in B"))
        let piped = try TasksBinary.run(["diff", store, "-"], stdin: Data(text.utf8))
        #expect(piped.status == 65)
        #expect(piped.stdout.isEmpty)
        #expect(piped.stderr.contains("stdin: its generic records are not listed as exports list them"))
    }
}
