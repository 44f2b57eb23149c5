import Foundation

extension Migration {
    /// The stages in order around the destination-specific steps. `migrate` must leave the destination as it was
    /// when it throws; `complete` makes what it wrote, now verified, the destination's; `undo` takes back what
    /// `migrate` wrote (and `complete` made) once `migrate` has returned. A failure before `migrate` returned
    /// removes the backup this migration made: nothing was written that it would restore. `newStore` is the path a
    /// new store is made at when nothing is there, so a failure says nothing was created there rather than that it
    /// is as it was.
    ///
    /// No archive file is written: `migrate` and `verify` read the backup's export as it is read (`ExportStream`).
    /// With `validatesWhileMigrating`, `migrate` validates the records in its own passes (a store import does, into
    /// a private file) and returns that report, and the export streams into it, the store read on one core while
    /// the import writes on the other. Otherwise (a destination that keeps what it is given until it commits) the
    /// backup is read once to validate its records and again by `migrate`: no copy of them waits in memory.
    func perform(
        events: (@Sendable (Event) -> Void)?,
        newStore: String? = nil,
        validatesWhileMigrating: Bool = false,
        checkDestination: () throws -> Void,
        migrate: (ExportStream, ValidationReport?, String, (@Sendable (ProgressEvent) -> Void)?) throws -> (
            plan: ImportPlan, validation: ValidationReport?
        ),
        verify: (ExportStream) throws -> GraphDiff?,
        complete: () throws -> Void,
        undo: () -> Void
    ) throws -> MigrationReport {
        let started = Date()
        var progress: (@Sendable (ProgressEvent) -> Void)?
        if let events { progress = { event in events(.progress(event)) } }
        var stage = Stage.preparingBackup
        var backupPath: String?
        var migrated = false
        var failedVerification: GraphDiff?
        var backupReads = 0
        // A backup directory this migration makes is removed again with its backup, when nothing else went there.
        let madeBackupDirectory = !dryRun && access(backupDirectory, F_OK) != 0
        func enter(_ next: Stage) throws {
            try Cancellation.checkpoint()
            stage = next
            events?(.stage(next))
        }
        do {
            events?(.stage(stage))
            try checkDestination()
            try checkModelChange()
            let directory = try PrivateDirectory(purpose: .export)
            let backup =
                dryRun
                ? try StoreCopy.copy(legacyStore, into: directory, busyTimeout: busyTimeout).path
                : try makeBackup(in: directory, progress: progress)
            backupPath = backup
            try enter(.validating)
            var exportOptions = ExportOptions()
            exportOptions.mapping = mapping
            exportOptions.mappingSource = mappingSource
            exportOptions.sourceName = legacyStore
            exportOptions.busyTimeout = busyTimeout
            exportOptions.model = legacyModel
            // A backup carries the store's external files; a dry run's private copy does not, so it reads them
            // beside the legacy store.
            if dryRun { exportOptions.externalDataStore = legacyStore }
            if let progress {
                exportOptions.progress = { done, total in
                    progress(ProgressEvent(phase: .exporting, done: done, total: total))
                }
            }
            progress?(ProgressEvent(phase: .exporting, done: 0, total: nil, bytes: 0))
            // The backup is a self-contained file of this migration's own, read in place; a dry run's private copy
            // may keep its -wal beside it, so it is read as any store is.
            let records = try ExportStream(store: backup, options: exportOptions, inPlace: !dryRun)
            defer { records.stop() }
            var validated: ValidationReport?
            var export = records.summary
            if !validatesWhileMigrating {
                // Validated in a read of its own, then read again by the migration: no copy of the records is held
                // in memory beside what the destination keeps.
                // The read's own progress is the export's; the validation it carries is reported when it ends.
                var validator = Validator()
                try records.stream(kinds: nil, into: &validator)
                export = records.summary
                let report = validator.report
                progress?(ProgressEvent(phase: .validating, done: 0, total: report.counts.tasks))
                progress?(ProgressEvent(phase: .validating, done: report.counts.tasks, total: report.counts.tasks))
                guard report.isValid else { throw ArchiveValidationError(report: report) }
                validated = report
            }
            try enter(.migrating)
            let (plan, validatedWhileMigrating) = try migrate(records, validated, backup, progress)
            migrated = true
            export = export ?? records.summary
            guard let validation = validated ?? validatedWhileMigrating, let export else {
                throw TaskInterchangeError(
                    .internal, "the migration wrote its destination without validating every exported record")
            }
            try enter(.verifying)
            progress?(ProgressEvent(phase: .verifying, done: 0, total: validation.counts.tasks))
            let verification = dryRun ? nil : try verify(records)
            backupReads = records.reads
            if let verification, !verification.isEqual {
                failedVerification = verification
                throw TaskInterchangeError(
                    .invalidData,
                    verification.comparedNothing
                        ? "the destination has none of the entities of the archive's "
                            + "\(verification.uncomparedRecords) records, so nothing was carried"
                        : "the destination does not hold what the archive holds "
                            + "(\(verification.differenceCount) differing records)")
            }
            progress?(ProgressEvent(phase: .verifying, done: validation.counts.tasks, total: validation.counts.tasks))
            try Cancellation.checkpoint()
            try complete()
            events?(.stage(.completed))
            var report = MigrationReport(
                backupPath: dryRun ? "" : backup, export: export, validation: validation, plan: plan,
                verification: verification, dryRun: dryRun)
            report.legacyStore = legacyStore
            report.ownModel = ownModel
            report.seconds = Date().timeIntervalSince(started)
            report.backupReads = backupReads
            return report
        } catch {
            if migrated { undo() }
            var removed = false
            if !migrated, !dryRun, let backup = backupPath {
                Self.removeBackup(backup)
                backupPath = nil
                removed = true
            }
            if backupPath == nil, madeBackupDirectory { rmdir(backupDirectory) }
            events?(.stage(.failed))
            var failure = MigrationError(
                stage: stage, backupPath: backupPath, underlying: error,
                verification: failedVerification)
            failure.backupRemoved = removed
            failure.newStore = newStore
            failure.backupReads = backupReads
            throw failure
        }
    }

