#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// A store's external files (`ExternalData`) for a backup of the store: gathered in a hidden directory beside the
/// backup (`.<SUPPORT>.tasks-<UUID>/_EXTERNAL_DATA/`), each file hard-linked where the file system allows (the store's
/// files are never changed in place, only added and removed, so a link keeps the backup's value) and copied
/// otherwise, then moved under the backup's support directory (`.<BackupName>_SUPPORT`) just before the backup file
/// itself is placed. Until then, or when this object goes without `keep()`, everything it made is removed; the
/// hidden directory is held under an exclusive `flock`, so one left by a killed run is removed by the next backup
/// beside it once its lock can be taken.
final class ExternalDataBackup {
    /// The hidden directory the files are gathered in.
    private let staging: String
    /// The staging directory's descriptor, holding its lock.
    private var lock: Int32 = -1
    /// The support directory, once placed.
    private var placed: String?
    private var kept = false
    /// How many files were gathered, and how many of them had to be copied.
    private(set) var fileCount = 0
    private(set) var copiedCount = 0

    /// Gathers the files of the store whose external data is `source` beside `backup`; nil when the store keeps no
    /// external files. `backup` names the staging directory only: whether a name is free is decided by `place(for:)`,
    /// so a caller may go on to another name when this one is taken.
    /// - Throws: `.cannotCreate` when the staging directory cannot be made, `.io` when a file cannot be read,
    ///   `.cancelled`.
    init?(of source: ExternalData, for backup: String) throws(TaskInterchangeError) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: source.directory)) ?? []).filter {
            // Core Data names its files by UUID; anything else there (an import's staged file) is no value.
            $0.utf8.count == 36 && UUID(uuidString: $0) != nil
        }
        guard !names.isEmpty else { return nil }
        let support = Self.supportDirectory(of: backup)
        Self.sweep(beside: support)
        staging =
            URL(fileURLWithPath: support).deletingLastPathComponent().path + "/."
            + URL(fileURLWithPath: support).lastPathComponent + Self.marker + UUID().uuidString
        let target = staging + "/_EXTERNAL_DATA"
        guard mkdir(staging, 0o755) == 0 else {
            throw TaskInterchangeError(.cannotCreate, "\(support): cannot create: \(String(cString: strerror(errno)))")
        }
        lock = open(staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0, flock(lock, LOCK_EX) == 0, mkdir(target, 0o755) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: staging)
            throw TaskInterchangeError(.cannotCreate, "\(support): cannot create: \(reason)")
        }
        do {
            for name in names.sorted() {
                let from = source.directory + "/" + name
                var status = stat()
                // Only regular files are values: a link or FIFO there is skipped, as an export skips it.
                guard lstat(from, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
                if link(from, target + "/" + name) != 0 {
                    try Self.copy(from, to: target + "/" + name)
                    copiedCount += 1
                }
                fileCount += 1
                try Cancellation.checkpoint()
            }
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    deinit {
        if !kept {
            if let placed { try? FileManager.default.removeItem(atPath: placed) }
            try? FileManager.default.removeItem(atPath: staging)
        }
        if lock >= 0 { close(lock) }
    }

    private static let marker = ".tasks-"

    /// Removes the staging directories that killed runs left beside `support` (their locks can be taken). One a
    /// minute old at least: a run that has just made its directory may not hold the lock yet.
    private static func sweep(beside support: String) {
        let url = URL(fileURLWithPath: support)
        let directory = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + marker
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(prefix) && UUID(uuidString: String(name.dropFirst(prefix.count))) != nil
        {
            let path = directory + "/" + name
            let handle = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard handle >= 0 else { continue }
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
            if flock(handle, LOCK_EX | LOCK_NB) == 0, let modified, modified.timeIntervalSinceNow < -60 {
                try? FileManager.default.removeItem(atPath: path)
            }
            close(handle)
        }
    }

    /// `.<BackupName>_SUPPORT` beside `backup`: where Core Data (and `ExternalData`) looks for its external files.
    static func supportDirectory(of backup: String) -> String {
        (ExternalData(store: backup).directory as NSString).deletingLastPathComponent
    }

    /// Refuses a backup whose support directory is already there: its files would be mixed with another store's.
    /// - Throws: `.cannotCreate` naming it.
    static func checkFree(_ support: String) throws(TaskInterchangeError) {
        if access(support, F_OK) == 0 {
            throw TaskInterchangeError(
                .cannotCreate,
                "\(support): already exists (left by another store of this name); remove it or choose another path")
        }
    }

    /// Moves the gathered files under `backup`'s support directory; undone by `discard()` or when this object goes
    /// without `keep()`.
    /// - Throws: `.cannotCreate` when the directory is taken or cannot be renamed.
    func place(for backup: String) throws(TaskInterchangeError) {
        let support = Self.supportDirectory(of: backup)
        try Self.checkFree(support)
        guard rename(staging, support) == 0 else {
            throw TaskInterchangeError(.cannotCreate, "\(support): cannot create: \(String(cString: strerror(errno)))")
        }
        placed = support
    }

    /// Moves a placed support directory back to staging (the backup file could not be placed under its name), so
    /// `place(for:)` can put it under another; removed when it cannot be moved back.
    func discard() {
        guard let placed else { return }
        if rename(placed, staging) != 0 { try? FileManager.default.removeItem(atPath: placed) }
        self.placed = nil
    }

    /// The backup file is in place: its files stay.
    func keep() { kept = true }

    /// Copies a regular file whose link was refused (another file system, or one without hard links), synchronized.
    private static func copy(_ from: String, to path: String) throws(TaskInterchangeError) {
        let input = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else {
            throw TaskInterchangeError(.io, "\(from): cannot read: \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw TaskInterchangeError(.cannotCreate, "\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw TaskInterchangeError(.io, "\(from): cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let written = buffer[offset..<count].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    throw TaskInterchangeError(.io, "\(path): cannot write: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
            try Cancellation.checkpoint()
        }
        guard fsync(output) == 0 else {
            throw TaskInterchangeError(.io, "\(path): cannot write: \(String(cString: strerror(errno)))")
        }
    }
}
