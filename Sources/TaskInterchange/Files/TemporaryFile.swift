#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// A file that becomes an output only when it is complete: created beside the output as `.NAME.tasks-<UUID>`, held
/// under an exclusive `flock` for as long as this object lives, and removed (with any SQLite sidecars) unless it was
/// moved into place.
///
/// The lock is what makes leftovers safe to clean: a process killed with SIGKILL loses its locks, so the next run
/// (`sweep(beside:)`) removes exactly the files whose lock it can take, never one another running `tasks` still holds.
final class TemporaryFile {
    /// The temporary file's path.
    let path: String
    /// The open descriptor, for writing (and the lock's holder).
    let descriptor: Int32
    private var isPlaced = false
    private var isClosed = false
    private static let marker = ".tasks-"

    /// Creates the temporary file for `output` in the same directory (so it can be renamed into place), first
    /// sweeping what killed runs left beside `output` unless the caller sweeps the directory itself (`sweeping`).
    /// - Throws: `.cannotCreate` naming `output` when the directory does not take a new file.
    init(beside output: String, sweeping: Bool = true) throws(TaskInterchangeError) {
        let url = URL(fileURLWithPath: output)
        let directory = url.deletingLastPathComponent().path
        if sweeping { Self.sweep(beside: output) }
        path = directory + "/." + url.lastPathComponent + Self.marker + UUID().uuidString
        LivePaths.shared.insert(path)
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            LivePaths.shared.remove(path)
            throw TaskInterchangeError(.cannotCreate, "\(output): cannot create: \(String(cString: strerror(errno)))")
        }
        flock(descriptor, LOCK_EX)
    }

    deinit {
        if !isPlaced { DatabaseFiles.remove(path) }
        if !isClosed { close(descriptor) }
        LivePaths.shared.remove(path)
    }

    /// Closes the descriptor (and so gives up the lock) of a complete file that waits to be placed, for writers of many
    /// files; it is still removed unless placed. Only a file no other run can be sweeping may be released.
    func release() {
        guard !isClosed else { return }
        isClosed = true
        close(descriptor)
    }

    /// Takes away the permissions `source` does not grant (a backup or a migrated store of a store only its owner may
    /// read is only its owner's too); never adds one. SQLite gives the file's sidecars the file's permissions.
    func restrictPermissions(to source: String) {
        var own = stat()
        var theirs = stat()
        guard fstat(descriptor, &own) == 0, stat(source, &theirs) == 0 else { return }
        fchmod(descriptor, own.st_mode & theirs.st_mode & 0o666)
    }

    /// Flushes the file to disk (regular files only).
    func synchronize(naming output: String) throws(TaskInterchangeError) {
        guard fsync(descriptor) == 0 else {
            throw TaskInterchangeError(.io, "\(output): cannot write: \(String(cString: strerror(errno)))")
        }
    }

    /// Moves the file to `output`. With `replacing: false` an existing file there is never replaced (a hard link is
    /// made, then the temporary name removed; file systems without links fall back to a checked rename).
    /// With `replacing: false` the output is a new SQLite file: a `-wal`, `-shm` or `-journal` left at its name by
    /// an earlier database is refused too, since SQLite would apply it to the new file on its first open.
    func place(at output: String, replacing: Bool) throws(TaskInterchangeError) {
        if !replacing { try Self.checkNoSidecars(of: output) }
        if replacing {
            guard rename(path, output) == 0 else {
                throw TaskInterchangeError(
                    .cannotCreate,
                    "\(output): cannot move the finished file into place: \(String(cString: strerror(errno)))")
            }
        } else if link(path, output) == 0 {
            unlink(path)
        } else {
            let linkError = errno
            if linkError == EEXIST || access(output, F_OK) == 0 {
                throw TaskInterchangeError(
                    .cannotCreate, "\(output): already exists (another process made it while this one ran)")
            }
            guard rename(path, output) == 0 else {
                throw TaskInterchangeError(
                    .cannotCreate, "\(output): cannot create: \(String(cString: strerror(errno)))")
            }
        }
        isPlaced = true
        for suffix in DatabaseFiles.sidecars { unlink(path + suffix) }
    }

    /// Refuses a new SQLite file at `output` while a sidecar of another database is there.
    /// - Throws: `.cannotCreate` naming the sidecar.
    static func checkNoSidecars(of output: String) throws(TaskInterchangeError) {
        for suffix in DatabaseFiles.sidecars where access(output + suffix, F_OK) == 0 {
            throw TaskInterchangeError(
                .cannotCreate,
                "\(output)\(suffix): left by an earlier database at this path, and SQLite would apply it to the new "
                    + "store; remove it (or choose another path)")
        }
    }

    /// Removes the temporary files that runs killed before they could clean up left beside `output`.
    /// - Parameter evenEmpty: also an empty file younger than a minute, where no other run can be creating one.
    static func sweep(beside output: String, evenEmpty: Bool = false) {
        let url = URL(fileURLWithPath: output)
        let prefix = "." + url.lastPathComponent + marker
        let directory = url.deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && UUID(uuidString: String(name.dropFirst(prefix.count))) != nil
        {
            let candidate = directory + "/" + name
            if LivePaths.shared.contains(candidate) { continue }
            let handle = open(candidate, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard handle >= 0 else { continue }
            // Taking the lock proves its owner is gone; the file is removed while the lock is held. An empty file may
            // be one whose owner is between creating and locking it, so it is left alone until it is a minute old.
            var status = stat()
            if flock(handle, LOCK_EX | LOCK_NB) == 0, fstat(handle, &status) == 0,
                evenEmpty || status.st_size > 0 || isMinuteOld(candidate)
            {
                DatabaseFiles.remove(candidate)
            }
            close(handle)
        }
    }

    private static func isMinuteOld(_ path: String) -> Bool {
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
        return modified.map { $0.timeIntervalSinceNow < -60 } ?? false
    }
}
