import Foundation
import TaskInterchange
import Testing

/// An import into a store that keeps no model cache (one `tasks model new-store` made, its cache removed as stores of
/// older frameworks have none) writes externally storable
/// values as Core Data reads them — behind the inline marker, or as a reference to a file beside the store — because
/// the archive's `source.model` says which attributes allow external storage; an archive that does not say so is
/// refused (65, naming `--model`) rather than written as raw blobs.
@Suite("tasks: external-storage values into a store without a model cache", .serialized)
struct ExternalMarkerImportTests {
    /// Makes an empty store of `model` at `target` that keeps no model cache.
    static func storeWithoutCache(_ model: String, at target: String) throws {
        let made = try TasksBinary.run(["model", "new-store", model, "-o", target])
        #expect(made.status == 0, "\(made.stderr)")
        try Database(path: target, mode: .readWrite).execute("DELETE FROM Z_MODELCACHE")
    }

    /// A photo store: p1 in a file, p2 inline behind 0x01, p3 pointing at a file that is missing; and its archive.
    static func archive(in scratch: Scratch) throws -> (model: String, archive: String, file: (String, Data)) {
        let (model, store) = try ExternalStorageCommandTests.modelAndStore(in: scratch)
        let database = try Database(path: store, mode: .readWrite)
        let directory = ExternalData(store: store).directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let bytes = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try bytes.write(to: URL(fileURLWithPath: directory + "/" + name))
        let insert = try database.prepare(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION, ZDATA) VALUES (?, 1, 1, ?, ?)")
        try insert.execute([.integer(1), .text("file"), .blob(ExternalData.reference(name))])
        try insert.execute([.integer(2), .text("inline"), .blob(ExternalData.inline([9, 8, 7]))])
        try insert.execute([.integer(3), .text("missing"), .blob(ExternalData.reference(UUID().uuidString))])
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 3")
        let archive = scratch.path("photos.json")
        let run = try TasksBinary.run(["export", store, "--model", model, "-o", archive])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("missing-external-data"), "\(run.stderr)")
        return (model, archive, (name, bytes))
    }

    /// `Z_PK → ZDATA` bytes of `store`.
    static func cells(_ store: String) throws -> [Int64: [UInt8]] {
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        let select = try database.prepare("SELECT Z_PK, ZDATA FROM ZPHOTO")
        var result: [Int64: [UInt8]] = [:]
        while try select.step() { result[select.int64(at: 0)] = select.blob(at: 1) ?? [] }
        return result
    }

    @Test("the archive's source.model names the attribute: markers and files as Core Data writes them")
    func markersFromTheArchive() throws {
        let scratch = try Scratch()
        let (model, archive, file) = try Self.archive(in: scratch)
        let text = try String(contentsOfFile: archive, encoding: .utf8)
        #expect(text.contains("\"externalStorage\":[\"data\"]"), "source.model names the attribute")

        try FileManager.default.createDirectory(atPath: scratch.path("target"), withIntermediateDirectories: true)
        let target = scratch.path("target/Photos.sqlite")
        try Self.storeWithoutCache(model, at: target)
        let run = try TasksBinary.run(["import", "--store", target, archive])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no such property"), "\(run.stderr)")

        let source = try Self.cells(scratch.path("Photos.sqlite"))
        let written = try Self.cells(target)
        #expect(written[1] == ExternalData.reference(file.0), "p1 points at its file")
        #expect(written[2] == ExternalData.inline([9, 8, 7]), "p2 behind the inline marker")
        #expect(written[3] == source[3], "p3 points at the same missing file, as the source did")
        let copied = FileManager.default.contents(atPath: ExternalData(store: target).directory + "/" + file.0)
        #expect(copied == file.1)
    }

    @Test("an archive that does not say which attributes are external: refused with 65 naming --model")
    func refusedWithoutDeclaration() throws {
        let scratch = try Scratch()
        let (model, archive, _) = try Self.archive(in: scratch)
        let old = scratch.path("old.json")
        let text = try String(contentsOfFile: archive, encoding: .utf8)
        try text.replacingOccurrences(of: ",\"externalStorage\":[\"data\"]", with: "")
            .write(toFile: old, atomically: true, encoding: .utf8)
        #expect(try String(contentsOfFile: old, encoding: .utf8) != text)

        try FileManager.default.createDirectory(atPath: scratch.path("target"), withIntermediateDirectories: true)
        let target = scratch.path("target/Photos.sqlite")
        try Self.storeWithoutCache(model, at: target)
        let before = try Self.cells(target)
        let refused = try TasksBinary.run(["import", "--store", target, old])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("--model"), "\(refused.stderr)")
        #expect(try Self.cells(target) == before, "nothing was written")

        // With the app's model the same archive imports, markers and all.
        let run = try TasksBinary.run(["import", "--store", target, "--model", model, old])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.cells(target)[2] == ExternalData.inline([9, 8, 7]))
    }
}
