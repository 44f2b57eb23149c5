import Foundation
import TaskInterchange
import Testing

/// Backups of a store whose photos are kept in external files carry those files: an upsert that replaces photos
/// removes the store's old files, and the backup it made still exports the archive the store gave before; a
/// migration's backup exports with `--strict`.
@Suite("tasks: backups carry external files", .serialized)
struct BackupExternalDataTests {
    static let photos = 21

    /// A photo store (every photo in an external file) made by `model new-store`, with the model folder.
    static func photoStore(in scratch: Scratch) throws -> (model: String, store: String) {
        let (model, store) = try ExternalStorageCommandTests.modelAndStore(in: scratch)
        let database = try Database(path: store, mode: .readWrite)
        let directory = ExternalData(store: store).directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let insert = try database.prepare(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZCAPTION, ZDATA) VALUES (?, 1, 1, ?, ?)")
        for key in 1...photos {
            let name = UUID().uuidString
            try Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* key) }).write(
                to: URL(fileURLWithPath: directory + "/" + name))
            try insert.execute([.integer(Int64(key)), .text("photo \(key)"), .blob(ExternalData.reference(name))])
        }
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(photos)")
        return (model, store)
    }

    /// `.<Name>_SUPPORT` beside `store`.
    static func support(_ store: String) -> String {
        (ExternalData(store: store).directory as NSString).deletingLastPathComponent
    }

    /// The entities of `store`'s export with `model` (strict: every photo's file must be there).
    static func entities(of store: String, model: String, in scratch: Scratch, _ name: String) throws -> [EntityRecord]
    {
        let output = scratch.path(name)
        let run = try TasksBinary.run(["export", store, "--model", model, "--strict", "-o", output])
        #expect(run.status == 0, "\(name): \(run.stderr)")
        return try Archive(json: Data(contentsOf: URL(fileURLWithPath: output))).entities
    }

    @Test("import --mode upsert --backup replacing 10 of 21 photos: the backup exports what the store did before")
    func upsertBackup() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.photoStore(in: scratch)
        let before = try Self.entities(of: store, model: model, in: scratch, "before.json")
        #expect(before.count == Self.photos)
        let oldFiles = Set(try FileManager.default.contentsOfDirectory(atPath: ExternalData(store: store).directory))

        // The same store with 10 photos replaced (new files, the rows pointing at them): its archive has the same ids.
        let changed = scratch.path("changed/Photos.sqlite")
        try FileManager.default.createDirectory(atPath: scratch.path("changed"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: store, toPath: changed)
        try FileManager.default.copyItem(
            atPath: Self.support(store),
            toPath: Self.support(changed))
        let database = try Database(path: changed, mode: .readWrite)
        let update = try database.prepare("UPDATE ZPHOTO SET ZDATA = ? WHERE Z_PK = ?")
        for key in 1...10 {
            let name = UUID().uuidString
            try Data(repeating: UInt8(key), count: 7_000).write(
                to: URL(fileURLWithPath: ExternalData(store: changed).directory + "/" + name))
            try update.execute([.blob(ExternalData.reference(name)), .integer(Int64(key))])
        }
        let archive = scratch.path("changed.json")
        let exported = try TasksBinary.run(["export", changed, "--model", model, "--strict", "-o", archive])
        #expect(exported.status == 0, "\(exported.stderr)")

        let backup = scratch.path("Backup.sqlite")
        let run = try TasksBinary.run([
            "import", "--store", store, "--model", model, "--mode", "upsert", "--backup", backup, archive,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // The upsert removed the 10 files it replaced from the store's directory …
        let nowFiles = Set(try FileManager.default.contentsOfDirectory(atPath: ExternalData(store: store).directory))
        #expect(oldFiles.subtracting(nowFiles).count == 10)
        // … and the backup keeps every one of them.
        let backupFiles = Set(
            try FileManager.default.contentsOfDirectory(atPath: ExternalData(store: backup).directory))
        #expect(backupFiles == oldFiles)
        #expect(try Self.entities(of: backup, model: model, in: scratch, "backup.json") == before)

        // A restore of the backup into a new store exports the same records again.
        let restored = scratch.path("Restored.sqlite")
        let restore = try TasksBinary.run([
            "import", "--store", restored, "--model-from", model, "--keep-identity", scratch.path("backup.json"),
        ])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try Self.entities(of: restored, model: model, in: scratch, "restored.json") == before)

        // A backup name whose support directory is taken is refused before anything is written.
        let taken = scratch.path("Taken.sqlite")
        try FileManager.default.createDirectory(
            atPath: Self.support(taken), withIntermediateDirectories: true)
        let refused = try TasksBinary.run([
            "import", "--store", store, "--model", model, "--mode", "upsert", "--backup", taken, archive,
        ])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("_SUPPORT: already exists"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: taken))
    }

    @Test("migrate --backup: the backup carries the photos' files and exports with --strict")
    func migrateBackup() throws {
        let scratch = try Scratch()
        let (model, store) = try Self.photoStore(in: scratch)
        let before = try Self.entities(of: store, model: model, in: scratch, "before.json")
        let backups = scratch.path("backups")
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("New.sqlite"), "--model", model, "--backup", backups,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: backups)
        let backup = try #require(names.first { $0.hasSuffix(".sqlite") })
        #expect(names.contains { $0.hasPrefix(".") && $0.hasSuffix("_SUPPORT") })
        #expect(try Self.entities(of: backups + "/" + backup, model: model, in: scratch, "backup.json") == before)
        #expect(try Self.entities(of: scratch.path("New.sqlite"), model: model, in: scratch, "new.json").count == 21)
    }
}
