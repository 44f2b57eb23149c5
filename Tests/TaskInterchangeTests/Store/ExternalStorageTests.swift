import Foundation
import Testing

@testable import TaskInterchange

/// Attributes that allow external storage, written the way Core Data writes them: a small value in the row behind
/// the `0x01` marker, a large one in `.<Store>_SUPPORT/_EXTERNAL_DATA/<UUID>` with `0x02`, the name and a NUL in the
/// row. The export carries the values themselves (no marker) and which file held each; a restore puts both back.
@Suite("External binary storage")
struct ExternalStorageTests {
    static let model: ObjectModel = {
        var data = ObjectModel.Attribute("data", .binaryData, optional: true)
        data.allowsExternalStorage = true
        return ObjectModel(entities: [
            ObjectModel.Entity("Photo", attributes: [ObjectModel.Attribute("caption", .string, optional: true), data])
        ])
    }()

    static let small: [UInt8] = Array("a thumbnail".utf8)
    static let large: [UInt8] = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    static let fileName = "6F9619FF-8B86-D011-B42D-00C04FC964FF"

    /// A store with one inline value (p1), one in a file (p2) and one NULL (p3).
    static func makeStore(in directory: TemporaryDirectory, name: String = "Photos.sqlite") throws -> String {
        let path = directory.path(name)
        try StoreTemplate(model: model).makeEmptyStore(at: path)
        let database = try Database(path: path, mode: .readWrite)
        let insert = try database.prepare(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION, ZDATA) VALUES (?, 1, 1, ?, ?)")
        try insert.execute([.integer(1), .text("small"), .blob(ExternalData.inline(small))])
        try insert.execute([.integer(2), .text("large"), .blob(ExternalData.reference(fileName))])
        try insert.execute([.integer(3), .text("none"), .null])
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 3")
        let files = ExternalData(store: path).directory
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        try Data(large).write(to: URL(fileURLWithPath: files + "/" + fileName))
        return path
    }

    static func export(_ path: String, to output: String, strict: Bool = false) throws -> ExportSummary {
        var options = ExportOptions()
        options.model = model
        options.mapping = StoreMapping(kinds: [:])
        options.strict = strict
        return try Exporter.export(store: path, toFile: output, options: options)
    }

    @Test("export carries the values without markers and names the file; a restore is identical, file included")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        let summary = try Self.export(path, to: directory.path("a.json"))
        #expect(summary.findings.filter(\.isWarning).isEmpty, "\(summary.findings)")
        let archive = try Archive(json: Data(contentsOf: URL(fileURLWithPath: directory.path("a.json"))))
        let records = Dictionary(uniqueKeysWithValues: archive.entities.map { ($0.key ?? 0, $0) })
        #expect(records[1]?.values["data"] == .string(Data(Self.small).base64EncodedString()))
        #expect(records[1]?.external == [:])
        #expect(records[2]?.values["data"] == .string(Data(Self.large).base64EncodedString()))
        #expect(records[2]?.external == ["data": Self.fileName])
        #expect(records[3]?.values["data"] == nil)

