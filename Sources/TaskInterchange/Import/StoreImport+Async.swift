extension StoreImport {
    /// Imports the archive file at `archivePath` into the store at `path`, as `run(_:into:options:)` does, on a
    /// background queue: the caller's actor is never blocked.
    ///
    /// Cancelling the calling task stops the import at its next checkpoint (every 1,024 tasks, SQLite's progress
    /// handler, a lock wait): the transaction rolls back, a new store is never moved into place, every temporary file
    /// is removed, and this throws `.cancelled`. `progress` receives `.importing` events (from any thread): the first
    /// with `done` 0, one every 10,000 tasks, the last with every task and the archive's size in bytes.
    /// `options.progress` is replaced.
    /// - Throws: as `run(_:into:options:)`; `.noInput` when the archive file cannot be read.
    public static func run(
        archiveAt archivePath: String, into path: String, options: StoreImportOptions,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) async throws -> StoreImportResult {
        try await BackgroundWork.run {
            try reporting(ArchiveInput(path: archivePath), into: path, options: options, progress: progress)
        }
    }

    /// Imports the archive file at `archivePath` into the store at `path` on the calling thread, as
    /// `run(_:into:options:)` does; in an `async` function, `try await` calls the form above instead. `progress` is
    /// as there.
    /// - Throws: as `run(_:into:options:)`; `.noInput` when the archive file cannot be read.
    public static func run(
        archiveAt archivePath: String, into path: String, options: StoreImportOptions,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) throws -> StoreImportResult {
        try reporting(ArchiveInput(path: archivePath), into: path, options: options, progress: progress)
    }

    /// `run(_:into:options:)` with `progress` as `.importing` events.
    static func reporting(
        _ input: ArchiveInput, into path: String, options: StoreImportOptions,
        progress: (@Sendable (ProgressEvent) -> Void)?
    ) throws -> StoreImportResult {
        try reporting(input, bytes: Int64(input.count), into: path, options: options, progress: progress)
    }

    /// `run(_:into:options:)` with `progress` as `.importing` events, the last with `bytes` (nil when the source is
    /// not a file).
    static func reporting(
        _ input: some ArchiveSource, bytes: Int64?, into path: String, options: StoreImportOptions,
        progress: (@Sendable (ProgressEvent) -> Void)?
    ) throws -> StoreImportResult {
        var options = options
        if let progress {
            options.progress = { done in progress(ProgressEvent(phase: .importing, done: done, total: nil)) }
        }
        progress?(ProgressEvent(phase: .importing, done: 0, total: nil, bytes: 0))
        let result = try run(input, into: path, options: options)
        let tasks = result.report.counts.tasks
        progress?(ProgressEvent(phase: .importing, done: tasks, total: tasks, bytes: bytes))
        return result
    }
}
