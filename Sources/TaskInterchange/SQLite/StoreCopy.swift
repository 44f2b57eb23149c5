#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Copies a store that may be in use into a private file, as exactly one committed state, without changing the
/// store's files (SQLite's shared-memory index aside, which a locked read touches as any SQLite reader does).
///
/// - WAL mode: the database and its `-wal` are copied as they are, and the copy counts only if the `-wal`'s header and
///   size, the database's size and the set of sidecars are the same after the copy as before. WAL writers only append
///   (a restart rewrites the header) and checkpoints only write pages the `-wal` still holds, so an unchanged `-wal`
///   means SQLite's recovery of the private copy sees the committed state of that moment. This touches nothing, not
///   even `-shm`. Under a writer that keeps committing, after three tries the copy is taken under a read lock instead.
/// - Rollback-journal mode: a read-only SQLite connection takes the shared lock (waiting up to the busy timeout for a
///   writer) and copies the database with the online backup API while holding it; no sidecar is created.
/// - A hot journal (a writer died mid-transaction): the database and the journal are copied, and SQLite rolls the
///   journal back in the private copy; the user's files keep their hot journal for the app to recover.
enum StoreCopy {
    /// A copy and how it was made.
    struct Outcome {
        /// The private copy's path (its `-wal` beside it, when one was copied).
        var path: String
        /// The store had committed data in its `-wal`.
        var hadWALData: Bool
        /// A crashed writer's transaction was rolled back in the copy.
        var recoveredHotJournal: Bool
    }

    /// The state a copy is checked against: what a writer changes when it commits.
    private struct FileState: Equatable {
        var databaseSize: Int64
        /// The database file's inode and its modification and change times to the nanosecond: WAL commits and
        /// checkpoints need not touch the change counter, and a writer may create a `-wal`, commit, checkpoint into
        /// the file and delete the `-wal` while it is copied — only these times show that. (Reading them makes the
        /// next change get a distinct time on file systems with coarse clocks.)
        var databaseStamp: [Int64]
        var changeCounter: [UInt8]
        var walSize: Int64?
        var walHeader: [UInt8]
        var journalSize: Int64?
        var journalHeader: [UInt8]
        var hasSharedMemory: Bool
    }

    private static let attempts = 3

    /// Copies the store at `store` (symlinks resolved first, so sidecars are found beside the real file) to
    /// `directory/store.sqlite`.
    /// - Throws: `.noInput` (missing, unreadable), `.invalidData` (not an SQLite database), `.busy` (a writer held its
    ///   lock past the timeout), `.io`, `.cancelled`.
    static func copy(_ store: String, into directory: PrivateDirectory, busyTimeout: Int32) throws(TaskInterchangeError)
        -> Outcome
    {
        let source = FileIdentity.resolved(store)
        let header = try header(of: source, naming: store)
        let destination = directory.file("store.sqlite")
        let isWAL = header[18] == 2 || header[19] == 2
        if isWAL {
            for _ in 0..<attempts {
                if let outcome = try copyUnchanged(source, to: destination, naming: store) { return outcome }
                try Cancellation.checkpoint()
            }
        }
        let walSize = (try? state(of: source))?.walSize ?? 0
        do {
            try copyLocked(source, to: destination, busyTimeout: busyTimeout)
            return Outcome(path: destination, hadWALData: walSize > 0, recoveredHotJournal: false)
        } catch let error where error.code == 776 {  // SQLITE_READONLY_ROLLBACK: a hot journal
            DatabaseFiles.remove(destination)
            return try recoverHotJournal(source, to: destination, naming: store)
        } catch {
            throw TaskInterchangeError.sqlite(error, path: store, doing: "cannot read the store")
        }
    }

