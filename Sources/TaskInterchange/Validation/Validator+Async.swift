extension Validator {
    /// Validates the archive file at `path` (JSON or NDJSON, version 1 or 2): structure, types and references.
    /// - Throws: ``TaskInterchangeError`` when the file cannot be read (`.noInput`, `.io`) or the work was stopped
    ///   (`.cancelled`); an invalid archive is not an error: its report says so.
    public static func validate(
        archiveAt path: String, maxIssues: Int = 100,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) throws -> ValidationReport {
        try validate(try ArchiveInput(path: path), maxIssues: maxIssues, progress: progress)
    }

    /// Validates a file or stdin already open, as `validate(archiveAt:maxIssues:progress:)` does a path.
    /// - Throws: as `validate(archiveAt:maxIssues:progress:)`.
    public static func validate(
        _ input: ArchiveInput, maxIssues: Int = 100,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) throws -> ValidationReport {
        var counting = ProgressVisitor(Validator(maxIssues: maxIssues), phase: .validating, progress: progress)
        try input.stream(kinds: nil, into: &counting)
        let report = counting.inner.report
        progress?(
            ProgressEvent(
                phase: .validating, done: report.counts.tasks, total: report.counts.tasks,
                bytes: Int64(input.count)))
        return report
    }

    /// Validates the archive file at `path` as `validate(archiveAt:maxIssues:progress:)` does, on a background queue:
    /// the caller's actor is never blocked, and cancelling the calling task stops the reading at its next record.
    /// - Throws: as `validate(archiveAt:maxIssues:progress:)`; `.cancelled` when cancelled.
    public static func validate(
        archiveAt path: String, maxIssues: Int = 100,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) async throws -> ValidationReport {
        try await BackgroundWork.run { try validate(archiveAt: path, maxIssues: maxIssues, progress: progress) }
    }
}
