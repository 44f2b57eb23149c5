import Foundation

/// Options of an import into a Core Data store.
public struct StoreImportOptions: Sendable {
    /// What to do with ids that already exist.
    public var mode: ImportMode = .insert
    /// Run the whole import on a private copy of the target (or a new store that is then discarded) and report its
    /// plan: it fails exactly when, and as, the import would; the target is not written.
    public var dryRun = false
    /// Copy the target here (online backup API) before writing.
    public var backupPath: String?
    /// How the target's entities map to the interchange; detected when nil.
    public var mapping: StoreMapping?
    /// How to name the mapping in errors.
    public var mappingSource = "mapping"
    /// Create a new store with this template's schema and metadata (instead of the built-in model).
    public var template: StoreTemplate?
    /// For an existing store that keeps no model cache (one made from a model): the app's model, so its property
    /// names, types and externally stored attributes are known.
    public var targetModel: ObjectModel?
    /// The model version the archive was exported with, when known (a migration knows it): it confirms changes
    /// between the versions that the archive alone cannot show (see `VersionMapping`).
    public var sourceModel: ObjectModel?
    /// The app's model versions in order: an archive of an older version than the target's is carried through every
    /// version between them, step by step (see `VersionMapping.inferred`).
    public var modelVersions: ModelVersionOrder?
    /// How long to wait for another process's lock before giving up, in milliseconds.
    public var busyTimeout: Int32 = 5_000
    /// The most validation issues listed in a report.
    public var maxIssues = 100
    /// Called with the number of tasks imported so far.
    public var progress: (@Sendable (Int) -> Void)?
    /// Pair archive records whose id the target lacks with target records by key (a ``MatchRule``).
    public var match: MatchRule?
    /// Where ``ImportMode/merge`` finds modification dates.
    public var modificationDates = ModificationDates()
    /// Restore identity (new stores only): the store takes the archive's store UUID and every generic record its
    /// key, so object URIs and derived ids are the source's.
    public var keepIdentity = false
    /// Fail, writing nothing, when the target has no place for some generic records or values.
    public var strict = false
    /// Load only these kinds; nil for all. See ``Importer/kinds``.
    public var kinds: Set<RecordKind>?
    /// Load only the kinds read from these source entities; nil for all. See ``Importer/entities``.
    public var entities: Set<String>?
    /// The store whose external data directory holds the target's externally stored values, when not the target
    /// file itself (a dry run imports into a private copy of it).
    var externalDataStore: String?
    /// Refuse a store that exists: a migration's target must be new, and another process may make it meanwhile.
    var newStoreRefusal: String?
    /// A new store without a template is made from the archive's model declarations, and refused when none of the
    /// archive's records would reach it. A migration turns this off: its target is the built-in model (or its
    /// template), and its own stage names a destination without the archive's entities.
    var newStoreFromDeclarations = true
    /// A new store gets no permission this file does not grant: a migration's store holds the legacy store's data.
    var permissionsOf: String?
    /// A new store is handed over here, complete but not yet at its path, instead of placed (a migration verifies
    /// it first; see ``PendingStore``).
    var pendingStore: PendingStore.Slot?

    /// Default options: insert mode, no backup, detected mapping.
    public init() {}
}

/// What an import did; its `description` is the import's summary for people, its `Codable` form one for programs
/// (without `versionMapping`, whose effect `modelChange` reports).
public struct StoreImportResult: Sendable, Codable {
    /// Operations per kind (a dry run's would-be operations).
    public var plan: ImportPlan
    /// The validation that ran first.
    public var report: ValidationReport
    /// Things the user should know about the target.
    public var warnings: [String]
    /// True when the import created a new store file.
    public var createdStore: Bool
    /// How the archive's records became records of the target's model version, when the versions differ.
    public var versionMapping: VersionMapping?
    /// What that change of model version did, when the versions differ.
    public var modelChange: ModelChangeReport?
    /// The store imported into.
    public var store = ""
    /// The import's mode.
    public var mode = ImportMode.insert
    /// True for a dry run (``StoreImportOptions/dryRun``): nothing was written.
    public var dryRun = false
    /// Wall-clock seconds the import took.
    public var seconds = 0.0

