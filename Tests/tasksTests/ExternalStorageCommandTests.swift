import Foundation
import TaskInterchange
import TestTiers
import Testing

/// Externally stored values through the command line: an import into a new store with the app's model writes them
/// back as files beside the store, and a SIGKILL at a random point leaves either no store or the complete store with
/// all its files — never a file of an import that did not finish, once the next run has swept its temporary names.
@Suite("tasks: external binary storage", .serialized, .tags(.slow))
struct ExternalStorageCommandTests {
    static let kills = Tiers.count(3, slow: 10)
    static let records = 60
    /// A one-entity app model whose photo data allows external storage.
    static let model =
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Photo" representedClassName="Photo" syncable="YES">
                <attribute name="caption" optional="YES" attributeType="String"/>
                <attribute name="data" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            </entity>
        </model>
        """

    /// The model folder in `scratch`, and an empty store `tasks model new-store` made from it.
    static func modelAndStore(in scratch: Scratch) throws -> (model: String, store: String) {
        let model = scratch.path("Photos.xcdatamodel")
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        try Self.model.write(toFile: model + "/contents", atomically: true, encoding: .utf8)
        let store = scratch.path("Photos.sqlite")
        let made = try TasksBinary.run(["model", "new-store", model, "-o", store])
        guard made.status == 0 else { throw TaskInterchangeError(.internal, "new-store failed: \(made.stderr)") }
        return (model, store)
    }

    /// The model folder, a source store whose every photo is in an external file, and its archive.
    static func fixture(in scratch: Scratch) throws -> (model: String, archive: String, files: [String: Data]) {
        let (model, source) = try modelAndStore(in: scratch)
        let template = try StoreTemplate(modelFrom: model)
        let database = try Database(path: source, mode: .readWrite)
        let directory = ExternalData(store: source).directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var files: [String: Data] = [:]
        let insert = try database.prepare(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION, ZDATA) VALUES (?, 1, 1, ?, ?)")
        for key in 1...records {
            let name = UUID().uuidString
            let bytes = Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &+ key) })
            try bytes.write(to: URL(fileURLWithPath: directory + "/" + name))
            files[name] = bytes
            try insert.execute([.integer(Int64(key)), .text("photo \(key)"), .blob(ExternalData.reference(name))])
        }
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(records)")
        var options = ExportOptions()
        options.model = template.model
        options.mapping = StoreMapping(kinds: [:])
        let archive = scratch.path("photos.json")
        let summary = try Exporter.export(store: source, toFile: archive, options: options)
        #expect(summary.findings.filter(\.isWarning).isEmpty)
        return (model, archive, files)
    }

    /// Every photo's file beside `store` holds the source's bytes.
    static func filesComplete(_ store: String, _ files: [String: Data]) -> Bool {
        let directory = ExternalData(store: store).directory
        return files.allSatisfy { FileManager.default.contents(atPath: directory + "/" + $0.key) == $0.value }
    }

    @Test("import --model-from the app's model writes the files; SIGKILL leaves no store or the whole one")
    func killImport() throws {
        let scratch = try Scratch()
        let (model, archive, files) = try Self.fixture(in: scratch)
        for folder in ["whole", "timed", "kill"] {
            try FileManager.default.createDirectory(atPath: scratch.path(folder), withIntermediateDirectories: true)
        }
        let whole = try TasksBinary.run([
            "import", "--store", scratch.path("whole/Photos.sqlite"), "--model-from", model, "--keep-identity", archive,
        ])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(Self.filesComplete(scratch.path("whole/Photos.sqlite"), files))

        var window = 0.0
        let started = Date()
        _ = try TasksBinary.run([
            "import", "--store", scratch.path("timed/Photos.sqlite"), "--model-from", model, archive,
        ])
        window = Date().timeIntervalSince(started) * 1.1
        var killed = 0
        for round in 0..<Self.kills * 3 where killed < Self.kills {
            let store = scratch.path("kill/Photos.sqlite")
            let process = Process()
            process.executableURL = TasksBinary.url
            process.arguments = ["import", "--store", store, "--model-from", model, "--keep-identity", archive]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(Double.random(in: 0..<window) * 1_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
            }
            process.waitUntilExit()
            let directory = ExternalData(store: store).directory
            let visible = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
                !$0.hasPrefix(".")
            }
            if FileManager.default.fileExists(atPath: store) {
                #expect(Self.filesComplete(store, files), "round \(round): a store without all its files")
            } else {
                // Files are placed just before the store: only whole files of this archive, never a partial one.
                #expect(visible.allSatisfy { files[$0] == FileManager.default.contents(atPath: directory + "/" + $0) })
            }
            // The next run sweeps what the killed one left under temporary names.
            try? FileManager.default.removeItem(atPath: store)
            let again = try TasksBinary.run([
                "import", "--store", store, "--model-from", model, "--keep-identity", archive,
            ])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(Self.filesComplete(store, files))
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
                $0.contains(".tasks-")
            }
            #expect(left == [], "round \(round): temporary files left")
            try FileManager.default.removeItem(atPath: scratch.path("kill"))
            try FileManager.default.createDirectory(atPath: scratch.path("kill"), withIntermediateDirectories: true)
        }
        #expect(killed > 0)
    }

    @Test("export of a large external file: its bytes exactly (slow tier: 50 MB, peak memory below 2.5 × the file)")
    func largeFile() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.modelAndStore(in: scratch)
        let size = Tiers.slow ? 50 << 20 : 4 << 20
        var block = [UInt8](repeating: 0, count: 4096)
        var random = SystemRandomNumberGenerator()
        for index in block.indices { block[index] = UInt8.random(in: 0...255, using: &random) }
        var bytes = Data(capacity: size)
        while bytes.count < size { bytes.append(contentsOf: block.prefix(size - bytes.count)) }
        let name = UUID().uuidString
        let directory = ExternalData(store: store).directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try bytes.write(to: URL(fileURLWithPath: directory + "/" + name))
        let database = try Database(path: store, mode: .readWrite)
        try database.prepare("INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION, ZDATA) VALUES (1, 1, 1, 'big', ?)")
            .execute([.blob(ExternalData.reference(name))])
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 1")
        let output = scratch.path("big.json")
        let run = try GuardedRun.run(
            ["export", store, "--model", model, "-o", output], timeout: 300, measureMemory: Tiers.slow)
        #expect(run.status == 0, "\(run.stderr)")
        let archive = try Archive(json: Data(contentsOf: URL(fileURLWithPath: output)))
        guard case .string(let text)? = archive.entities.first?.values["data"] else {
            Issue.record("no photo in the archive")
            return
        }
        let same = Data(base64Encoded: text) == bytes
        #expect(same, "the exported value is the file's bytes")
        #expect(archive.entities.first?.external == ["data": name])
        // 236 MB before the file was read and written in pieces (4.1 × 50 MB above the empty export's ~29 MB), 109 MB
        // after (debug build).
        if let peak = run.peakRSS {
            #expect(peak < 40 << 20 + size * 5 / 2, "peak RSS \(peak >> 20) MB for a \(size >> 20) MB file")
        }
    }
}