    /// Copies the store as `copy` does, but first takes the write lock an import takes (`BEGIN IMMEDIATE`, waiting up
    /// to the busy timeout) and holds it while copying, for dry runs: they fail with `.busy` or `.cannotCreate` exactly
    /// when the import would, and plan over the state the import would write over. The lock is taken through a
    /// connection that neither checkpoints nor recovers anything: it is skipped when a journal may be hot (its recovery
    /// would write the store) and for a WAL store without its sidecars (no connection holds it open, so no lock can be
    /// held; the sidecars are not created).
    /// - Throws: as `copy`.
    static func copyUnderWriteLock(_ store: String, into directory: PrivateDirectory, busyTimeout: Int32)
        throws(TaskInterchangeError) -> Outcome
    {
        let source = FileIdentity.resolved(store)
        let header = try header(of: source, naming: store)
        let files = try state(of: source)
        let isWAL = header[18] == 2 || header[19] == 2
        if (!isWAL && (files.journalSize ?? 0) > 0) || (isWAL && (files.walSize == nil || !files.hasSharedMemory)) {
            return try copy(store, into: directory, busyTimeout: busyTimeout)
        }
        let destination = directory.file("store.sqlite")
        do {
            let lock = try Database(path: source, mode: .readWrite, busyTimeout: busyTimeout)
            lock.disableCheckpointOnClose()
            try lock.execute("BEGIN IMMEDIATE")
            defer { try? lock.execute("ROLLBACK") }
            try copyLocked(source, to: destination, busyTimeout: busyTimeout)
        } catch {
            let failure = TaskInterchangeError.sqlite(error, path: store, doing: "cannot open the store for writing")
            throw failure.kind == .noInput ? failure.withKind(.cannotCreate) : failure
        }
        return Outcome(path: destination, hadWALData: (files.walSize ?? 0) > 0, recoveredHotJournal: false)
    }