    private enum CodingKeys: String, CodingKey {
        case plan, report, warnings, createdStore, modelChange, store, mode, dryRun, seconds
    }
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
///
/// An existing store is opened and locked with `BEGIN IMMEDIATE` before anything is read from it, so the ids that
/// validation checks, the keys handed out and the entities written to are those of the state the transaction
/// commits over: two imports into one store behave as if run one after the other. A dry run is the same import
/// run on a private copy of the target (or a new store built beside it) that is then discarded, so it fails
/// exactly when, and as, the import would.
public enum StoreImport {
    /// Runs the import.
    /// - Throws: `ArchiveValidationError` when the archive is invalid (nothing written); `TaskInterchangeError` for
    ///   store and file problems (`.busy` when the store is locked, `.usage` when ``StoreImportOptions/backupPath`` or the store names the
    ///   input or the store itself, `.cancelled` when stopped: everything is rolled back).
    public static func run(_ source: some ArchiveSource, into path: String, options: StoreImportOptions) throws
        -> StoreImportResult
    {
        try runMeasured(source, into: path, options: options)
    }

    /// Runs the import of a file or stdin, as `run(_:into:options:)` does any source. Called with the file, this
    /// runs code compiled for it: through the generic entry point, another module's call goes through the generic
    /// code, resolving every record's types at run time.
    /// - Throws: as `run(_:into:options:)`.
    public static func run(_ input: ArchiveInput, into path: String, options: StoreImportOptions) throws
        -> StoreImportResult
    {
        try runMeasured(input, into: path, options: options)
    }

