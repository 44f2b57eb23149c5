import Foundation
import TaskInterchange

/// `tasks migrate`: the in-app migration from the command line — backup, validate, migrate, verify — printing each
/// stage as it starts.
struct MigrateCommand: Command {
    static let from = Option<String>("--from", valueName: "path", help: "The legacy Core Data store.", isRequired: true)
    static let to = Option<String>(
        "--to", valueName: "path", help: "The new store; it must not exist.", isRequired: true)
    static let backup = Option<String>(
        "--backup", valueName: "dir",
        help: "The directory for the backup (default: the legacy store's directory).")
    static let modelOptions = ModelOptions.Declarations(
        mapping: "How the legacy store's entities map (see 'tasks inspect').",
        model: "The app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom): the new store is made for its version "
            + "(--model-version, default the current one) and every entity travels; the legacy store is read with "
            + "the version whose hashes it records.",
        modelVersion: "With --model: the new store's version (default: current).")
    static let dryRun = Flag(
        "--dry-run",
        help: "Run every stage on private copies and print the plan (records and values per entity, and how the "
            + "model change maps them); no store, no backup is kept.")
    static let busyTimeout = SharedOptions.busyTimeout("How long to wait for another process's lock.")

    static let description = CommandDescription(
        name: "migrate",
        abstract: "Back up a legacy store, validate it, migrate it into a new store and verify the result.",
        discussion: "Runs the stages an app runs with TaskInterchange's Migration, printing each: preparing backup, "
            + "validating, migrating, verifying, then completed or failed. The backup is one committed state of the "
            + "legacy store (its -wal included) in one SQLite file, its external files beside it; the legacy store is not changed. On failure the "
            + "new store is not left behind and the backup's path is printed. Exit 1 when the verification found "
            + "differences. With --model, the legacy store's model version is mapped onto the new one as Core Data's "
            + "lightweight migration infers it (renaming identifiers, defaults, lossless type changes), through every "
            + "version between the two in the model's version order, one step at a time; the mapping file's "
            + "modelChange overrides the last step.",
        options: [
            from, to, backup, modelOptions.mapping, modelOptions.model, modelOptions.modelVersion,
            modelOptions.versionOrder, dryRun, busyTimeout,
        ])

    var legacy: String
    var target: String
    var backupDirectory: String?
    var modelOptions: ModelOptions
    var dryRun: Bool
    var busyTimeout: Int32

    init(_ arguments: ParsedArguments) throws(UsageError) {
        legacy = try arguments.value(Self.from)
        target = try arguments.value(Self.to)
        backupDirectory = try arguments.optional(Self.backup)
        modelOptions = try ModelOptions(arguments, Self.modelOptions)
        dryRun = arguments.flag(Self.dryRun)
        busyTimeout = try arguments.value(Self.busyTimeout)
    }

    func validate() throws(UsageError) {
        try modelOptions.validate()
    }

    func run() throws -> Int32 {
        let legacy = legacy, target = target
        let directory = backupDirectory ?? URL(fileURLWithPath: legacy).deletingLastPathComponent().path
        var migration = Migration(legacyStore: legacy, backupDirectory: directory)
        migration.busyTimeout = busyTimeout
        migration.dryRun = dryRun
        try modelOptions.mapping.load(into: &migration.mapping, source: &migration.mappingSource)
        if let model = modelOptions.model, let source = try modelOptions.source() {
            migration.template = StoreTemplate(model: try source.version(named: modelOptions.modelVersion).model)
            // The legacy store is read by the version whose hashes it records. A store no version of the model wrote
            // is read with its own model (its model cache); without one it is refused, as Core Data refuses to
            // migrate it: what it would be mapped from is unknown.
            let identification = try ModelIdentification(storePath: legacy, source: source)
            migration.modelVersions = try modelOptions.versionOrder(of: source)
            if identification.version == nil && identification.storeHasModelCache {
                // The store keeps its own model: read with it, and mapped from it (through the closest version).
                migration.ownModel = MigrationReport.OwnModel(modelName: model, closest: identification.closest)
            } else if let found = identification.version {
                migration.legacyModel = try source.version(named: found).model
            } else {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(legacy): no version of \(model) wrote this store (its model version hashes match none"
                        + (identification.closest.map { "; the closest is \($0)" } ?? "")
                        + ") and it keeps no model cache, so the migration cannot know what to map from; Core Data "
                        + "refuses it too (error 134130). "
                        + "'tasks model identify --store \(ShellWord.quoted(legacy)) --model \(ShellWord.quoted(model))' "
                        + "shows how the closest version differs")
            }
        }
        let showsProgress = Console.showsProgress
        do {
            let report = try migration.run(intoStore: target) { event in
                switch event {
                case .stage(let stage):
                    if showsProgress { Console.endProgress() }
                    Console.error("migrate: \(Self.text(for: stage, legacy: legacy, target: target))\n")
                case .progress(let progress) where showsProgress && progress.done > 0:
                    Console.progress("\(progress.phase.rawValue): \(progress.done) tasks")
                case .progress:
                    break
                }
            }
            // The findings and warnings, then what was done; a dry run's plan is the command's output.
            Console.error(CommandLineText.rewrite(report.notices))
            if dryRun {
                try Console.output(CommandLineText.rewrite(report.summary))
            } else {
                Console.error(CommandLineText.rewrite(report.summary))
            }
            return ExitCode.ok
        } catch let error as MigrationError {
            if let verification = error.verification {
                Console.error(CommandLineText.rewrite(verification.description))
            }
            if error.verification != nil && modelOptions.model == nil {
                // The built-in task model holds only the task kinds' fields: an app's own attributes need its model.
                Console.error(
                    "hint: the new store is made from the built-in task model, which has no place for the app's own "
                        + "entities and attributes; --model <the app's .xcdatamodeld or .momd> makes it from the app's "
                        + "model and carries every entity\n")
            }
            let status = Tasks.report(error.underlying)
            Console.error(
                dryRun
                    ? "dry run: nothing was written and no backup kept\n"
                    : (error.newStore == nil ? "\(target) is unchanged; " : "\(target) was not created; ")
                        + (error.backupPath.map { "the backup of \(legacy) is \($0)\n" }
                            ?? (error.backupRemoved
                                ? "the backup made was removed, as nothing was written\n" : "no backup was made\n"))
            )
            return error.verification == nil ? status : ExitCode.different
        }
    }

    /// A stage as the command prints it.
    static func text(for stage: Migration.Stage, legacy: String, target: String) -> String {
        switch stage {
        case .preparingBackup: return "preparing backup of \(legacy)"
        case .validating: return "validating"
        case .migrating: return "migrating into \(target)"
        case .verifying: return "verifying"
        case .completed: return "completed"
        case .failed: return "failed"
        }
    }
}
