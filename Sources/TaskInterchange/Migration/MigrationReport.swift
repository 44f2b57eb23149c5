/// What a completed migration did; its `description` is the migration's summary for people, its `Codable` form one
/// for programs (without `versionMapping`, whose effect `modelChange` reports).
public struct MigrationReport: Sendable, Codable {
    /// The legacy store was read with its own model (its model cache) because no version of the app's model wrote it.
    public struct OwnModel: Sendable, Hashable, Codable {
        /// How the report names the app's model (its file, say).
        public var modelName: String
        /// The version of it closest to the store's own model, when there is one.
        public var closest: String?
        /// Creates the note.
        public init(modelName: String, closest: String?) {
            self.modelName = modelName
            self.closest = closest
        }
    }

    /// The legacy store migrated.
    public var legacyStore = ""
    /// The destination: the new store's path, or `the destination` for an app's own.
    public var destination = "the destination"

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
    /// What that change of model version did, when the versions differ.
    public var modelChange: ModelChangeReport?
    /// Set when the legacy store was read with its own model (``Migration/ownModel``).
    public var ownModel: OwnModel?
    /// What the import reported about the target: values dropped by the model change, records it had no place for.
    public var warnings: [String] = []
    /// True for a dry run: nothing was written, no backup kept, nothing verified.
    public var dryRun = false
    /// Wall-clock seconds the migration took.
    public var seconds = 0.0

    /// How many times the backup was read: once for the import, once more when the verification had to read it.
    var backupReads = 0

    private enum CodingKeys: String, CodingKey {
        case legacyStore, destination, backupPath, export, validation, plan, verification, modelChange, ownModel
        case warnings, dryRun, seconds
    }
}
