import Foundation
import TaskInterchange
import Testing

/// A migration that fails before it writes leaves nothing behind: no backup, no new store, no staged files; and it
/// never says a store it did not create is as it was.
@Suite("tasks migrate: nothing left behind by a failure")
struct MigrateLeavesNothingTests {
    /// Every entry of `directory`, hidden ones included.
    static func entries(_ directory: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    }

    @Test("a typo in the mapping's modelChange is refused (64) before the backup directory is even made")
    func modelChangeTypo() throws {
        let scratch = try Scratch()
        let (model, store) = try ModelChangeCommandTests.modelAndStore(in: scratch)
        let mapping = scratch.path("mapping.json")
        try #"{"mappingVersion": 1, "kinds": {}, "modelChange": {"fill": {"E0.aded": 5}}}"#.write(
            toFile: mapping, atomically: true, encoding: .utf8)
        let before = Self.entries(scratch.url.path)
        let backups = scratch.path("backups")
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("New.sqlite"), "--backup", backups, "--model", model,
            "--mapping", mapping,
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("\(mapping): $.modelChange.fill[\"E0.aded\"]"), "\(run.stderr)")
        #expect(run.stderr.contains("did you mean 'E0.added'?"), "\(run.stderr)")
        #expect(run.stderr.contains("New.sqlite was not created; no backup was made"), "\(run.stderr)")
        #expect(!run.stderr.contains("as it was") && !run.stderr.contains("unchanged"), "\(run.stderr)")
        #expect(Self.entries(scratch.url.path) == before, "\(Self.entries(scratch.url.path).subtracting(before))")
    }

    @Test("a failure at validating (the mapping names no entity of the store): the backup it made is removed, 65")
    func failedValidation() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let mapping = scratch.path("mapping.json")
        try #"{"mappingVersion": 1, "kinds": {"task": {"entity": "NoSuchEntity", "fields": {}}}}"#.write(
            toFile: mapping, atomically: true, encoding: .utf8)
        let backups = scratch.path("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
        let before = Self.entries(scratch.url.path)
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("new.sqlite"), "--backup", backups, "--mapping", mapping,
        ])
        #expect(run.status != 0 && run.status != 70, "\(run.stderr)")
        #expect(run.stderr.contains("migrate: validating\nmigrate: failed\n"), "\(run.stderr)")
        #expect(
            run.stderr.contains("new.sqlite was not created; the backup made was removed, as nothing was written"),
            "\(run.stderr)")
        #expect(Self.entries(backups).isEmpty, "\(Self.entries(backups))")
        #expect(Self.entries(scratch.url.path) == before)
    }

    @Test("the new store's directory is missing or the target exists: no backup; an existing target is unchanged")
    func badTarget() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let backups = scratch.path("backups")
        let missing = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("nowhere/new.sqlite"), "--backup", backups,
        ])
        #expect(missing.status == 73, "\(missing.stderr)")
        #expect(missing.stderr.contains("no backup was made"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: backups))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: scratch.path("taken.sqlite")))
        let taken = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("taken.sqlite"), "--backup", backups,
        ])
        #expect(taken.status == 73, "\(taken.stderr)")
        #expect(taken.stderr.contains("taken.sqlite is unchanged; no backup was made"), "\(taken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: backups))
    }

    @Test("two migrate --backup runs of a store with external files into one directory at once: both keep their files")
    func twoBackupsAtOnce() throws {
        let scratch = try Scratch()
        let (model, store) = try BackupExternalDataTests.photoStore(in: scratch)
        let backups = scratch.path("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
        let runs = LiveStoreTests.Results(count: 2)
        let commands = (0..<2).map {
            [
                "migrate", "--from", store, "--to", scratch.path("New\($0).sqlite"), "--model", model, "--backup",
                backups,
            ]
        }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            runs.set(index, try? TasksBinary.run(commands[index]))
        }
        for (index, run) in runs.all.enumerated() { #expect(run.status == 0, "\(index): \(run.stderr)") }
        let names = Self.entries(backups).filter { $0.hasSuffix(".sqlite") }
        #expect(names.count == 2, "\(names)")
        let files = try FileManager.default.contentsOfDirectory(atPath: ExternalData(store: store).directory)
        for name in names {
            let carried = try FileManager.default.contentsOfDirectory(
                atPath: ExternalData(store: backups + "/" + name).directory)
            #expect(Set(carried) == Set(files), "\(name)")
        }
    }
}
