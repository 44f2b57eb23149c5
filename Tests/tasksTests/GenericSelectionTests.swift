import Foundation
import Testing
@testable import TaskInterchange

/// Selections over generic entities: the closed-graph rule row by row (only the rows kept records refer to come
/// along, across typed and generic records alike), and entity names that include their sub-entities. Checked against
/// SQL on a private copy of a real store, every archive accepted by `validate`.
@Suite(
    "Export selection: generic entities",
    .enabled(
        if: SharedFixtures.exists("real-stores/SampleModel2_V1__alemar11_CoreDataPlus.sqlite"),
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct GenericSelectionTests {
    /// A private copy of SampleModel2 (Author ⊂ Writer, Book ⊃ GraphicNovel, Page → Book, Book → Author) whose pages
    /// belong to three books only, so a row-level closure and an entity-level one differ.
    private func store(_ scratch: Scratch) throws -> String {
        let path = try SharedFixtures.copy(
            "real-stores/SampleModel2_V1__alemar11_CoreDataPlus.sqlite", into: scratch,
            as: "Books.sqlite")
        let database = try Database(path: path, mode: .readWrite)
        try database.execute("DELETE FROM ZPAGE WHERE ZBOOK NOT IN (SELECT Z_PK FROM ZBOOK ORDER BY Z_PK LIMIT 3)")
        return path
    }

    private func count(_ store: String, _ sql: String) throws -> Int {
        Int(try Database(path: store, mode: .readOnly(immutable: false)).scalar(sql)?.int64 ?? -1)
    }

    /// Exports with `flags`, requires exit 0 and `validate` to accept the file; returns the archive and stderr.
    private func export(
        _ store: String, _ flags: [String], _ scratch: Scratch,
        name: String
    ) throws -> (archive: [String: Any], stderr: String) {
        let run = try TasksBinary.run(["export", "--store", store, "-o", scratch.path(name)] + flags)
        #expect(run.status == 0, "\(flags): \(run.stderr)")
        let validate = try TasksBinary.run(["validate", scratch.path(name)])
        #expect(validate.status == 0, "\(flags): \(validate.stderr)\(validate.stdout)")
        let object = try JSONSerialization.jsonObject(with: try scratch.bytes(name)) as? [String: Any] ?? [:]
        return (object, run.stderr)
    }

    private func entities(_ archive: [String: Any]) -> [String: [[String: Any]]] {
        archive["entities"] as? [String: [[String: Any]]] ?? [:]
    }

    @Test("--entities Page brings along only the books its pages are in, and only those books' authors")
    func rowLevelClosure() throws {
        let scratch = try Scratch()
        let store = try store(scratch)
        let books = try count(store, "SELECT count(DISTINCT ZBOOK) FROM ZPAGE")
        let authors = try count(
            store, "SELECT count(DISTINCT ZAUTHOR) FROM ZBOOK WHERE Z_PK IN (SELECT ZBOOK FROM ZPAGE)")
        let pages = try count(store, "SELECT count(*) FROM ZPAGE")
        #expect(books == 3 && pages > 0)
        #expect(try count(store, "SELECT count(*) FROM ZBOOK") > books)

        let run = try export(store, ["--entities", "Page"], scratch, name: "pages.json")
        let sections = entities(run.archive)
        #expect(sections["Page"]?.count == pages)
        #expect((sections["Book"]?.count ?? 0) + (sections["GraphicNovel"]?.count ?? 0) == books)
        #expect(sections["Author"]?.count == authors)
        #expect(sections["Feedback"]?.isEmpty ?? true)
        // Every link of a kept record names a record of the archive.
        let ids = Set(sections.values.flatMap { $0.compactMap { $0["id"] as? String } })
        for page in sections["Page"] ?? [] {
            let values = page["values"] as? [String: Any] ?? [:]
            if let book = values["book"] as? String { #expect(ids.contains(book)) }
        }
        #expect(
            run.stderr.contains(
                "Book: brought-along: outside the selection; exported because kept records "
                    + "refer to them"))
        #expect(!run.stderr.contains("dangling"))
    }

    @Test(
        "naming an entity names its sub-entities: --entities Book keeps GraphicNovel, --exclude-entities Book drops it")
    func subEntities() throws {
        let scratch = try Scratch()
        let store = try store(scratch)
        let novels = try count(
            store,
            "SELECT count(*) FROM ZBOOK WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY "
                + "WHERE Z_NAME = 'GraphicNovel')")
        #expect(novels > 0)
        let books = try export(store, ["--entities", "Book"], scratch, name: "books.json")
        #expect(entities(books.archive)["GraphicNovel"]?.count == novels)
        #expect(entities(books.archive)["Page"]?.isEmpty ?? true)

        let without = try export(store, ["--exclude-entities", "Book"], scratch, name: "without.json")
        #expect(entities(without.archive)["Book"]?.isEmpty ?? true)
        #expect(entities(without.archive)["GraphicNovel"]?.isEmpty ?? true)
        #expect(entities(without.archive)["Page"]?.count == (try count(store, "SELECT count(*) FROM ZPAGE")))
        // The pages' links to books are dropped, each counted as an excluded reference.
        #expect(without.stderr.contains("excluded-reference"))
        for page in entities(without.archive)["Page"] ?? [] {
            #expect((page["values"] as? [String: Any])?["book"] == nil)
        }
    }

    @Test("a generic record's reference to a typed record brings that record along: pages keep their book-tasks")
    func genericToTyped() throws {
        let scratch = try Scratch()
        let store = try store(scratch)
        // Books read as tasks: the pages (generic) refer to typed records.
        let mapping = #"{"mappingVersion":1,"kinds":{"task":{"entity":"Book","fields":{"title":"title"}}}}"#
        try Data(mapping.utf8).write(to: URL(fileURLWithPath: scratch.path("mapping.json")))
        let books = try count(store, "SELECT count(DISTINCT ZBOOK) FROM ZPAGE")
        let run = try export(
            store, ["--mapping", scratch.path("mapping.json"), "--entities", "Page"], scratch,
            name: "typed.json")
        let tasks = run.archive["tasks"] as? [[String: Any]] ?? []
        #expect(tasks.count == books)
        let taskIDs = Set(tasks.compactMap { $0["id"] as? String })
        let pages = entities(run.archive)["Page"] ?? []
        #expect(!pages.isEmpty)
        for page in pages {
            let book = (page["values"] as? [String: Any])?["book"] as? String
            #expect(book.map(taskIDs.contains) == true)
        }
        #expect(!run.stderr.contains("dangling"))
    }
}
