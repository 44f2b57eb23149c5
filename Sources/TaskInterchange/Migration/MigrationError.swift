/// A migration failed: the stage it failed in, where the backup is, and the error itself. The destination is as
/// it was before the migration; a new store was not created.
public struct MigrationError: Error, @unchecked Sendable, CustomStringConvertible {
    /// The stage that failed (never `completed` or `failed`).
    public var stage: Migration.Stage
    /// The backup of the legacy store, when it was made before the failure and kept.
    public var backupPath: String?
    /// True when a backup was made but removed again: the migration failed before it wrote anything.
    public var backupRemoved = false
    /// The path of the new store the migration was to create (nothing was created there), nil for a destination
    /// that existed before.
    public var newStore: String?
    /// What went wrong: `TaskInterchangeError` (`.cancelled` when cancelled), `ArchiveValidationError`, a verification
    /// failure (`TaskInterchangeError` of kind `.invalidData` with `verification` set), or the destination's error.
    /// The library's errors are values, hence the unchecked `Sendable`.
    public var underlying: any Error
    /// For a failed verification, the differences found.
    public var verification: GraphDiff?
    /// How many times the backup was read by the time verification ended (see `MigrationReport.backupReads`).
    var backupReads = 0

    /// The stage, the error, and the backup's location.
    public var description: String {
        let backup =
            backupPath.map { "; the backup of the legacy store is \($0)" }
            ?? (backupRemoved ? "; the backup made was removed, as nothing was written" : "; no backup was made")
        let destination = newStore.map { "no store was created at \($0)" } ?? "the destination is unchanged"
        return "migration failed while \(stage.rawValue): \(Self.describe(underlying)); \(destination)\(backup)"
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as TaskInterchangeError: return error.message
        case let error as ArchiveValidationError: return "the archive is invalid (\(error.report.errorCount) errors)"
        default: return String(describing: error)
        }
    }
}