    /// The mapping's `modelChange` checked against the legacy model and the template's before anything is made: an
    /// override naming what neither has fails here, not after the backup. Other refusals come from the records
    /// themselves, and are the import's to report.
    func checkModelChange() throws {
        guard let target = template?.model, let overrides = mapping?.modelChange, !overrides.isEmpty else { return }
        let source =
            legacyModel
            ?? (try? Database(path: legacyStore, mode: .readOnly(immutable: false), busyTimeout: busyTimeout))
            .flatMap { try? ObjectModel(modelCacheIn: $0, path: legacyStore) }
        guard let source else { return }
        do {
            _ = try VersionMapping.inferred(
                from: source.entityDeclarations, to: target, versions: modelVersions, overrides: overrides,
                sourceModel: source)
        } catch  where error.kind == .usage {
            throw TaskInterchangeError(error.kind, "\(mappingSource): \(error.message)")
        } catch {
            return
        }
    }

    /// Removes a backup this migration made, with its sidecars and external files.
    static func removeBackup(_ path: String) {
        DatabaseFiles.remove(path)
        try? FileManager.default.removeItem(atPath: ExternalDataBackup.supportDirectory(of: path))
    }

    /// Why a migration refuses a target that exists, before it starts or when another process made it meanwhile.
    static let targetExists = "already exists; a migration creates a new store (remove it or choose another path)"

    /// A new store's path must be free, in an existing directory, and name neither the legacy store nor its sidecars.
    func checkNewStore(_ path: String) throws {
        try FileIdentity.checkOutput(path, setting: .migrationTarget, store: legacyStore)
        // A symbolic link counts as there even when it leads nowhere: the store would be made through it.
        var entry = stat()
        if lstat(path, &entry) == 0 {
            let isLink = entry.st_mode & S_IFMT == S_IFLNK
            throw TaskInterchangeError(
                .cannotCreate,
                isLink
                    ? "\(path): a symbolic link is there; a migration creates a new store (remove it or choose another path)"
                    : "\(path): \(Self.targetExists)")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TaskInterchangeError(.cannotCreate, "\(path): the directory \(directory) does not exist")
        }
    }

