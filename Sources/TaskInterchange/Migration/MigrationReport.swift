/// What a completed migration did.
public struct MigrationReport: Sendable {
    /// The backup of the legacy store (one SQLite file holding its committed state).
    public var backupPath: String
    /// The export of the backup: counts and findings (data that could not be carried exactly).
    public var export: ExportSummary
    /// The validation of that export.
    public var validation: ValidationReport
    /// What the import wrote.
    public var plan: ImportPlan
    /// The destination compared with the archive; nil when the destination cannot be read back (its `contents()`
    /// returned nil), in which case nothing was verified.
    public var verification: GraphDiff?
    /// How the legacy store's records became records of the new store's model version, when the versions differ
    /// (what it dropped, filled and converted is in `plan.modelChange`).
    public var versionMapping: VersionMapping?
    /// What the import reported about the target: values dropped by the model change, records it had no place for.
    public var warnings: [String] = []
    /// True for a dry run: nothing was written, no backup kept, nothing verified.
    public var dryRun = false
}