    /// The first 100 bytes, checked to be an SQLite database header.
    static func header(of path: String, naming store: String) throws(TaskInterchangeError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR:
                throw TaskInterchangeError(
                    .noInput, "\(store): no such store file\(Suggestion.nearPath(to: store))")
            case EISDIR: throw TaskInterchangeError(.noInput, "\(store): is a directory, not a store file")
            default:
                throw TaskInterchangeError(
                    .noInput, "\(store): cannot be opened for reading: \(String(cString: strerror(errno)))")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw TaskInterchangeError(.noInput, "\(store): is a directory, not a store file")
        }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
        guard count == 100, Database.startsWithHeader(header) else {
            throw TaskInterchangeError(
                .invalidData,
                count <= 0
                    ? "\(store): the file is empty, not an SQLite store"
                    : """
                    \(store): not an SQLite database (the file does not start \
                    with the SQLite header; encrypted or another format?)
                    """
            )
        }
        return header
    }

    private static func state(of source: String) throws(TaskInterchangeError) -> FileState {
        func read(_ path: String, _ offset: Int, _ count: Int) -> (size: Int64, bytes: [UInt8], stamp: [Int64])? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            #if canImport(Darwin)
                let (modified, changed) = (status.st_mtimespec, status.st_ctimespec)
            #else
                let (modified, changed) = (status.st_mtim, status.st_ctim)
            #endif
            let stamp = [
                Int64(status.st_ino), Int64(modified.tv_sec), Int64(modified.tv_nsec), Int64(changed.tv_sec),
                Int64(changed.tv_nsec),
            ]
            return (Int64(status.st_size), Array(bytes.prefix(max(got, 0))), stamp)
        }
        guard let database = read(source, 24, 4) else {
            throw TaskInterchangeError(.noInput, "\(source): the store disappeared while it was read")
        }
        let wal = read(source + "-wal", 0, 32)
        let journal = read(source + "-journal", 0, 28)
        return FileState(
            databaseSize: database.size, databaseStamp: database.stamp, changeCounter: database.bytes,
            walSize: wal?.size, walHeader: wal?.bytes ?? [],
            journalSize: journal?.size, journalHeader: journal?.bytes ?? [],
            hasSharedMemory: access(source + "-shm", F_OK) == 0)
    }

    /// A WAL-mode store copied file by file; nil when a writer changed it meanwhile.
    private static func copyUnchanged(_ source: String, to destination: String, naming store: String)
        throws(TaskInterchangeError) -> Outcome?
    {
        let before = try state(of: source)
        // A journal beside a WAL store means a mode change is under way; leave that to the locked read.
        guard before.journalSize == nil || before.journalSize == 0 else { return nil }
        try copyFile(source, to: destination, naming: store)
        // The last connection closing checkpoints and deletes the `-wal`: gone since it was seen is a change too.
        var walCopied = true
        if before.walSize != nil {
            walCopied = try copyFile(source + "-wal", to: destination + "-wal", naming: store, mayVanish: true)
        }
        guard walCopied, try state(of: source) == before else {
            // Emptied, not removed: the caller may hold the file open (a temporary file it synchronizes and
            // places), and a new file at the name would be one that descriptor never reaches.
            truncate(destination, 0)
            for suffix in ["-wal", "-shm"] { unlink(destination + suffix) }
            return nil
        }
        return Outcome(path: destination, hadWALData: (before.walSize ?? 0) > 0, recoveredHotJournal: false)
    }

    /// Copies one committed state of the store at `store` (its `-wal` included) into the new file `destination`, a
    /// self-contained database. A WAL store no writer changes meanwhile is copied by its files, so none of its files
    /// changes (not even the shared-memory index a reader would touch); a busy one gets one page copy under a read
    /// transaction of the store itself: consistent under a concurrent writer, whose commits wait for nothing. A store
    /// with a hot journal is copied through a private snapshot in `directory` first, as `copy` makes it: reading it in
    /// place would recover it. Messages name `destination` as `naming`.
    /// - Throws: as `copy` for the store; `.cannotCreate` when `destination` cannot be written.
    static func pageCopy(
        _ store: String, to destination: String, naming: String, via directory: PrivateDirectory,
        busyTimeout: Int32
    ) throws(TaskInterchangeError) {
        let resolved = FileIdentity.resolved(store)
        let header = try header(of: resolved, naming: store)
        let isWAL = header[18] == 2 || header[19] == 2
        // A WAL store that no writer changes meanwhile (the usual case at an app's launch) is copied by its files,
        // which leaves every file of the store as it was; a busy one is read in place below.
        if isWAL, try copyQuiet(resolved, to: destination, naming: store) { return }
        let files = try state(of: resolved)
        let unopened = isWAL ? files.walSize == nil || !files.hasSharedMemory : (files.journalSize ?? 0) > 0
        var source = unopened ? try copy(store, into: directory, busyTimeout: busyTimeout).path : resolved
        let database: Database
        do {
            database = try openLocked(source, busyTimeout: busyTimeout)
        } catch let error where error.code == 776 && source == resolved {  // SQLITE_READONLY_ROLLBACK: a hot journal
            source = try copy(store, into: directory, busyTimeout: busyTimeout).path
            do {
                database = try openLocked(source, busyTimeout: busyTimeout)
            } catch {
                throw TaskInterchangeError.sqlite(error, path: store, doing: "cannot read the store")
            }
        } catch {
            throw TaskInterchangeError.sqlite(error, path: store, doing: "cannot read the store")
        }
        do {
            try database.backup(to: destination)
            try database.execute("COMMIT")
        } catch {
            let failure = TaskInterchangeError.sqlite(error, path: naming, doing: "cannot write the backup")
            throw failure.kind == .cancelled ? failure : failure.withKind(.cannotCreate)
        }
    }

    /// Copies a WAL store by its files (its `-wal` beside the copy) when no writer changed it meanwhile (false after
    /// three tries), then makes the copy one self-contained rollback-journal file: its `-wal` checkpointed into it
    /// and removed, or, without one, the header marked (bytes 18 and 19, as SQLite's backup marks a copy). False too
    /// when the copy cannot be written (a `-wal` holding many versions of its pages may need far more room than the
    /// page copy, which is tried next).
    private static func copyQuiet(_ source: String, to destination: String, naming store: String)
        throws(TaskInterchangeError) -> Bool
    {
        for _ in 0..<attempts {
            do {
                if try copyUnchanged(source, to: destination, naming: store) != nil {
                    try makeSelfContained(destination)
                    return true
                }
            } catch  where error.kind == .io || error.kind == .cannotCreate {
                truncate(destination, 0)
                for suffix in ["-wal", "-shm"] { unlink(destination + suffix) }
                return false
            }
            try Cancellation.checkpoint()
        }
        return false
    }

    /// A file-by-file copy of a WAL store made one rollback-journal file that needs no sidecar.
    private static func makeSelfContained(_ destination: String) throws(TaskInterchangeError) {
        guard access(destination + "-wal", F_OK) == 0 else {
            let descriptor = open(destination, O_WRONLY | O_CLOEXEC)
            defer { if descriptor >= 0 { close(descriptor) } }
            let rollback: [UInt8] = [1, 1]
            guard descriptor >= 0, rollback.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, 2, 18) }) == 2 else {
                throw TaskInterchangeError(
                    .cannotCreate, "\(destination): cannot write the copy: \(String(cString: strerror(errno)))")
            }
            return
        }
        try Cancellation.checkpoint()
        let mode: String?
        do {
            let database = try Database(path: destination, mode: .readWrite)
            mode = try database.scalar("PRAGMA journal_mode = DELETE")?.string
        } catch {
            throw TaskInterchangeError.sqlite(error, path: destination, doing: "cannot write the copy")
        }
        guard mode == "delete" else {
            throw TaskInterchangeError(.cannotCreate, "\(destination): the copy keeps its WAL")
        }
        unlink(destination + "-shm")
    }

    /// A read-only connection to `source` inside a read transaction that has read the schema.
    private static func openLocked(_ source: String, busyTimeout: Int32) throws(SQLiteError) -> Database {
        let database = try Database(path: source, mode: .readOnly(immutable: false), busyTimeout: busyTimeout)
        try database.execute("BEGIN")
        _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        return database
    }

    /// Copies under SQLite's shared lock, through a read-only connection's read transaction.
    static func copyLocked(_ source: String, to destination: String, busyTimeout: Int32) throws(SQLiteError) {
        let database = try openLocked(source, busyTimeout: busyTimeout)
        try database.backup(to: destination)
        try database.execute("COMMIT")
    }

    /// Copies the database and its hot journal and lets SQLite roll the journal back in the copy. The journal is
    /// copied first and checked again afterwards: while it is still there and unchanged, no other process has rolled
    /// it back or started a new transaction, so the database pages copied are the ones the journal restores.
    private static func recoverHotJournal(_ source: String, to destination: String, naming store: String)
        throws(TaskInterchangeError) -> Outcome
    {
        for _ in 0..<attempts {
            let before = try state(of: source)
            guard before.journalSize != nil else { break }
            // Another process may roll the journal back (deleting it) meanwhile: then the state changed; try again.
            var copied = try copyFile(source + "-journal", to: destination + "-journal", naming: store, mayVanish: true)
            if copied {
                try copyFile(source, to: destination, naming: store)
                if before.walSize != nil {
                    copied = try copyFile(source + "-wal", to: destination + "-wal", naming: store, mayVanish: true)
                }
            }
            if copied, try state(of: source) == before {
                do {
                    let database = try Database(path: destination, mode: .readWrite)
                    _ = try database.scalar("SELECT count(*) FROM sqlite_master")
                } catch {
                    throw TaskInterchangeError.sqlite(
                        error, path: store, doing: "cannot recover the interrupted transaction in a private copy")
                }
                return Outcome(path: destination, hadWALData: false, recoveredHotJournal: true)
            }
            DatabaseFiles.remove(destination)
            try Cancellation.checkpoint()
        }
        throw TaskInterchangeError(
            .busy, "\(store): another process is recovering or writing the store; retry when it is done")
    }

    /// Copies one file's bytes.
    /// Copies one file; with `mayVanish`, a source that no longer exists returns false instead of failing.
    @discardableResult
    private static func copyFile(
        _ source: String, to destination: String, naming store: String,
        mayVanish: Bool = false
    ) throws(TaskInterchangeError) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if mayVanish && errno == ENOENT { return false }
            throw TaskInterchangeError(.noInput, "\(store): cannot read \(source): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw TaskInterchangeError(
                .io, "\(destination): cannot create a private copy: \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        do {
            try DescriptorCopy.copy(from: input, naming: source, to: FileDescriptorSink(fileDescriptor: output))
        } catch let error as TaskInterchangeError {
            throw error
        } catch {
            throw TaskInterchangeError(.io, "\(destination): cannot write a private copy: \(error)")
        }
        return true
    }
}