    /// Copies one committed state of the legacy store (its `-wal` included; when no writer changes it meanwhile, none
    /// of its files changes) into a new file in `backupDirectory`, which appears only when complete, with the legacy
    /// store's permissions at most. Returns its path.
    func makeBackup(
        in directory: PrivateDirectory,
        progress: (@Sendable (ProgressEvent) -> Void)?
    ) throws -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: backupDirectory, isDirectory: &isDirectory) {
            // Made when missing, as long as its parent exists: a mistyped path deep down is not silently created.
            guard mkdir(backupDirectory, 0o755) == 0 else {
                throw TaskInterchangeError(
                    .cannotCreate,
                    "\(backupDirectory): cannot create the backup directory: \(String(cString: strerror(errno)))")
            }
        } else if !isDirectory.boolValue {
            throw TaskInterchangeError(.cannotCreate, "\(backupDirectory): not a directory")
        }
        progress?(ProgressEvent(phase: .backingUp, done: 0, total: 1, bytes: 0))
        let date = Date()
        let first = backupDirectory + "/" + Self.backupName(for: legacyStore, at: date)
        try FileIdentity.checkOutput(first, setting: .migrationBackup, store: legacyStore)
        let temporary = try TemporaryFile(beside: first)
        temporary.restrictPermissions(to: legacyStore)
        // One page copy of the legacy store straight into the backup's temporary file (through a private snapshot
        // only when the store cannot be read in place).
        try StoreCopy.pageCopy(
            legacyStore, to: temporary.path, naming: first, via: directory, busyTimeout: busyTimeout)
        try temporary.synchronize(naming: first)
        // The legacy store's external files, gathered after its copy: Core Data adds and removes such files but
        // never changes one, so those the copy's rows name are there (unless the app removed one meanwhile).
        let files = try ExternalDataBackup(of: ExternalData(store: legacyStore), for: first)
        // Another migration may have taken the name in the same second (or take it while this one places its file):
        // the next free one is used, so every backup is kept.
        var attempt = 1
        while true {
            let path = backupDirectory + "/" + Self.backupName(for: legacyStore, at: date, attempt: attempt)
            try FileIdentity.checkOutput(path, setting: .migrationBackup, store: legacyStore)
            let taken =
                DatabaseFiles.suffixes.contains { access(path + $0, F_OK) == 0 }
                || access(ExternalDataBackup.supportDirectory(of: path), F_OK) == 0
            if !taken {
                // The external files go under the name first: a backup never appears without the files it points at.
                let placed = Result { () throws(TaskInterchangeError) in
                    try files?.place(for: path)
                    try temporary.place(at: path, replacing: false)
                }
                if case .success = placed {
                    files?.keep()
                    progress?(ProgressEvent(phase: .backingUp, done: 1, total: 1, bytes: FileIdentity.size(of: path)))
                    return path
                }
                files?.discard()
                // Taken since the check: the next name; any other failure is this one's.
                if case .failure(let error) = placed, access(path, F_OK) != 0,
                    access(ExternalDataBackup.supportDirectory(of: path), F_OK) != 0
                {
                    throw error
                }
            }
            guard attempt < Self.backupAttempts else {
                throw TaskInterchangeError(
                    .cannotCreate, "\(backupDirectory): \(attempt) backups of this second are there already")
            }
            attempt += 1
        }
    }

    /// How many names `makeBackup` tries for backups made in one second.
    static let backupAttempts = 1_000

    /// `<store name without extension>-backup-<UTC yyyyMMdd-HHmmss>.sqlite`, with `-<attempt>` before the extension
    /// from the second attempt on: sorts by time, names its source.
    static func backupName(for store: String, at date: Date, attempt: Int = 1) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let stamp = String(
            format: "%04d%02d%02d-%02d%02d%02d", parts.year!, parts.month!, parts.day!,
            parts.hour!, parts.minute!, parts.second!)
        let stem = URL(fileURLWithPath: store).deletingPathExtension().lastPathComponent
        return "\(stem)-backup-\(stamp)\(attempt > 1 ? "-\(attempt)" : "").sqlite"
    }
}