    /// The import, with what `run` reports beside it.
    private static func runMeasured(_ source: some ArchiveSource, into path: String, options: StoreImportOptions)
        throws -> StoreImportResult
    {
        let started = Date()
        var result = try perform(source, into: path, options: options)
        result.store = path
        result.mode = options.mode
        result.dryRun = options.dryRun
        if let mapping = result.versionMapping {
            result.modelChange = mapping.report(result.plan.modelChange)
            let renamed = mapping.identityNames
            if !renamed.isEmpty {
                result.plan.renamedEntities = Dictionary(uniqueKeysWithValues: renamed.map { ($1, $0) })
            }
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// The import `run` reports.
    private static func perform(_ source: some ArchiveSource, into path: String, options: StoreImportOptions) throws
        -> StoreImportResult
    {
        if options.mode == .replace, options.kinds != nil || options.entities != nil {
            throw TaskInterchangeError(
                .usage,
                "\(setting: .mode, "replace") removes every record of the target's kinds; with \(setting: .importKinds) or "
                    + "\(setting: .importEntities) it would delete records this import does not load")
        }
        let inputs = [(source as? ArchiveInput)?.path].compactMap { $0 }
        for input in inputs where FileIdentity(input) == FileIdentity(path) {
            throw TaskInterchangeError(
                .usage, "\(setting: .importTarget) \(path) names the input file; refusing to import into it")
        }
        if let backupPath = options.backupPath {
            try FileIdentity.checkOutput(backupPath, setting: .backupPath, store: path, inputs: inputs)
            if access(backupPath, F_OK) == 0 {
                throw TaskInterchangeError(
                    .cannotCreate, "\(backupPath): the backup file already exists; choose a new path")
            }
        }
        let header = try source.header()
        try checkNames(against: header, options: options)
        let declared = declaredProperties(header: header, options: options)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw TaskInterchangeError(.cannotCreate, "\(path): is a directory, not a store file")
        }
        guard exists else {
            try TemporaryFile.checkNoSidecars(of: path)
            var options = options
            let declaredModel = options.template == nil && options.newStoreFromDeclarations
            if declaredModel { options.template = try newStoreTemplate(header) }
            var result = try importIntoNew(source, path: path, options: options, declared: declared)
            if declaredModel && options.template != nil {
                result.warnings.insert(contentsOf: declaredModelWarnings(header), at: 0)
            }
            return result
        }
        if let refusal = options.newStoreRefusal { throw TaskInterchangeError(.cannotCreate, "\(path): \(refusal)") }
        if options.keepIdentity {
            throw TaskInterchangeError(
                .usage,
                "\(path): already exists; \(setting: .keepIdentity) restores into a new store only")
        }
        guard options.template == nil else {
            throw TaskInterchangeError(
                .cannotCreate, "\(path): already exists; a template (\(setting: .template)) only shapes a new store")
        }
        _ = try StoreCopy.header(of: FileIdentity.resolved(path), naming: path)
        try checkWritable(path)
        guard options.dryRun else {
            return try importIntoExisting(source, path: path, options: options, declared: declared)
        }
        let directory = try PrivateDirectory(purpose: .dryRun)
        let copy = try StoreCopy.copyUnderWriteLock(path, into: directory, busyTimeout: options.busyTimeout)
        var onCopy = options
        onCopy.backupPath = nil
        onCopy.externalDataStore = path
        do {
            var result = try importIntoExisting(
                source, path: copy.path, options: onCopy, declared: declared)
            result.warnings = result.warnings.map { $0.replacingOccurrences(of: copy.path, with: path) }
            return result
        } catch let error as TaskInterchangeError {
            throw error.mapText { $0.replacingOccurrences(of: copy.path, with: path) }
        }
    }

    /// The references a partial import dropped, said as a warning.
    static func droppedWarning(_ plan: ImportPlan) -> [String] {
        guard let dropped = plan.droppedReferences, dropped > 0 else { return [] }
        return [
            "\(dropped) reference\(dropped == 1 ? "" : "s") to records this import did not load "
                + "and the target does not have \(dropped == 1 ? "was" : "were") dropped"
        ]
    }

    static func validate(_ source: some ArchiveSource, existing: Validator.ExistingIDs?, options: StoreImportOptions)
        throws -> ValidationReport
    {
        var validator = Validator(maxIssues: options.maxIssues, existing: existing)
        try source.stream(kinds: nil, into: &validator)
        let report = validator.report
        guard report.isValid else { throw ArchiveValidationError(report: report) }
        return report
    }

    /// With `strict`, records or values the target has no place for (generic records and values, and `unplaced`:
    /// the typed records' extra values and mapped fields) fail the import (inside its transaction, so nothing is
    /// written).
    static func checkLacking(_ plan: ImportPlan, unplaced: [String: Int], options: StoreImportOptions) throws {
        let lacking = plan.lacking.merging(unplaced, uniquingKeysWith: +)
            .merging(plan.modelChange.droppedRecords, uniquingKeysWith: +)
            .merging(plan.modelChange.droppedValues, uniquingKeysWith: +)
        guard options.strict, !lacking.isEmpty else { return }
        let list = lacking.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        throw TaskInterchangeError(
            .invalidData, "\(setting: .strict): the target has no place for \(list); nothing was written")
    }

    /// Warnings for the generic records and values the target had no place for.
    /// One warning per `--match` key that left records unmatched because their values are not unique.
    static func ambiguityWarnings(_ plan: ImportPlan) -> [String] {
        plan.ambiguousMatches.sorted { $0.key < $1.key }.map { key, ambiguity in
            let plural = ambiguity.records == 1 ? "" : "s"
            return TaskInterchangeError.Setting.match.name
                + " \(key): \(ambiguity.records) archive record\(plural) not matched (imported as new) "
                + "because "
                + "their value is not unique: \(ambiguity.values.joined(separator: ", "))"
                + (ambiguity.values.count == ImportPlan.AmbiguousMatch.shown ? ", …" : "")
        }
    }

    static func lackingWarnings(_ plan: ImportPlan, modelKnown: Bool = true) -> [String] {
        let warnings = plan.lacking.sorted { $0.key < $1.key }.map { name, count in
            let plural = count == 1 ? "" : "s"
            if name.hasPrefix("tables.") {
                return "table \(name.dropFirst(7)): the destination has no place for tables outside the model; "
                    + "\(count) row\(plural) not imported"
            }
            return name.contains(".")
                ? "\(name): the target has no such property; \(count) value\(plural) not imported"
                : "\(name): the target has no such entity; \(count) record\(plural) not imported"
        }
        guard !modelKnown, !warnings.isEmpty else { return warnings }
        // A store without a model cache is read by its columns' names: the app's model names its properties.
        return warnings + [
            "the target keeps no model cache, so its properties are known only by their columns' names; "
                + "\(TaskInterchangeError.Setting.targetModel.name) (the app's model) names and types them"
        ]
    }

    /// An existing store must take writes where it is: a read-only file, sidecar or directory (a read-only mount, say)
    /// is refused before SQLite opens it, so no `-wal`/`-shm` is left behind by a write that cannot happen.
    static func checkWritable(_ path: String) throws(TaskInterchangeError) {
        let resolved = FileIdentity.resolved(path)
        let directory = URL(fileURLWithPath: resolved).deletingLastPathComponent().path
        for (file, what) in [
            (resolved, "the store"), (resolved + "-wal", "its -wal file"), (resolved + "-shm", "its -shm file"),
            (directory, "its directory (SQLite creates its journal there)"),
        ] {
            guard file == directory || access(file, F_OK) == 0 else { continue }
            if access(file, W_OK) != 0 {
                throw TaskInterchangeError(
                    .cannotCreate,
                    "\(path): cannot write \(what): \(String(cString: strerror(errno))); nothing was written")
            }
        }
    }

    /// `declared`: the archive's declared attributes, when `--modified-property` is still to check.
    static func importIntoExisting(
        _ source: some ArchiveSource, path: String, options: StoreImportOptions,
        declared: [KnownProperty]?
    ) throws -> StoreImportResult {
        // What the archive alone can show is checked before the store is opened, so an invalid file never touches it.
        let report = try validate(source, existing: nil, options: options)
        if options.mode == .replace, let selection = report.selection {
            throw TaskInterchangeError(
                .usage,
                "the archive holds part of a store (exported with \(selection)); \(setting: .mode, "replace") "
                    + "would delete every record it does not hold; use \(setting: .mode, "upsert", "merge")")
        }
        // The writer takes the write lock before reading anything; the id checks then run in the import's own passes,
        // against the state the transaction writes over.
        let writer = try StoreWriter(
            path: path, create: false, mapping: options.mapping, mappingSource: options.mappingSource,
            busyTimeout: options.busyTimeout, model: options.targetModel,
            configuration: .init(existingExternalData: options.externalDataStore))
        try checkModifiedProperty(options, declared: declared, source: source, target: writer)
        let existing = Validator.ExistingIDs(existingIsError: options.mode == .insert, contains: writer.existingLookup)
        if let backupPath = options.backupPath { try writer.backup(to: backupPath) }
        var importer = Importer(options)
        var settings = StoreWriter.ArchiveSettings()
        let modelChange = try modelChange(source, target: writer, options: options, settling: &settings)
        importer.versionMapping = modelChange?.mapping
        try settings.noteDeclarations(of: source, mapping: importer.versionMapping)
        try writer.settle(settings)
        var validator = Validator(maxIssues: options.maxIssues, existing: existing)
        validator.extraTypes = writer.extraAttributeTypes
        let archiveStore = try source.header()?.source?.storeUUID
        // Only an archive of another store can leave the target's generic records unrecognized.
        let heldBefore =
            options.mode != .replace && archiveStore != writer.schema.storeUUID ? try writer.genericRowCounts() : [:]
        // After a model change the archive's inverses are the old version's names: the mapping follows them.
        if importer.versionMapping == nil { validator.targetRelationships = writer.relationshipNames }
        var destination = writer
        let plan: ImportPlan
        do {
            plan = try writer.transaction {
                var options = options
                options.modificationDates.mappedProperties = Set(
                    [StoreMapping.Kind.project, .task].compactMap {
                        writer.resolved.mapping[$0]?.property(for: "modifiedAt")?.lowercased()
                    })
                let plan = try importer.leavingUnchanged(source, in: path, options: options, modelChange: modelChange)
                    .run(source, into: &destination, validatingWith: &validator)
                guard validator.report.isValid else { throw ArchiveValidationError(report: validator.report) }
                try checkArrived(plan, mapping: importer.versionMapping)
                try checkLacking(plan, unplaced: writer.unplaced, options: options)
                return plan
            }
        } catch let error as TaskInterchangeError where error.kind == .cancelled || error.kind == .usage {
            // Not a problem of the archive's data: a full validation would only bury it.
            throw error
        } catch {
            // Stopped early (or invalid): the full validation gives the complete report, with every problem.
            _ = try validate(source, existing: existing, options: options)
            throw error
        }
        var warnings =
            writer.warnings + modelChangeWarnings(plan, mapping: importer.versionMapping)
            + lackingWarnings(plan, modelKnown: writer.targetModel != nil)
            + ambiguityWarnings(plan)
            + droppedWarning(plan)
            + identityWarnings(
                plan, heldBefore: heldBefore, archiveStore: archiveStore,
                targetStore: writer.schema.storeUUID, options: options)
        if plan.unlinked > 0 {
            warnings.append(
                "skip mode: \(plan.unlinked) relationship value\(plan.unlinked == 1 ? "" : "s") under extra not linked "
                    + "(objects left as they were keep their to-one relationships; "
                    + "links to records not imported are dropped)"
            )
        }
        return StoreImportResult(
            plan: plan, report: validator.report, warnings: warnings, createdStore: false,
            versionMapping: importer.versionMapping)
    }

    /// `declared`: as for `importIntoExisting`.
    static func importIntoNew(
        _ source: some ArchiveSource, path: String, options: StoreImportOptions,
        declared: [KnownProperty]?
    ) throws -> StoreImportResult {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TaskInterchangeError(
                .cannotCreate, "\(path): cannot create the store: the directory \(directory) does not exist")
        }
        var importer = Importer(options)
        let temporary = try TemporaryFile(beside: path)
        if let source = options.permissionsOf { temporary.restrictPermissions(to: source) }
        let plan: ImportPlan
        let warnings: [String]
        var validator = Validator(maxIssues: options.maxIssues)
        var external: ExternalDataWriter?
        do {
            // Validation runs in the import's own passes: the store is a private temporary file until it is moved into
            // place, so an archive found invalid half-way leaves nothing behind.
            let writer = try StoreWriter(
                path: temporary.path, create: true, template: options.template, mapping: options.mapping,
                mappingSource: options.mappingSource, busyTimeout: options.busyTimeout,
                configuration: .init(externalStore: path, keepIdentity: options.keepIdentity))
            external = writer.externalDataWriter
            try checkModifiedProperty(options, declared: declared, source: source, target: writer)
            var settings = StoreWriter.ArchiveSettings()
            importer.versionMapping = try modelChange(source, target: writer, options: options, settling: &settings)?
                .mapping
            try settings.noteDeclarations(of: source, mapping: importer.versionMapping)
            try writer.settle(settings)
            if options.keepIdentity {
                guard let source = try source.header()?.source, let uuid = source.storeUUID,
                    UUID(uuidString: uuid) != nil
                else {
                    throw TaskInterchangeError(
                        .invalidData,
                        "\(setting: .keepIdentity): the archive names no source store UUID ($.source.storeUUID must be a UUID)"
                    )
                }
                try writer.adoptIdentity(
                    storeUUID: uuid, maxKeys: writer.targetMaxKeys(of: source, mapping: importer.versionMapping))
            }
            validator.extraTypes = writer.extraAttributeTypes
            if importer.versionMapping == nil { validator.targetRelationships = writer.relationshipNames }
            var destination = writer
            let mapping = importer.versionMapping
            plan = try writer.transaction {
                let plan = try importer.run(source, into: &destination, validatingWith: &validator)
                guard validator.report.isValid else { throw ArchiveValidationError(report: validator.report) }
                try checkArrived(plan, mapping: mapping)
                try checkLacking(plan, unplaced: writer.unplaced, options: options)
                if options.newStoreFromDeclarations { try checkAnythingArrived(plan) }
                return plan
            }
            warnings =
                (writer.warnings + modelChangeWarnings(plan, mapping: importer.versionMapping)
                + lackingWarnings(plan, modelKnown: writer.targetModel != nil)
                + ambiguityWarnings(plan))
                .map { $0.replacingOccurrences(of: temporary.path, with: path) }
                + droppedWarning(plan)
        } catch let error as TaskInterchangeError {
            // Name the store the user asked for, not the hidden temporary file it is built in.
            let named = error.mapText { $0.replacingOccurrences(of: temporary.path, with: path) }
            if error.kind != .cancelled && error.kind != .usage {
                _ = try validate(source, existing: nil, options: options)
            }
            throw named
        } catch {
            // Stopped early (or invalid): the full validation gives the complete report, with every problem.
            _ = try validate(source, existing: nil, options: options)
            throw error
        }
        // The writer is closed here, so its WAL has been checkpointed into the file. A dry run discards the store.
        if options.dryRun {
            external?.discard()
        } else {
            let store = PendingStore(temporary, external: external, path: path)
            if let slot = options.pendingStore { slot.store = store } else { try store.place() }
        }
        return StoreImportResult(
            plan: plan, report: validator.report, warnings: warnings, createdStore: !options.dryRun,
            versionMapping: importer.versionMapping)
    }
}
