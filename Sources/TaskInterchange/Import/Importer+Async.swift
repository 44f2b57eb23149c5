extension Importer {
    /// Validates the archive file at `archivePath`, then rebuilds its graph in the destination `makeDestination`
    /// creates, all on a background queue: the destination is made, written, committed (or rolled back) on that
    /// queue's thread, so a context confined to the thread that made it (a SwiftData `ModelContext` made from a
    /// `ModelContainer`, say) is used correctly, and the caller's actor is never blocked.
    ///
    /// An invalid archive throws `ArchiveValidationError` before the destination is made. When writing fails or the
    /// calling task is cancelled (checked every 1,024 tasks), the destination's `rollback()` undoes what was written
    /// and the error is rethrown; otherwise its `commit()` runs once, after the last record. `progress` receives
    /// `.validating`, then `.importing` events, each phase from `done` 0 to every task.
    /// - Throws: `ArchiveValidationError`; `TaskInterchangeError` (`.noInput`, `.io`, `.cancelled`, `.invalidData`
    ///   for a reference that cannot be resolved); whatever the destination throws.
    public func run<Destination: ImportDestination & SendableMetatype>(
        archiveAt archivePath: String, into makeDestination: @escaping @Sendable () throws -> Destination,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) async throws -> ImportPlan {
        try await BackgroundWork.run { [self] in
            try run(archiveAt: archivePath, into: makeDestination, progress: progress)
        }
    }

    /// Validates the archive file at `archivePath`, then rebuilds its graph in the destination `makeDestination`
    /// creates, on the calling thread, as the form above does on a background queue; in an `async` function,
    /// `try await` calls that one instead.
    /// - Throws: as the form above.
    public func run<Destination: ImportDestination>(
        archiveAt archivePath: String, into makeDestination: () throws -> Destination,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) throws -> ImportPlan {
        let report = try Validator.validate(archiveAt: archivePath, progress: progress)
        guard report.isValid else { throw ArchiveValidationError(report: report) }
        var destination = try makeDestination()
        return try run(
            ArchiveInput(path: archivePath), into: &destination, total: report.counts.tasks,
            bytes: FileIdentity.size(of: archivePath), progress: progress)
    }

    /// Imports into `destination`, commits, and on any failure rolls back before rethrowing.
    func run<Destination: ImportDestination>(
        _ source: some ArchiveSource, into destination: inout Destination,
        total: Int, bytes: Int64?,
        progress: (@Sendable (ProgressEvent) -> Void)?
    ) throws -> ImportPlan {
        var importer = self
        if let progress {
            let earlier = importer.progress
            importer.progress = { done in
                earlier?(done)
                progress(ProgressEvent(phase: .importing, done: done, total: total))
            }
        }
        progress?(ProgressEvent(phase: .importing, done: 0, total: total, bytes: 0))
        do {
            let plan = try importer.run(source, into: &destination)
            try Cancellation.checkpoint()
            try destination.commit()
            progress?(ProgressEvent(phase: .importing, done: total, total: total, bytes: bytes))
            return plan
        } catch {
            try destination.rollback()
            throw error
        }
    }
}
