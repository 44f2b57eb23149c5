import Foundation

/// Options of an import into a Core Data store.
public struct StoreImportOptions: Sendable {
    /// What to do with ids that already exist.
    public var mode: ImportMode = .insert
    /// Validate against the target and compute the plan, without writing.
    public var dryRun = false
    /// Copy the target here (online backup API) before writing.
    public var backupPath: String?
    /// How the target's entities map to the interchange; detected when nil.
    public var mapping: StoreMapping?
    /// How to name the mapping in errors.
    public var mappingSource = "mapping"
    /// Create a new store with this template's schema and metadata (instead of the built-in model).
    public var template: StoreTemplate?
    /// How long to wait for another process's lock before giving up, in milliseconds.
    public var busyTimeout: Int32 = 5_000
    /// The most validation issues listed in a report.
    public var maxIssues = 100
    /// Called with the number of tasks imported so far.
    public var progress: (@Sendable (Int) -> Void)?
    /// Pair archive records whose id the target lacks with target records by key (`--match`).
    public var match: MatchRule?
    /// Where `--mode merge` finds modification dates.
    public var modificationDates = ModificationDates()

    /// Default options: insert mode, no backup, detected mapping.
    public init() {}
}

/// What an import did.
public struct StoreImportResult: Sendable {
    /// Operations per kind (a dry run's would-be operations).
    public var plan: ImportPlan
    /// The validation that ran first.
    public var report: ValidationReport
    /// Things the user should know about the target.
    public var warnings: [String]
    /// True when the import created a new store file.
    public var createdStore: Bool
}

/// The archive failed validation; nothing was written.
public struct ArchiveValidationError: Error, Sendable {
    /// Every problem found (capped) with counts.
    public var report: ValidationReport
    /// Creates the error.
    public init(report: ValidationReport) { self.report = report }
}

/// Imports an archive into a Core Data store file: validates first, then writes everything in one transaction or
/// nothing. A path that does not exist gets a new store, built in a temporary file and moved into place only when
/// complete.
public enum StoreImport {
    /// Runs the import.
    /// - Throws: `ArchiveValidationError` when the archive is invalid (nothing written); `TaskInterchangeError` for
    ///   store and file problems (`.busy` when the store is locked).
    public static func run(_ source: some ArchiveSource, into path: String, options: StoreImportOptions) throws -> StoreImportResult {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = manager.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue { throw TaskInterchangeError(.cannotCreate, "\(path): is a directory, not a store file") }
        if exists {
            guard options.template == nil else {
                throw TaskInterchangeError(.cannotCreate, "\(path): already exists; a template (--model-from) only shapes a new store")
            }
            return try importIntoExisting(source, path: path, options: options)
        }
        return try importIntoNew(source, path: path, options: options)
    }

    static func validate(_ source: some ArchiveSource, existing: Validator.ExistingIDs?, options: StoreImportOptions) throws -> ValidationReport {
        var validator = Validator(maxIssues: options.maxIssues, existing: existing)
        try source.stream(kinds: nil, into: &validator)
        let report = validator.report
        guard report.isValid else { throw ArchiveValidationError(report: report) }
        return report
    }

    static func importIntoExisting(_ source: some ArchiveSource, path: String, options: StoreImportOptions) throws -> StoreImportResult {
        // Validation and dry runs read through a read-only snapshot, so a refused import leaves every file as it was.
        var planner = try StoreWriter(planningFor: path, mapping: options.mapping, mappingSource: options.mappingSource)
        let report = try validate(source, existing: Validator.ExistingIDs(ids: planner.existingIDs, existingIsError: options.mode == .insert),
                                  options: options)
        let importer = Importer(mode: options.mode, dryRun: options.dryRun, progress: options.progress)
        if options.dryRun {
            let plan = try importer.leavingUnchanged(source, in: path, options: options).run(source, into: &planner)
            return StoreImportResult(plan: plan, report: report, warnings: planner.warnings, createdStore: false)
        }
        let writer = try StoreWriter(path: path, create: false, mapping: options.mapping, mappingSource: options.mappingSource,
                                     busyTimeout: options.busyTimeout)
        var destination = writer
        if let backupPath = options.backupPath { try writer.backup(to: backupPath) }
        let plan = try writer.transaction {
            try importer.leavingUnchanged(source, in: path, options: options).run(source, into: &destination)
        }
        var warnings = writer.warnings
        if plan.unlinked > 0 {
            warnings.append("skip mode: \(plan.unlinked) relationship value\(plan.unlinked == 1 ? "" : "s") under extra not linked (objects left as they were keep their to-one relationships; links to records not imported are dropped)")
        }
        return StoreImportResult(plan: plan, report: report, warnings: warnings, createdStore: false)
    }

    static func importIntoNew(_ source: some ArchiveSource, path: String, options: StoreImportOptions) throws -> StoreImportResult {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TaskInterchangeError(.cannotCreate, "\(path): cannot create the store: the directory \(directory) does not exist")
        }
        let importer = Importer(mode: options.mode, dryRun: options.dryRun, progress: options.progress)
        if options.dryRun {
            let report = try validate(source, existing: nil, options: options)
            var plan = ImportPlan()
            let counts = report.counts
            plan[.project].inserted = counts.projects
            plan[.category].inserted = counts.categories
            plan[.tag].inserted = counts.tags
            plan[.task].inserted = counts.tasks
            plan[.subtask].inserted = counts.subtasks
            return StoreImportResult(plan: plan, report: report, warnings: [], createdStore: false)
        }
        let temporary = directory + "/." + url.lastPathComponent + ".tasks-" + UUID().uuidString
        defer { removeStoreFiles(temporary) }
        let plan: ImportPlan
        let warnings: [String]
        var validator = Validator(maxIssues: options.maxIssues)
        do {
            // Validation runs in the import's own passes: the store is a private temporary file until it is moved into
            // place, so an archive found invalid half-way leaves nothing behind.
            let writer: StoreWriter
            do {
                writer = try StoreWriter(path: temporary, create: true, template: options.template, mapping: options.mapping,
                                         mappingSource: options.mappingSource, busyTimeout: options.busyTimeout)
            } catch {
                // Name the store the user asked for, not the hidden temporary file it is built in.
                throw TaskInterchangeError(error.kind, error.message.replacingOccurrences(of: temporary, with: path))
            }
            var destination = writer
            plan = try writer.transaction {
                let plan = try importer.run(source, into: &destination, validatingWith: &validator)
                guard validator.report.isValid else { throw ArchiveValidationError(report: validator.report) }
                return plan
            }
            warnings = writer.warnings
        } catch {
            // Stopped early (or invalid): the full validation gives the complete report, with every problem.
            _ = try validate(source, existing: nil, options: options)
            throw error
        }
        let report = validator.report
        // The writer is closed here, so its WAL has been checkpointed into the file; link() refuses to replace a file
        // that appeared at `path` meanwhile.
        if link(temporary, path) != 0 {
            // Filesystems without hard links: fall back to rename, still refusing to replace an existing file.
            let linkError = errno
            guard linkError != EEXIST, !FileManager.default.fileExists(atPath: path), rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(linkError == EEXIST ? EEXIST : errno))
                throw TaskInterchangeError(.cannotCreate, "\(path): cannot create the store: \(reason)")
            }
        }
        return StoreImportResult(plan: plan, report: report, warnings: warnings, createdStore: true)
    }

    static func removeStoreFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
