import Foundation
import TaskInterchange
import Testing

/// "A second identical import writes nothing" and "stores are reproducible", with the Journal samples (stores without
/// a model cache, read with `--model samples/Journal.xcdatamodeld`).
@Suite("tasks import: a repeated import writes nothing; new stores are byte for byte reproducible")
struct RepeatableImportTests {
    static let model = TasksBinary.sample("Journal.xcdatamodeld")
    static let match = "Label.name,Notebook.title,Entry.body"

    /// The target of an upsert: a copy of `Journal-v2.sqlite` itself (the archive's ids), or a new store of the same
    /// version holding the same records under another store UUID (other ids: every record is paired by `--match`).
    enum Target: String, CaseIterable, CustomTestStringConvertible {
        case sampleCopy, otherIdentity
        var testDescription: String { rawValue }
    }

    /// A copy of `Journal-v2.sqlite` exported with its model into the scratch directory; returns the archive's path.
    static func exportSample(into scratch: Scratch) throws -> String {
        let source = scratch.path("Journal-v2.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v2.sqlite"), toPath: source)
        let archive = scratch.path("journal.json")
        let exported = try TasksBinary.run(["export", "--store", source, "--model", Self.model, "-o", archive])
        try #require(exported.status == 0, "\(exported.stderr)")
        return archive
    }

    /// A generic record's id derives from its store's UUID and key: a store imported without `--keep-identity` has a
    /// UUID of its own, so the same archive imported into it again cannot name what it holds — every record is added
    /// again, and the import says so per entity, naming `--match`. With `--keep-identity` the records are recognized.
    @Test("an archive imported again into a store made from it: warned per entity without kept identity, none with")
    func reimportIntoOtherIdentity() throws {
        let scratch = try Scratch()
        let archive = try Self.exportSample(into: scratch)
        for keepIdentity in [false, true] {
            let store = scratch.path("made-\(keepIdentity).sqlite")
            let made = try TasksBinary.run(
                ["import", "--store", store, "--model-from", Self.model, "--model-version", "Journal 2"]
                    + (keepIdentity ? ["--keep-identity"] : []) + [archive])
            try #require(made.status == 0, "\(made.stderr)")
            #expect(!made.stderr.contains("none recognized"), "\(made.stderr)")
            let again = try TasksBinary.run([
                "import", "--store", store, "--mode", "upsert", "--model", Self.model, archive,
            ])
            try #require(again.status == 0, "\(again.stderr)")
            for (entity, count) in [("Entry", 7), ("Label", 3), ("Notebook", 2)] {
                let warning =
                    "warning: \(entity): \(count) record\(count == 1 ? "" : "s") inserted beside the \(count) the store "
                    + "held, none recognized as one of them"
                #expect(again.stderr.contains(warning) == !keepIdentity, "\(keepIdentity): \(again.stderr)")
                #expect(
                    again.stderr.contains("--match \(entity).<attribute> pairs records by their content")
                        == !keepIdentity)
            }
            if keepIdentity { #expect(again.stderr.hasPrefix("Nothing written"), "\(again.stderr)") }
        }
    }

    /// The archive is the sample exported with its model (`isFavorite`, ordered `Notebook.entries` with positions,
    /// …); the comparison must read the target through that same model, as the import's writer does: read by column
    /// names it saw `isfavorite`, `notebook` and `Z_FOK_NOTEBOOK` and rewrote every entry and notebook each time.
    @Test(
        "upsert --match --model twice: the second run says Nothing written, every entity unchanged, same bytes",
        arguments: Target.allCases)
    func secondUpsertWritesNothing(target: Target) throws {
        let scratch = try Scratch()
        let archive = try Self.exportSample(into: scratch)
        let store = scratch.path("target.sqlite")
        switch target {
        case .sampleCopy:
            try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v2.sqlite"), toPath: store)
        case .otherIdentity:
            let made = try TasksBinary.run([
                "import", "--store", store, "--model-from", Self.model, "--model-version", "Journal 2",
                TasksBinary.sample("journal-v2.json"),
            ])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let upsert = [
            "import", "--store", store, "--mode", "upsert", "--match", Self.match, "--model", Self.model, archive,
        ]
        let first = try TasksBinary.run(upsert)
        try #require(first.status == 0, "\(first.stderr)")
        let before = try scratch.bytes("target.sqlite")
        let second = try TasksBinary.run(upsert)
        try #require(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.hasPrefix("Nothing written"), "\(second.stderr)")
        for (entity, count) in [("Entry", 7), ("Label", 3), ("Notebook", 2)] {
            let line = second.stderr.split(separator: "\n").first { $0.contains("\(entity) (generic):") }
            #expect(line?.contains("0 inserted, \(count) unchanged") == true, "\(second.stderr)")
            #expect(line?.contains("updated") == false, "\(second.stderr)")
        }
        #expect(try scratch.bytes("target.sqlite") == before)
        if target == .otherIdentity {
            #expect(second.stderr.contains("7 matched"), "\(second.stderr)")
        }
    }

    /// The metadata plist of a new store was written in a Swift dictionary's order, seeded per process: two runs of
    /// one import gave different `Z_PLIST` bytes. Separate processes, so separate seeds.
    @Test("two --keep-identity imports of one archive into new stores write the same Z_PLIST bytes")
    func metadataPlistIsReproducible() throws {
        let scratch = try Scratch()
        var plists: [String] = []
        for run in 0..<3 {
            let store = scratch.path("new-\(run).sqlite")
            let made = try TasksBinary.run([
                "import", "--store", store, "--model-from", Self.model, "--model-version", "Journal 2",
                "--keep-identity", TasksBinary.sample("journal-v2.json"),
            ])
            try #require(made.status == 0, "\(made.stderr)")
            let database = try Database(path: store, mode: .readOnly(immutable: false))
            let hex = try database.scalar("SELECT hex(Z_PLIST) FROM Z_METADATA")?.string
            plists.append(try #require(hex))
        }
        #expect(Set(plists).count == 1, "\(plists)")
        // Still a property list Foundation reads.
        let plist = try #require(Data(hexString: plists[0]))
        let metadata = try #require(
            try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
        #expect(metadata["NSStoreType"] as? String == "SQLite")
    }
}

extension Data {
    /// Bytes from pairs of hexadecimal digits (as SQLite's `hex()` writes them).
    fileprivate init?(hexString: String) {
        var bytes: [UInt8] = []
        var text = Substring(hexString)
        while !text.isEmpty {
            guard let byte = UInt8(text.prefix(2), radix: 16) else { return nil }
            bytes.append(byte)
            text = text.dropFirst(2)
        }
        self.init(bytes)
    }
}
