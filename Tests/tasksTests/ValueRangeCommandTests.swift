import Foundation
import Testing

/// Values a store would change on the way in (issue 23, item 3), through the command line: `validate` and `import`
/// refuse them with their paths (65, nothing written); decimals are written digit for digit, and spellings a store
/// keeps alike (`1e2`, a lowercase UUID) verify.
@Suite(
    "tasks: values within their model type",
    .enabled(
        if: SharedFixtures.exists("real-stores/SampleModel2_V1__alemar11_CoreDataPlus.sqlite"),
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct ValueRangeCommandTests {
    /// Exports a copy of SampleModel2 (Writer.age Integer 16, Page.number Integer 32, Page.isBookmarked Boolean,
    /// Book.price Decimal, Book.uniqueID UUID) and returns the store and the archive as JSON.
    func exported(_ scratch: Scratch) throws -> (store: String, archive: [String: Any]) {
        let store = try SharedFixtures.copy(
            "real-stores/SampleModel2_V1__alemar11_CoreDataPlus.sqlite", into: scratch, as: "books.sqlite")
        let export = try TasksBinary.run(["export", store, "-o", scratch.path("books.json")])
        #expect(export.status == 0, "\(export.stderr)")
        let object = try JSONSerialization.jsonObject(with: try scratch.bytes("books.json"))
        return (store, try #require(object as? [String: Any]))
    }

    /// Sets `entities[entity][index].values[property]` to `value`.
    func set(_ archive: inout [String: Any], _ entity: String, _ index: Int, _ property: String, _ value: Any) {
        var entities = archive["entities"] as! [String: [[String: Any]]]
        var values = entities[entity]![index]["values"] as! [String: Any]
        values[property] = value
        entities[entity]![index]["values"] = values
        archive["entities"] = entities
    }

    @Test("out-of-range integers, a boolean 2 and a decimal with too many digits: validate and import exit 65")
    func refused() throws {
        let scratch = try Scratch()
        var (store, archive) = try exported(scratch)
        set(&archive, "Author", 0, "age", 40000)
        set(&archive, "Page", 0, "number", 2_147_483_648)
        set(&archive, "Page", 1, "isBookmarked", 2)
        set(&archive, "Book", 0, "price", "3.14159265358979323846")
        try JSONSerialization.data(withJSONObject: archive).write(to: scratch.url.appendingPathComponent("bad.json"))

        let validate = try TasksBinary.run(["validate", "--json", scratch.path("bad.json")])
        #expect(validate.status == 65)
        let report = try #require(
            try JSONSerialization.jsonObject(with: validate.stdoutData) as? [String: Any])
        let issues = try #require(report["issues"] as? [[String: Any]])
        #expect(
            issues.map { "\($0["code"]!) \($0["path"]!)" }.sorted() == [
                "value-out-of-range $.entities.Author[0].values.age",
                "value-out-of-range $.entities.Book[0].values.price",
                "value-out-of-range $.entities.Page[0].values.number",
                "value-out-of-range $.entities.Page[1].values.isBookmarked",
            ])

        let target = scratch.path("new.sqlite")
        let newStore = try TasksBinary.run([
            "import", "--store", target, "--model-from", store, scratch.path("bad.json"),
        ])
        #expect(newStore.status == 65)
        // The first of the four in full, the others by path (JSONSerialization orders the sections as it likes).
        #expect(newStore.stderr.contains("[4 value-out-of-range errors; also "))
        #expect(newStore.stderr.contains("$.entities.Author[0].values.age"))
        #expect(newStore.stderr.contains("the archive is invalid (4 errors); nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("decimals are written exactly; 1e2 and a lowercase UUID are stored as the values they spell and verify")
    func exact() throws {
        let scratch = try Scratch()
        var (store, archive) = try exported(scratch)
        set(&archive, "Book", 0, "price", "12345678901234567")
        set(&archive, "Book", 1, "price", "0.30000000000000004")
        set(&archive, "Book", 2, "price", "1e2")
        let books = (archive["entities"] as! [String: [[String: Any]]])["Book"]!
        let uuid = (books[3]["values"] as! [String: Any])["uniqueID"] as! String
        set(&archive, "Book", 3, "uniqueID", uuid.lowercased())
        try JSONSerialization.data(withJSONObject: archive).write(to: scratch.url.appendingPathComponent("edit.json"))

        let target = scratch.path("new.sqlite")
        let run = try TasksBinary.run([
            "import", "--store", target, "--model-from", store, "--verify", scratch.path("edit.json"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("$.entities.Book[3].values.uniqueID: invalid-uuid: "))
        #expect(run.stderr.contains("verified: "))
        let export = try TasksBinary.run(["export", target])
        #expect(export.stdout.contains(#""price":"12345678901234567""#))
        #expect(export.stdout.contains(#""price":"0.30000000000000004""#))
        #expect(export.stdout.contains(#""price":"100""#))
        #expect(export.stdout.contains(#""uniqueID":"\#(uuid)""#))
    }
}
