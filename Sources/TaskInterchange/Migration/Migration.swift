/// The whole in-app migration in one call: a backup of the legacy store, validation, the import into the
/// destination, and its verification, reported stage by stage for a progress view.
///
/// ```swift
/// let migration = Migration(legacyStore: legacyURL.path, backupDirectory: backupsURL.path)
/// let report = try await migration.run(into: { try SwiftDataTaskDestination(container: container) }) { event in
///     if case .stage(let stage) = event { print(stage) }
/// }
/// ```
///
/// - The backup is one committed state of the legacy store, taken while the app may still write to it (its `-wal`
///   included), as one self-contained SQLite file in `backupDirectory`; the legacy store's files are not changed.
/// - Everything after it reads the backup, so what is migrated is exactly what the backup holds.
/// - The mapping's `modelChange` is checked against both models, and a new store's path, before the backup is made.
/// - On failure or cancellation the destination is left as it was (a new store is not created; a destination's
///   `rollback()` undoes what was written), and `MigrationError` says at which stage and where the backup is. The
///   backup stays when the destination had been written; a failure before that removes it.
public struct Migration: Sendable {
    /// Where the migration is; `completed` and `failed` end it.
    public enum Stage: String, Sendable, Hashable, Codable, CaseIterable {
        /// Copying the legacy store to the backup file.
        case preparingBackup
        /// Exporting the backup and validating the archive.
        case validating
        /// Writing the graph into the destination.
        case migrating
        /// Comparing the destination with the archive.
        case verifying
        /// Everything succeeded.
        case completed
        /// A stage failed; the destination is as it was.
        case failed
    }

    /// What a migration reports as it runs, in order: each stage as it starts, with progress events between.
    public enum Event: Sendable, Hashable {
        /// A stage started (or, for `completed` and `failed`, the migration ended).
        case stage(Stage)
        /// Progress within the current stage.
        case progress(ProgressEvent)
    }

    /// The legacy Core Data store (its `-wal` and `-shm` beside it).
    public var legacyStore: String
    /// The directory the backup is written to (made when missing; its parent must exist).
    public var backupDirectory: String
    /// How the legacy store's entities map to the interchange; detected when nil.
    public var mapping: StoreMapping?
    /// How to name the mapping in errors (its file path).
    public var mappingSource = "mapping"
    /// For a store destination: create it with this template's schema and metadata instead of the built-in model
    /// (`StoreTemplate(model:)` with the app's compiled model, `StoreTemplate(modelFrom:version:)` with a file).
    public var template: StoreTemplate?
    /// The model of the version that wrote the legacy store, for a store that keeps no model cache: its property
    /// names and types (the cache's are used when nil).
    public var legacyModel: ObjectModel?
    /// The app's model versions in order, for a store destination made from `template`: the legacy store's records
    /// are carried through every version between `legacyModel` and the template's, step by step (the report's
    /// `versionMapping.steps`), so renames chained across versions are followed; nil maps the two versions directly.
    public var modelVersions: ModelVersionOrder?
    /// Set when the legacy store is read with its own model (its model cache, `legacyModel` nil) because no version of
    /// the app's model wrote it: the report says so, as the plan rests on it.
    public var ownModel: MigrationReport.OwnModel?
    /// How long to wait for another process's lock on a store, in milliseconds.
    public var busyTimeout: Int32 = 5_000
    /// For a store destination: run every stage but keep nothing — the backup is a private copy, the new store is
    /// built and discarded, and there is nothing to verify; the report's plan says what the migration would do.
    public var dryRun = false
    /// Called with a new store's path between its import and its verification: tests change the store there.
    var beforeVerifying: (@Sendable (String) throws -> Void)?

    /// Creates a migration of `legacyStore` that backs it up into `backupDirectory`.
    public init(legacyStore: String, backupDirectory: String) {
        self.legacyStore = legacyStore
        self.backupDirectory = backupDirectory
    }
}
