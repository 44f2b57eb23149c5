#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// External files an import writes, all or nothing: each is written to a `TemporaryFile` in the store's external
/// data directory (locked, so a run killed before it finished leaves only files the next run sweeps), placed under
/// its name just before the store's transaction commits, and removed again when that commit fails. Directories it
/// had to create are removed when they end up empty. Files the store's rows no longer point at once the import
/// committed (a value replaced or deleted) are removed after the commit, never before.
final class ExternalDataWriter {
    /// Where files are written (and removed).
    let data: ExternalData
    /// Where the files the target already has are read: `data`, or for a dry run on a private copy the target's own
    /// directory (a file of the same name and contents is then not written again, as in the import itself).
    var existing: ExternalData
    private var staged: [(file: TemporaryFile, name: String)] = []
    /// The SHA-256 of each staged file's contents, by name.
    private var stagedDigests: [String: [UInt8]] = [:]
    private var placed: [String] = []
    private var created: [String] = []
    private var swept = false
    /// The directory, held under a shared `flock` while this writer may have files staged there: a run sweeps
    /// leftovers only when it can lock the directory exclusively, so never while another run's files wait.
    private var directoryLock: Int32 = -1

    init(store: String) {
        data = ExternalData(store: store)
        existing = data
    }

    deinit {
        releaseDirectory()
    }

    /// True when something waits to be placed.
    var isEmpty: Bool { staged.isEmpty }

    /// The directory's files as they will be once the staged ones are placed: a new store is read through it
    /// before it (and so its files) appears.
    var stagedData: ExternalData {
        var view = data
        for (file, name) in staged { view.staged[name] = file.path }
        return view
    }

    /// Writes `value` as file `name` (not yet under its name) and returns the name the row must point at: `name`, or a
    /// new one when the target (or this import) already keeps a different value under `name`: a file is never
    /// overwritten, so a failed import leaves every old value where it was. A file of that name with the same contents
    /// is kept.
    /// - Throws: `.cannotCreate` when the directory or file cannot be made.
    func stage(_ value: [UInt8], as name: String) throws(TaskInterchangeError) -> String {
        let digest = SHA2.sha256(value)
        if let staged = stagedDigests[name] {
            return staged == digest ? name : try stage(value, as: UUID().uuidString)
        }
        if let kept = existing.read(name) {
            return kept == value ? name : try stage(value, as: UUID().uuidString)
        }
        try makeDirectories()
        let final = data.directory + "/" + name
        // Leftovers are swept with the whole directory, under its lock (`sweepOnce`): another run's staged file of
        // the same name has given up its own lock and must stay.
        let file = try TemporaryFile(beside: final, sweeping: false)
        var offset = 0
        while offset < value.count {
            let written = value[offset...].withUnsafeBytes { write(file.descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw TaskInterchangeError(.io, "\(final): cannot write: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        try file.synchronize(naming: final)
        // No other run sweeps this directory while this one holds it (see `sweepOnce`), so the descriptor can go: an
        // import of thousands of photos would run out of them.
        file.release()
        staged.append((file, name))
        stagedDigests[name] = digest
        try Cancellation.checkpoint()
        return name
    }

    /// Moves every staged file under its name.
    func place() throws(TaskInterchangeError) {
        try Cancellation.checkpoint()
        for (file, name) in staged {
            let final = data.directory + "/" + name
            try file.place(at: final, replacing: false)
            placed.append(final)
        }
        staged = []
    }

    /// Removes what was placed or staged (the transaction did not commit) and the directories made for it.
    func discard() {
        for path in placed { unlink(path) }
        placed = []
        staged = []
        stagedDigests = [:]
        for directory in created.reversed() { rmdir(directory) }
        created = []
        releaseDirectory()
    }

    /// The transaction committed: what was placed stays.
    func keep() {
        placed = []
        created = []
        stagedDigests = [:]
        releaseDirectory()
    }

    /// Nothing of this writer waits in the directory any more: another run may sweep it (and this one again, should
    /// it stage more).
    private func releaseDirectory() {
        if directoryLock >= 0 { close(directoryLock) }
        directoryLock = -1
        swept = false
    }

    /// Removes the files `names` (which the committed store no longer points at). A file that cannot be removed is
    /// only left over: the store is already complete.
    func remove(_ names: Set<String>) {
        for name in names.sorted() where UUID(uuidString: name) != nil { unlink(data.directory + "/" + name) }
    }

    private func makeDirectories() throws(TaskInterchangeError) {
        defer { sweepOnce() }
        let support = (data.directory as NSString).deletingLastPathComponent
        for directory in [support, data.directory] where access(directory, F_OK) != 0 {
            guard mkdir(directory, 0o755) == 0 else {
                throw TaskInterchangeError(
                    .cannotCreate, "\(directory): cannot create: \(String(cString: strerror(errno)))")
            }
            created.append(directory)
        }
    }

    /// Removes the temporary files of runs killed while staging (their locks are gone), once per import, and only
    /// when no other run holds the directory: staged files give up their own locks (see `stage`), and two runs
    /// making the same new store (a second migration started while the first verifies) stage side by side.
    private func sweepOnce() {
        guard !swept else { return }
        swept = true
        directoryLock = open(data.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryLock >= 0 else { return }
        if flock(directoryLock, LOCK_EX | LOCK_NB) == 0 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: data.directory)) ?? []
            for name in names where name.hasPrefix(".") {
                guard let marker = name.range(of: ".tasks-", options: .backwards) else { continue }
                TemporaryFile.sweep(
                    beside: data.directory + "/" + name[name.index(after: name.startIndex)..<marker.lowerBound],
                    evenEmpty: true)
            }
        }
        // Shared from here on (a conversion when the sweep held it exclusively), so no later run sweeps these files.
        while flock(directoryLock, LOCK_SH) != 0 && errno == EINTR {}
    }
}
