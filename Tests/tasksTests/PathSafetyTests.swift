import Foundation
import Testing
import TaskInterchange

/// Paths as users spell them: links to the store, outputs that name the store or the input, devices and FIFOs,
/// leftovers of killed runs, read-only targets.
@Suite("Paths and outputs", .serialized)
struct PathSafetyTests {
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> TasksBinary.Run {
        try TasksBinary.runProcess(TasksBinary.url, arguments, stdin: nil, in: nil, environment: environment)
    }

    @Test("a symlinked store path finds the -wal beside the real file: all 44 tasks, 4 of them only in the WAL")
    func symlinkedStore() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let elsewhere = scratch.url.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let link = elsewhere.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
        let run = try Self.run(["export", "--store", link])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("44 tasks"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["link.sqlite"])
    }

    @Test(
        "-o and --backup naming the store, a sidecar or the input (however spelled) are refused with 64 before anything is written"
    )
    func aliasedOutputs() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let archive = scratch.path("in.json")
        #expect(try Self.run(["export", "--store", store, "-o", archive]).status == 0)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.sqlite"), withDestinationPath: store)
        try FileManager.default.linkItem(atPath: store, toPath: scratch.path("hard.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.json"), withDestinationPath: archive)
        let before = try directorySnapshot(scratch.url)
        let dotted = scratch.url.path + "/./TaskManager.sqlite"
        let exports: [[String]] =
            [
                store, dotted, scratch.path("link.sqlite"), scratch.path("hard.sqlite"), store + "-wal",
                store + "-shm", store + "-journal",
            ].map {
                ["export", "--store", store, "-o", $0]
            } + [["export", "--store", scratch.path("link.sqlite"), "-o", store]]
        let imports: [[String]] =
            [store, dotted, store + "-wal", scratch.path("link.sqlite"), archive, scratch.path("link.json")].map {
                ["import", "--store", store, "--mode", "upsert", "--backup", $0, archive]
            } + [["import", "--store", archive, archive], ["import", "--store", scratch.path("link.json"), archive]]
        for arguments in exports + imports {
            let run = try Self.run(arguments)
            #expect(run.status == 64, "\(arguments.joined(separator: " ")): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains("Usage: tasks"), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(try directorySnapshot(scratch.url) == before, "\(arguments.joined(separator: " ")) wrote something")
        }
    }

    @Test("-o onto a FIFO or a character device writes into it; the node stays what it was")
    func specialOutputs() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let fifo = scratch.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo, scratch.path("received.json")]
        try reader.run()
        let run = try Self.run(["export", "--store", store, "-o", fifo])
        reader.waitUntilExit()
        #expect(run.status == 0, "\(run.stderr)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        let received = try Data(contentsOf: URL(fileURLWithPath: scratch.path("received.json")))
        let validate = try TasksBinary.run(["validate", "-"], stdin: received)
        #expect(validate.status == 0 && validate.stderr.contains("44 tasks"), "\(validate.stderr)")
        #expect(
            try !FileManager.default.contentsOfDirectory(atPath: scratch.url.path).contains { $0.contains(".tasks-") })

        // A null device of our own (never the system's /dev/null): the test makes the node in its directory.
        let device = scratch.path("null-device")
        // Major 1, minor 3 in Linux's encoding: the same device as /dev/null.
        guard mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 else {
            print(
                "special outputs: mknod is not permitted here (\(String(cString: strerror(errno)))); the character-device case is skipped"
            )
            return
        }
        for extra in [[], ["--strict"]] {
            let toDevice = try Self.run(["export", "--store", store, "-o", device] + extra)
            #expect(toDevice.status == 0, "\(toDevice.stderr)")
            #expect(lstat(device, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "the device node was replaced")
        }
    }

    @Test("a backup that fails (file size limit reached) leaves no file, and the import writes nothing")
    func failedBackup() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let archive = scratch.path("in.json")
        #expect(try Self.run(["export", "--store", store, "-o", archive]).status == 0)
        let before = try storeFiles(scratch.url)
        // 100 blocks of 512 bytes: more than the -shm, less than the store, so the backup's writes fail (EFBIG, SIGXFSZ
        // ignored) while the import's own files are unaffected.
        let run = try TasksBinary.runProcess(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "trap '' XFSZ; ulimit -f 100; exec \"$0\" \"$@\"", TasksBinary.url.path,
                "import", "--store", store, "--mode", "upsert", "--backup", scratch.path("backup.sqlite"), archive,
            ],
            stdin: nil, in: nil)
        #expect(run.status == 73, "\(run.status): \(run.stderr)")
        #expect(run.stderr.contains("backup.sqlite") && run.stderr.contains("cannot write the backup"), "\(run.stderr)")
        #expect(try storeFiles(scratch.url) == before, "a backup file or temporary file was left, or the store changed")
    }

    @Test("leftovers of killed runs are removed by the next run, never a file another running tasks holds")
    func leftoversSwept() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let temporary = scratch.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let output = scratch.path("out.json")
        // As a SIGKILL leaves them: a temporary output beside the target, a private snapshot directory.
        let deadOutput = scratch.path(".out.json.tasks-\(UUID().uuidString)")
        let deadDirectory = temporary.appendingPathComponent("tasks-snapshot-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: deadOutput, contents: Data("partial".utf8))
        try FileManager.default.createDirectory(at: deadDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: deadDirectory.appendingPathComponent("lock").path, contents: nil)
        // A dead run's lock is older than the few seconds a live owner may take to lock a new one.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)],
            ofItemAtPath: deadDirectory.appendingPathComponent("lock").path)
        _ = FileManager.default.createFile(
            atPath: deadDirectory.appendingPathComponent("store.sqlite").path, contents: Data(count: 4096))
        // As a running tasks holds them: the same names, locked by this process.
        let liveOutput = scratch.path(".out.json.tasks-\(UUID().uuidString)")
        let liveDirectory = temporary.appendingPathComponent("tasks-export-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: liveOutput, contents: nil)
        try FileManager.default.createDirectory(at: liveDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: liveDirectory.appendingPathComponent("lock").path, contents: nil)
        let held = [open(liveOutput, O_RDONLY), open(liveDirectory.appendingPathComponent("lock").path, O_RDONLY)]
        defer { held.forEach { close($0) } }
        #expect(held.allSatisfy { $0 >= 0 && flock($0, LOCK_EX | LOCK_NB) == 0 })
        // A fresh empty one whose owner may be between creating and locking it is left alone.
        let freshOutput = scratch.path(".out.json.tasks-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: freshOutput, contents: nil)
        // Someone else's directory with a similar name is never touched.
        let foreign = temporary.appendingPathComponent("tasks-snapshot-notes")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)

        let run = try Self.run(["export", "--store", store, "-o", output], environment: ["TMPDIR": temporary.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: deadOutput))
        #expect(!FileManager.default.fileExists(atPath: deadDirectory.path))
        #expect(FileManager.default.fileExists(atPath: liveOutput))
        #expect(FileManager.default.fileExists(atPath: freshOutput))
        #expect(FileManager.default.fileExists(atPath: liveDirectory.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
                == [liveDirectory.lastPathComponent, foreign.lastPathComponent].sorted())
    }

    @Test(
        "a store on a read-only mount or a read-only file: import and dry run exit 73, nothing written, no -wal/-shm left"
    )
    func readOnlyTargets() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let archive = scratch.path("in.json")
        #expect(try Self.run(["export", "--store", store, "-o", archive]).status == 0)
        let before = try directorySnapshot(scratch.url)
        // A read-only bind mount of the scratch directory, in a mount namespace of its own.
        let script = "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" || exit 99; shift; exec \"$@\""
        for arguments in [
            ["import", "--store", store, "--mode", "upsert", archive],
            ["import", "--store", store, "--mode", "upsert", "--dry-run", archive],
            ["validate", "--store", store, "--mode", "upsert", archive],
        ] {
            let run = try TasksBinary.runProcess(
                URL(fileURLWithPath: "/usr/bin/unshare"),
                ["-m", "/bin/sh", "-c", script, "sh", scratch.url.path, TasksBinary.url.path] + arguments,
                stdin: nil, in: nil)
            if run.status == 99 || run.stderr.contains("unshare failed")
                || run.stderr.contains("Operation not permitted")
            {
                print(
                    "read-only targets: a read-only mount cannot be made here (\(run.stderr.prefix(200))); that case is skipped"
                )
                break
            }
            #expect(run.status == 73, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("Read-only file system"), "\(run.stderr)")
        }
        #expect(try directorySnapshot(scratch.url) == before)

        // A read-only store file (for a user that is not root; root writes through permissions).
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let shared = scratch.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let target = shared.appendingPathComponent("store.sqlite").path
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: store + suffix, toPath: target + suffix) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: archive)
        for suffix in ["", "-wal"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: target + suffix)
        }
        let sharedBefore = try directorySnapshot(shared)
        for extra in [[], ["--dry-run"]] {
            let run = try TasksBinary.runProcess(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", TasksBinary.url.path,
                    "import", "--store", target, "--mode", "upsert",
                ] + extra + [archive],
                stdin: nil, in: nil)
            #expect(run.status == 73, "\(extra): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("cannot write the store"), "\(run.stderr)")
            #expect(try directorySnapshot(shared) == sharedBefore, "a -wal/-shm or other file was left")
        }
    }

    @Test("a file labelled version 1 carrying version-2 members: validate and import exit 65 at the first such member")
    func versionLabel() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let v2 = try String(contentsOfFile: TasksBinary.sample("v2-example.json"), encoding: .utf8)
        let mislabelled = v2.replacingOccurrences(of: #""version":2"#, with: #""version":1"#)
            .replacingOccurrences(of: #""version": 2"#, with: #""version": 1"#)
        try #require(mislabelled != v2)
        let path = scratch.path("mislabelled.json")
        try Data(mislabelled.utf8).write(to: URL(fileURLWithPath: path))
        let before = try directorySnapshot(scratch.url)
        for arguments in [
            ["validate", path], ["import", "--store", store, "--mode", "upsert", path],
            ["import", "--store", scratch.path("new.sqlite"), path],
        ] {
            let run = try Self.run(arguments)
            #expect(run.status == 65, "\(arguments[0]): \(run.stderr)")
            #expect(
                run.stderr.contains("version-mismatch") && run.stderr.contains("looks like a version 2 file"),
                "\(run.stderr)")
            #expect(
                run.stderr.components(separatedBy: "version-mismatch").count == 2,
                "only the first such member is reported")
        }
        #expect(try directorySnapshot(scratch.url) == before)
    }
}
