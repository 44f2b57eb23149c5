#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// A directory of our own in the temporary directory (`tasks-<purpose>-<UUID>`), for private copies of stores and
/// buffered output. It holds an exclusive `flock` on its `lock` file while this object lives and is removed with
/// everything in it when released; directories left by a killed run are removed by the next one (`sweep`), only once
/// their lock can be taken.
final class PrivateDirectory {
    /// The directory's path.
    let path: String
    private let lockDescriptor: Int32
    private static let prefix = "tasks-"
    private static let lockName = "lock"

    /// What a private directory is for; part of its name, so the sweep recognises exactly these names.
    enum Purpose: String, CaseIterable {
        case snapshot, export, dryRun = "dry-run"
    }

    /// Creates the directory.
    /// - Throws: `.io` when the temporary directory does not take it.
    init(purpose: Purpose) throws(TaskInterchangeError) {
        let base = FileManager.default.temporaryDirectory.path
        Self.sweep(in: base)
        path = base + "/" + Self.prefix + purpose.rawValue + "-" + UUID().uuidString
        LivePaths.shared.insert(path)
        guard mkdir(path, 0o700) == 0 else {
            LivePaths.shared.remove(path)
            throw TaskInterchangeError(
                .io, "\(base): cannot create a private directory: \(String(cString: strerror(errno)))")
        }
        // The lock file gets its name only once it is locked: a sweep in another process never finds it unlocked
        // (a directory without one is left alone for a minute).
        let pending = path + "/" + Self.lockName + "-pending"
        lockDescriptor = open(pending, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard lockDescriptor >= 0, flock(lockDescriptor, LOCK_EX) == 0,
            rename(pending, path + "/" + Self.lockName) == 0
        else {
            // The descriptor (if any) is closed by `deinit`, which runs for an initializer that throws from here.
            let reason = String(cString: strerror(errno))
            unlink(pending)
            rmdir(path)
            LivePaths.shared.remove(path)
            throw TaskInterchangeError(.io, "\(base): cannot create a private directory: \(reason)")
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
        close(lockDescriptor)
        LivePaths.shared.remove(path)
    }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// `tasks-<purpose>-<UUID>`, nothing else: other programs' directories are never touched.
    private static func isOurs(_ name: String) -> Bool {
        Purpose.allCases.contains { purpose in
            let start = prefix + purpose.rawValue + "-"
            return name.hasPrefix(start) && UUID(uuidString: String(name.dropFirst(start.count))) != nil
        }
    }

    /// Removes private directories whose owner is gone (its lock can be taken). A directory without a lock file is
    /// one whose owner died between creating it and its lock; it is removed once it is a minute old.
    static func sweep(in base: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where isOurs(name) {
            let directory = base + "/" + name
            if LivePaths.shared.contains(directory) { continue }
            var status = stat()
            guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else {
                continue
            }
            let handle = open(directory + "/" + lockName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if handle < 0 {
                let modified =
                    (try? FileManager.default.attributesOfItem(atPath: directory)[.modificationDate]) as? Date
                if errno == ENOENT, let modified, modified.timeIntervalSinceNow < -60 {
                    try? FileManager.default.removeItem(atPath: directory)
                }
                continue
            }
            if flock(handle, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(atPath: directory) }
            close(handle)
        }
    }
}
