import Foundation
import Testing

/// What `tasks migrate` leaves on disk besides the new store: a backup no more readable than the legacy store, a
/// backup made when the quiet copy cannot be written, no backup directory after a failure, and no store made through
/// a symbolic link at `--to`.
@Suite("tasks migrate: the backup's files")
struct MigrateBackupFilesTests {
    static func mode(_ path: String) throws -> Int {
        try ((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1)
    }

    @Test("a store only its owner may read: the backup and the new store are its owner's only")
    func permissions() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store + suffix)
        }
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("new.sqlite"), "--backup", scratch.path("backups"),
        ])
        try #require(run.status == 0, "\(run.stderr)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: scratch.path("backups"))
            .filter { $0.hasSuffix(".sqlite") }
        try #require(backups.count == 1, "\(backups)")
        #expect(try Self.mode(scratch.path("backups/" + backups[0])) == 0o600)
        #expect(try Self.mode(scratch.path("new.sqlite")) == 0o600)
    }

    @Test("a -wal far larger than the store, and no room for a copy of it: the backup is made page by page")
    func largeWAL() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        // Commits that rewrite every task's notes, never checkpointed (the writer ends without closing).
        let writer = try TasksBinary.shell(
            """
            python3 -c 'import os, sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("PRAGMA wal_autocheckpoint = 0")
            for i in range(200):
                c.execute("UPDATE ZTASK SET ZNOTES = ?", ("%d" % i + "x" * 2000,))
            os._exit(0)' '\(store)'
            """)
        try #require(writer.status == 0, "\(writer.stderr)")
        let wal = try #require(FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int)
        try #require(wal > 10_000_000, "the -wal holds \(wal) bytes")
        // About 4 MB per file at most (dash counts 512-byte blocks; bash 1024): the page copy fits, the -wal does not.
        let run = try TasksBinary.shell(
            "trap '' XFSZ; ulimit -f 8000; \"$TASKS\" migrate --from '\(store)' --to '\(scratch.path("new.sqlite"))' "
                + "--backup '\(scratch.path("backups"))'")
        #expect(run.status == 0, "\(run.stderr)")
        let verify = try TasksBinary.run(["diff", store, scratch.path("new.sqlite")])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("a failure after the backup was made: the backup directory the migration made is gone with it")
    func backupDirectoryRemoved() throws {
        let scratch = try Scratch()
        let store = scratch.path("Journal-v1.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: store)
        let mapping = scratch.path("mapping.json")
        try #"{"mappingVersion": 1, "kinds": {"task": {"entity": "NoSuchEntity"}}}"#.write(
            toFile: mapping, atomically: true, encoding: .utf8)
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("new.sqlite"), "--backup", scratch.path("backups"),
            "--mapping", mapping,
        ])
        #expect(run.status != 0, "\(run.stderr)")
        #expect(run.stderr.contains("migrate: preparing backup"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("backups")), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
    }

    @Test("a symbolic link at --to, even one leading nowhere: exit 73 before any backup, nothing made through it")
    func linkAtTarget() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("new.sqlite"), withDestinationPath: scratch.path("elsewhere/target.sqlite"))
        let run = try TasksBinary.run([
            "migrate", "--from", store, "--to", scratch.path("new.sqlite"), "--backup", scratch.path("backups"),
        ])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("a symbolic link is there"), "\(run.stderr)")
        #expect(!run.stderr.contains("migrate: validating"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("backups")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("elsewhere")))
    }
}