        var options = StoreImportOptions()
        options.template = StoreTemplate(model: Self.model)
        options.keepIdentity = true
        let restored = directory.path("restored/Copy.sqlite")
        try FileManager.default.createDirectory(atPath: directory.path("restored"), withIntermediateDirectories: true)
        _ = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: restored, options: options)
        let rows = "SELECT Z_PK, ZCAPTION, quote(ZDATA) FROM ZPHOTO ORDER BY Z_PK"
        #expect(
            try Database(path: restored, mode: .readOnly(immutable: false)).rows(rows)
                == Database(path: path, mode: .readOnly(immutable: false)).rows(rows))
        let file = ExternalData(store: restored).directory + "/" + Self.fileName
        #expect(FileManager.default.contents(atPath: file) == Data(Self.large))
        // Nothing but the file itself in the directory (no temporary names left).
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: ExternalData(store: restored).directory) == [
                Self.fileName
            ])
        // The restore exports the same archive.
        _ = try Self.export(restored, to: directory.path("b.json"))
        #expect(
            try Archive(json: Data(contentsOf: URL(fileURLWithPath: directory.path("b.json")))).entities
                == archive.entities)
    }

    @Test("a missing external file is a warning naming the record, and --strict refuses the export")
    func missingFile() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        try FileManager.default.removeItem(atPath: ExternalData(store: path).directory + "/" + Self.fileName)
        let summary = try Self.export(path, to: directory.path("a.json"))
        let missing = summary.findings.filter { $0.code == .missingExternalData }
        #expect(missing.count == 1 && missing.first?.examples == ["p2"] && missing.first?.property == "data")
        #expect(missing.first?.isWarning == true)
        #expect(throws: ExportStrictError.self) { try Self.export(path, to: directory.path("b.json"), strict: true) }
        #expect(!FileManager.default.fileExists(atPath: directory.path("b.json")))
        // The name still travels, so a restore points at the same missing file as the source does.
        let archive = try Archive(json: Data(contentsOf: URL(fileURLWithPath: directory.path("a.json"))))
        let record = try #require(archive.entities.first { $0.key == 2 })
        #expect(record.values["data"] == nil && record.external == ["data": Self.fileName])
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: Self.model)
        options.keepIdentity = true
        _ = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: directory.path("restored.sqlite"), options: options)
        let rows = "SELECT Z_PK, quote(ZDATA) FROM ZPHOTO ORDER BY Z_PK"
        #expect(
            try Database(path: directory.path("restored.sqlite"), mode: .readOnly(immutable: false)).rows(rows)
                == Database(path: path, mode: .readOnly(immutable: false)).rows(rows))
    }

    @Test("a failed import leaves no external file and no directory behind")
    func failedImport() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        _ = try Self.export(path, to: directory.path("a.json"))
        // A last record repeating the first one's id is refused after the file of the second was staged.
        var archive = try Archive(json: Data(contentsOf: URL(fileURLWithPath: directory.path("a.json"))))
        var repeated = archive.entities[0]
        repeated.key = 4
        archive.entities.append(repeated)
        try archive.jsonData().write(to: URL(fileURLWithPath: directory.path("bad.json")))
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: Self.model)
        options.keepIdentity = true
        try FileManager.default.createDirectory(atPath: directory.path("out"), withIntermediateDirectories: true)
        #expect(throws: (any Error).self) {
            _ = try StoreImport.run(
                try ArchiveInput(path: directory.path("bad.json")), into: directory.path("out/New.sqlite"),
                options: options)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("out")) == [])
    }

    @Test("a FIFO or a link under the file's name is not read (a FIFO would block the export forever)")
    func notRegularFiles() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        let file = ExternalData(store: path).directory + "/" + Self.fileName
        try FileManager.default.removeItem(atPath: file)
        #expect(mkfifo(file, 0o644) == 0)
        #expect(ExternalData(store: path).read(Self.fileName) == nil)
        let summary = try Self.export(path, to: directory.path("a.json"))
        #expect(summary.findings.contains { $0.code == .missingExternalData })
        try FileManager.default.removeItem(atPath: file)
        try Data(Self.large).write(to: URL(fileURLWithPath: directory.path("elsewhere")))
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: directory.path("elsewhere"))
        #expect(ExternalData(store: path).read(Self.fileName) == nil)
    }

    @Test(
        "into an existing store without a model cache, given the app's model: markers and files as Core Data has them")
    func existingStoreWithModel() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        _ = try Self.export(path, to: directory.path("a.json"))
        try FileManager.default.createDirectory(atPath: directory.path("t"), withIntermediateDirectories: true)
        let target = directory.path("t/Target.sqlite")
        try StoreTemplate(model: Self.model).makeEmptyStore(at: target)
        var options = StoreImportOptions()
        options.targetModel = Self.model
        _ = try StoreImport.run(try ArchiveInput(path: directory.path("a.json")), into: target, options: options)
        let stored = try Database(path: target, mode: .readOnly(immutable: false)).rows(
            "SELECT ZCAPTION, ZDATA FROM ZPHOTO ORDER BY ZCAPTION")
        let byCaption = Dictionary(uniqueKeysWithValues: stored.map { ($0[0].string ?? "", $0[1]) })
        #expect(byCaption["small"] == .blob(ExternalData.inline(Self.small)))
        #expect(byCaption["large"] == .blob(ExternalData.reference(Self.fileName)))
        #expect(
            FileManager.default.contents(atPath: ExternalData(store: target).directory + "/" + Self.fileName)
                == Data(Self.large))
    }

    @Test("a reference to a missing file, into a target that keeps the attribute inline: a warning, strict fails")
    func referenceWithoutPlace() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        try FileManager.default.removeItem(atPath: ExternalData(store: path).directory + "/" + Self.fileName)
        _ = try Self.export(path, to: directory.path("a.json"))
        var inline = ObjectModel.Attribute("data", .binaryData, optional: true)
        inline.allowsExternalStorage = false
        let plain = ObjectModel(entities: [
            ObjectModel.Entity(
                "Photo", attributes: [ObjectModel.Attribute("caption", .string, optional: true), inline])
        ])
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: plain)
        let result = try StoreImport.run(
            try ArchiveInput(path: directory.path("a.json")), into: directory.path("plain.sqlite"), options: options)
        #expect(result.plan.lacking.isEmpty, "the target has the property: \(result.plan.lacking)")
        #expect(
            result.warnings.contains {
                $0.hasPrefix("Photo.data: 1 value the source kept in external files it lacked")
            }, "\(result.warnings)")
        options.strict = true
        #expect(throws: (any Error).self) {
            _ = try StoreImport.run(
                try ArchiveInput(path: directory.path("a.json")), into: directory.path("strict.sqlite"),
                options: options)
        }
    }

    /// The files in the store's external data directory, and the names its rows point at.
    static func files(of store: String) throws -> (files: [String], referenced: [String]) {
        let files = try FileManager.default.contentsOfDirectory(atPath: ExternalData(store: store).directory).sorted()
        let referenced = try Database(path: store, mode: .readOnly(immutable: false)).rows(
            "SELECT ZDATA FROM ZPHOTO WHERE ZDATA IS NOT NULL"
        ).compactMap { row -> String? in
            guard case .blob(let bytes) = row[0], case .file(let name) = ExternalData.decode(bytes) else { return nil }
            return name
        }
        return (files, referenced.sorted())
    }

    /// The store's archive with p2's photo replaced by `photo` (the same file name travels with it, as it would
    /// after editing an export).
    static func archive(of path: String, in directory: TemporaryDirectory, photo: [UInt8]) throws -> Archive {
        _ = try export(path, to: directory.path("a.json"))
        var archive = try Archive(json: Data(contentsOf: URL(fileURLWithPath: directory.path("a.json"))))
        let index = try #require(archive.entities.firstIndex { $0.key == 2 })
        archive.entities[index].values["data"] = .string(Data(photo).base64EncodedString())
        return archive
    }

    static func upsert(_ archive: Archive, into path: String, in directory: TemporaryDirectory, strict: Bool = false)
        throws -> StoreImportResult
    {
        try archive.jsonData().write(to: URL(fileURLWithPath: directory.path("changed.json")))
        var options = StoreImportOptions()
        options.mode = .upsert
        options.targetModel = model
        options.strict = strict
        return try StoreImport.run(try ArchiveInput(path: directory.path("changed.json")), into: path, options: options)
    }

    @Test("upserting a new photo: the old file goes only once the import has committed; a failed one keeps it")
    func replacedFile() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        let photo = Array(Self.large.reversed())
        var archive = try Self.archive(of: path, in: directory, photo: photo)
        // A value the target has no property for, on a later record: --strict refuses the import after p2's new
        // file was staged.
        archive.header.source?.model["Photo"]?.attributes["note"] = "string"
        let last = try #require(archive.entities.firstIndex { $0.key == 3 })
        archive.entities[last].values["note"] = .string("not in the target")
        let rows = "SELECT Z_PK, Z_OPT, quote(ZDATA) FROM ZPHOTO ORDER BY Z_PK"
        let before = try Database(path: path, mode: .readOnly(immutable: false)).rows(rows)
        #expect(throws: (any Error).self) { try Self.upsert(archive, into: path, in: directory, strict: true) }
        #expect(try Database(path: path, mode: .readOnly(immutable: false)).rows(rows) == before)
        #expect(try Self.files(of: path) == ([Self.fileName], [Self.fileName]))
        let kept = ExternalData(store: path).read(Self.fileName) == Self.large
        #expect(kept, "the old file is as it was")

        let result = try Self.upsert(archive, into: path, in: directory)
        // p3 differs only by the value the target has no place for, which the model change drops: unchanged, as p1.
        #expect(result.plan.entities["Photo"]?.updated == 1, "\(result.plan)")
        #expect(result.plan.entities["Photo"]?.unchanged == 2, "\(result.plan)")
        #expect(result.plan.modelChange.droppedValues == ["Photo.note": 1])
        let (files, referenced) = try Self.files(of: path)
        #expect(files == referenced && files.count == 1 && files != [Self.fileName], "\(files) \(referenced)")
        let written = ExternalData(store: path).read(files.first ?? "") == photo
        #expect(written, "the new file holds the new photo")

        // A small photo kept inline instead: its file goes too. A file no row pointed at before the import (not this
        // import's to remove) stays.
        let stray = "0A0A0A0A-0000-4000-8000-000000000000"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: ExternalData(store: path).directory + "/" + stray))
        let index = try #require(archive.entities.firstIndex { $0.key == 2 })
        archive.entities[index].external = [:]
        archive.entities[index].values["data"] = .string(Data(Self.small).base64EncodedString())
        _ = try Self.upsert(archive, into: path, in: directory)
        #expect(try Self.files(of: path) == ([stray], []))
        #expect(
            try Database(path: path, mode: .readOnly(immutable: false)).rows("SELECT ZDATA FROM ZPHOTO WHERE Z_PK = 2")
                == [[.blob(ExternalData.inline(Self.small))]])
    }

    @Test("a dry run into an existing store reads the target's external files: an unchanged photo is unchanged")
    func dryRunSeesExternalFiles() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        let archive = try Self.archive(of: path, in: directory, photo: Self.large)
        try archive.jsonData().write(to: URL(fileURLWithPath: directory.path("same.json")))
        var options = StoreImportOptions()
        options.mode = .upsert
        options.targetModel = Self.model
        options.dryRun = true
        let dry = try StoreImport.run(try ArchiveInput(path: directory.path("same.json")), into: path, options: options)
        #expect(dry.plan.entities["Photo"]?.unchanged == 3, "\(dry.plan)")
        #expect(dry.plan.entities["Photo"]?.updated == 0)
        // The import itself agrees, and writes nothing.
        options.dryRun = false
        let real = try StoreImport.run(
            try ArchiveInput(path: directory.path("same.json")), into: path, options: options)
        #expect(real.plan.entities == dry.plan.entities)
        #expect(try Self.files(of: path) == ([Self.fileName], [Self.fileName]))
        // A changed photo is a change in both.
        let changed = try Self.archive(of: path, in: directory, photo: Array(Self.large.reversed()))
        try changed.jsonData().write(to: URL(fileURLWithPath: directory.path("changed.json")))
        options.dryRun = true
        let changedDry = try StoreImport.run(
            try ArchiveInput(path: directory.path("changed.json")), into: path, options: options)
        #expect(changedDry.plan.entities["Photo"]?.updated == 1 && changedDry.plan.entities["Photo"]?.unchanged == 2)
        #expect(try Self.files(of: path) == ([Self.fileName], [Self.fileName]))
    }

    @Test("a file of several megabytes (read and encoded in pieces, written through) exports byte for byte")
    func largeFile() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeStore(in: directory)
        // Two whole 3 MiB pieces and a remainder that is not a multiple of 3.
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<(6 << 20) + 7).map { _ in UInt8.random(in: 0...255, using: &random) }
        try Data(bytes).write(to: URL(fileURLWithPath: ExternalData(store: path).directory + "/" + Self.fileName))
        #expect(ExternalData(store: path).base64(of: Self.fileName) == Data(bytes).base64EncodedString())
        _ = try Self.export(path, to: directory.path("a.json"))
        let archive = try Archive(json: Data(contentsOf: URL(fileURLWithPath: directory.path("a.json"))))
        guard case .string(let text)? = archive.entities.first(where: { $0.key == 2 })?.values["data"] else {
            Issue.record("no value for p2")
            return
        }
        let same = Data(base64Encoded: text) == Data(bytes)
        #expect(same, "the exported value is the file's bytes")
        #expect(ExternalData(store: path).base64(of: "0A0A0A0A-0000-4000-8000-000000000000") == nil)
    }

    @Test("marker bytes: inline, a file name, and anything else kept as it is")
    func decode() {
        #expect(ExternalData.decode([0x01, 7, 8]) == .inline([7, 8]))
        #expect(ExternalData.decode(ExternalData.reference(Self.fileName)) == .file(Self.fileName))
        #expect(ExternalData.decode([0x02] + Array("../../etc/passwd".utf8) + [0]) != .file("../../etc/passwd"))
        #expect(ExternalData.decode([0x05, 1]) == .unmarked([0x05, 1]))
    }
}
