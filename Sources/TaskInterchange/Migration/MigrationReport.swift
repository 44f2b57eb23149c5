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
}
