import Foundation

extension Exporter {
    /// Exports the store at `store` to the file at `path`, as `export(store:toFile:options:)` does, on a background
    /// queue: the caller's actor is never blocked.
    ///
    /// Cancelling the calling task stops the export at its next record or SQLite step; the temporary file is removed,
    /// nothing appears at `path`, and the store is unchanged. `progress` receives `.exporting` events (from any
    /// thread): the first with `done` 0, one every 10,000 tasks, the last with every task and the bytes written.
    /// - Throws: as `export(store:toFile:options:)`; ``TaskInterchangeError`` of kind `.cancelled` when cancelled.
    public static func export(
        store: String, toFile path: String, options: ExportOptions = ExportOptions(),
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) async throws -> ExportSummary {
        try await BackgroundWork.run {
            try exportReporting(store: store, toFile: path, options: options, progress: progress)
        }
    }

    /// `export(store:toFile:options:)` with `progress` as `.exporting` events.
    static func exportReporting(
        store: String, toFile path: String, options: ExportOptions,
        progress: (@Sendable (ProgressEvent) -> Void)?
    ) throws -> ExportSummary {
        var options = options
        if let progress {
            let earlier = options.progress
            options.progress = { done, total in
                earlier?(done, total)
                progress(ProgressEvent(phase: .exporting, done: done, total: total))
            }
        }
        progress?(ProgressEvent(phase: .exporting, done: 0, total: nil, bytes: 0))
        let summary = try export(store: store, toFile: path, options: options)
        progress?(
            ProgressEvent(
                phase: .exporting, done: summary.counts.tasks, total: summary.counts.tasks,
                bytes: FileIdentity.size(of: path)))
        return summary
    }
}
