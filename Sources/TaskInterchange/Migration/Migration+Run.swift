import Foundation

extension Migration {
    /// Migrates into a new Core Data store at `path` (built from the built-in model, or `template`), synchronously.
    ///
    /// The store must not exist: it is built and verified in a temporary file and appears at `path` only when it
    /// holds what the legacy store held, as the migration's last step, so no process ever opens a store this
    /// migration would take back.
    /// - Throws: `MigrationError` (its `underlying` error says what failed: `.cannotCreate` when `path` exists or
    ///   names the legacy store, `.cancelled` when stopped).
    public func run(intoStore path: String, events: (@Sendable (Event) -> Void)? = nil) throws -> MigrationReport {
        let pending = PendingStore.Slot()
        var imported: StoreImportResult?
        // The export's records are fingerprinted as the import reads them (through its model change, if any): the
        // verification then reads only the new store, and the backup again only when a fingerprint differs.
        let digests = dryRun ? nil : DigestLog()
        var report = try perform(
            events: events, newStore: access(path, F_OK) == 0 ? nil : path, validatesWhileMigrating: true,
            checkDestination: {
                try checkNewStore(path)
            },
            migrate: { input, _, backup, progress in
                var options = StoreImportOptions()
                options.template = template
                options.mapping = template == nil ? nil : mapping
                options.mappingSource = mappingSource
                options.busyTimeout = busyTimeout
                options.dryRun = dryRun
                options.newStoreRefusal = Self.targetExists
                options.newStoreFromDeclarations = false
                options.permissionsOf = legacyStore
                options.pendingStore = pending
                // A store made from the app's model is the legacy store's next version: like Core Data's own
                // migration it keeps the store's UUID and every object its key, so object URIs and ids stay the same.
                options.keepIdentity = template != nil
                options.modelVersions = template == nil ? nil : modelVersions
                // The backup is this migration's own file: read in place, its model cache is the legacy version.
                if template != nil {
                    options.sourceModel =
                        legacyModel
                        ?? (try? Database(path: backup, mode: .readOnly(immutable: true))).flatMap {
                            try? ObjectModel(modelCacheIn: $0, path: backup)
                        }
                }
                input.fingerprints = digests
                // Only the reads that feed the import are fingerprinted (not a full comparison's read again).
                defer { input.fingerprints = nil }
                let result = try StoreImport.reporting(
                    input, bytes: nil, into: path, options: options, progress: progress)
                imported = result
                return (result.plan, result.report)
            },
            verify: { input in
                guard let store = pending.store else {
                    throw TaskInterchangeError(.internal, "\(path): the import handed over no store to verify")
                }
                try beforeVerifying?(store.temporaryPath)
                let target = GraphSource.pending(
                    store, mapping: template == nil ? nil : mapping, model: template?.model)
                // Without a model change the new store reads as the backup did, by its model cache; through one,
                // with the app's model, as the fingerprints were taken.
                let read = digests?.change == nil && mapping == nil ? .pending(store, mapping: nil, model: nil) : target
                if let digests,
                    let verified = try GraphComparison.verify(digests: digests, name: "the archive", against: read)
                {
                    return verified
                }
                return try GraphComparison.verify(
                    .archive(input, name: "the archive"), against: target,
                    modelChange: mapping?.modelChange ?? ModelChangeOverrides(),
                    modelVersions: template == nil ? nil : modelVersions, versionMapping: imported?.versionMapping)
            },
            complete: {
                try pending.store?.place()
            },
            undo: {
                pending.store?.withdraw()
                pending.store = nil
            })
        report.destination = path
        report.versionMapping = imported?.versionMapping
        report.modelChange = imported?.modelChange
        report.warnings = imported?.warnings ?? []
        return report
    }

    /// Migrates into a new Core Data store at `path` as `run(intoStore:events:)` does, on a background queue: the
    /// caller's actor is never blocked, and cancelling the calling task stops the migration at its next checkpoint
    /// and leaves no store at `path`. `events` is called from that queue.
    /// - Throws: `MigrationError`.
    public func run(
        intoStore path: String,
        events: (@Sendable (Event) -> Void)? = nil
    ) async throws -> MigrationReport {
        try await Self.startingInBackground(events: events) { try run(intoStore: path, events: events) }
    }

    /// Migrates into the destination `makeDestination` creates (an app's SwiftData or Core Data context), on a
    /// background queue: the destination is made, written, committed, read back for verification and, on failure,
    /// rolled back on that queue's thread. Cancelling the calling task stops the migration at its next checkpoint
    /// and rolls the destination back. `events` is called from that queue.
    /// - Throws: `MigrationError`.
    public func run<Destination: ImportDestination & SendableMetatype>(
        into makeDestination: @escaping @Sendable () throws -> Destination,
        events: (@Sendable (Event) -> Void)? = nil
    ) async throws -> MigrationReport {
        try await Self.startingInBackground(events: events) { try run(into: makeDestination(), events: events) }
    }

    /// Migrates into `destination` on the calling thread (see `run(into:events:)`).
    func run<Destination: ImportDestination>(
        into destination: Destination,
        events: (@Sendable (Event) -> Void)?
    ) throws -> MigrationReport {
        var destination = destination
        var written = false
        return try perform(
            events: events, checkDestination: {},
            migrate: { input, report, _, progress in
                let plan = try Importer().run(
                    input, into: &destination, total: report?.counts.tasks ?? 0, bytes: nil, progress: progress)
                written = true
                return (plan, nil)
            },
            verify: { input in
                guard let contents = try destination.contents() else { return nil }
                return try GraphComparison.verify(
                    .archive(input, name: "the archive"), against: .records(contents, name: "the destination"))
            },
            complete: {},
            undo: {
                if written { try? destination.rollback() }
            })
    }

    /// Runs `work` on the background queue. A task cancelled before the work started (or a destination that could
    /// not be made) fails as the first stage does, so callers always get `MigrationError` and a `failed` event.
    private static func startingInBackground(
        events: (@Sendable (Event) -> Void)?,
        _ work: @escaping @Sendable () throws -> MigrationReport
    )
        async throws -> MigrationReport
    {
        do {
            return try await BackgroundWork.run(work)
        } catch let error as MigrationError {
            throw error
        } catch {
            events?(.stage(.failed))
            throw MigrationError(stage: .preparingBackup, backupPath: nil, underlying: error)
        }
    }
}
