import Foundation
import TaskInterchange

/// `tasks import`: validate, then rebuild the graph in a store, all or nothing.
struct ImportCommand: Command {
    static let store = SharedOptions.store("The target store; created when it does not exist.")
    static let mode = Option<ImportMode>(
        "--mode", valueName: "mode",
        help: "insert: every id must be new; upsert: "
            + "update matching ids that changed; skip: keep existing; replace: remove every entity's rows first; "
            + "merge: like upsert, but the newer version of each record wins.", default: .insert)
    static let dryRun = Flag(
        "--dry-run",
        help: "Run the whole import on a private copy of the target and print its "
            + "plan; the target is not written.")
    static let keepIdentity = Flag(
        "--keep-identity",
        help: "New stores only: take the archive's store UUID, every "
            + "record's key (\(CoreDataNames.primaryKey)), stored NULLs and positions and each entity's "
            + "\(CoreDataNames.maxKeyColumn), so object URIs and derived ids "
            + "survive (a backup that restores to the same store).")
    static let strict = Flag(
        "--strict",
        help: "Fail, writing nothing, when the target has no place for some generic "
            + "records or values.")
    static let backup = Option<String>(
        "--backup", valueName: "path",
        help: "Copy the target here (SQLite online backup, its external files beside it in "
            + ".<Name>_SUPPORT) before writing.")
    static let modelOptions = ModelOptions.Declarations(
        mapping: "How the target's entities map (see 'tasks inspect').",
        model: "The app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom): a new store is made for its version (as "
            + "--model-from); an existing store that keeps no model cache is written with it (property names, types, "
            + "externally stored data) in the version whose hashes it records.",
        modelVersion: "With --model-from a model: the version to use (default: its "
            + "current version).")
    static let modelFrom = Option<String>(
        "--model-from", valueName: "store|model",
        help: "Create the new store with "
            + "this store's schema and metadata (e.g. the empty store your app wrote), or those Core Data writes for a "
            + "model (.xcdatamodeld, .xcdatamodel, .momd, .mom), so the app opens it without a migration.")
    static let busyTimeout = SharedOptions.busyTimeout("How long to wait for another process's lock.")
    static let kinds = SelectionOptions.kinds(
        "Load only these kinds (project,category,tag,task); references to the "
            + "rest link to the target's records with those ids, or are dropped (counted).")
    static let entities = SelectionOptions.entities(
        "Load only the records read from these store entities (the "
            + "archive's source.entities); as --kinds otherwise.")

    static let description = CommandDescription(
        name: "import",
        abstract: "Validate an interchange file and import it into a store, all or nothing.",
        discussion: "A path that does not exist gets a new store in Core Data's layout. An existing store is written "
            + "in one transaction under Core Data's invariants; an invalid file writes nothing.",
        positionals: [
            ArchiveArgument.positional("The archive to import; '-' or nothing reads stdin (JSON or NDJSON).")
        ],
        options: [
            store, mode, dryRun, backup, modelOptions.mapping, modelOptions.model, modelFrom, modelOptions.modelVersion,
            modelOptions.versionOrder, keepIdentity, strict, busyTimeout,
            SharedOptions.jsonSummary, verify, kinds, entities, match, modifiedProperty,
        ])

    var store: String
    var mode: ImportMode
    var dryRun: Bool
    var keepIdentity: Bool
    var strict: Bool
    var backup: String?
    var modelOptions: ModelOptions
    var modelFrom: String?
    var busyTimeout: Int32
    var jsonSummary: Bool
    var verify: Bool
    var kinds: Set<RecordKind>?
    var entities: [String]?
    var match: MatchRule?
    var modifiedProperty: String?
    var input: ArchiveArgument

    init(_ arguments: ParsedArguments) throws(UsageError) {
        store = try StoreArgument.read(arguments, Self.store)
        mode = try arguments.value(Self.mode)
        dryRun = arguments.flag(Self.dryRun)
        keepIdentity = arguments.flag(Self.keepIdentity)
        strict = arguments.flag(Self.strict)
        backup = try arguments.optional(Self.backup)
        busyTimeout = try arguments.value(Self.busyTimeout)
        modelOptions = try ModelOptions(arguments, Self.modelOptions)
        match = try Self.matchRule(arguments)
        verify = arguments.flag(Self.verify)
        kinds = try SelectionOptions.kinds(arguments, Self.kinds)
        entities = try arguments.optional(Self.entities)
        modifiedProperty = try arguments.optional(Self.modifiedProperty)
        modelFrom = try arguments.optional(Self.modelFrom)
        jsonSummary = arguments.flag(SharedOptions.jsonSummary)
        input = ArchiveArgument(arguments)
    }

    func validate() throws(UsageError) {
        try validateMergeOptions()
        if verify && (kinds != nil || entities != nil) {
            throw UsageError(
                "--verify checks that the store holds the whole file; with --kinds or --entities it holds "
                    + "part of it")
        }
        if modelOptions.model != nil && modelFrom != nil {
            throw UsageError("--model and --model-from cannot be combined")
        }
        try modelOptions.validate(otherModel: ("--model-from <model>", modelFrom != nil))
    }

    func run() throws -> Int32 {
        var options = StoreImportOptions()
        options.mode = mode
        options.dryRun = dryRun
        options.keepIdentity = keepIdentity
        options.strict = strict
        options.backupPath = backup
        options.busyTimeout = busyTimeout
        try modelOptions.mapping.load(into: &options.mapping, source: &options.mappingSource)
        options.match = match
        options.kinds = kinds
        options.entities = entities.map(Set.init)
        if let modifiedProperty { options.modificationDates = ModificationDates(property: modifiedProperty) }
        if let modelFrom {
            options.template = try StoreTemplate(modelFrom: modelFrom, version: modelOptions.modelVersion)
        } else if let model = modelOptions.model {
            if FileManager.default.fileExists(atPath: store) {
                options.targetModel = try modelOptions.model(forStore: store)
            } else {
                options.template = try StoreTemplate(modelFrom: model, version: modelOptions.modelVersion)
            }
            // An archive of an older version is carried through every version between, as a migration is.
            options.modelVersions = try modelOptions.versionOrder(of: ModelSource(path: model))
        }
        let input = try input.open()
        let started = Date()
        if Console.showsProgress { ProgressLine.observe(input, label: "importing") }
        let result = try StoreImport.run(input, into: store, options: options)
        if Console.showsProgress {
            Console.endProgress()
            ProgressLine.observe(input, label: "verifying")
        }
        let verification = try verification(input: input, options: options, mapping: result.versionMapping)
        if Console.showsProgress { Console.endProgress() }
        let status = verification?.isEqual == false ? ExitCode.different : ExitCode.ok
        let seconds = Date().timeIntervalSince(started)
        if jsonSummary {
            let summary = Summary(
                store: store, dryRun: options.dryRun, mode: options.mode.rawValue, plan: result.plan,
                warnings: result.warnings, createdStore: result.createdStore, seconds: seconds,
                verification: verification.map(VerificationSummary.init))
            Console.error(Console.json(summary))
            return status
        }
        // Warnings about the archive (unknown members, say), as `validate` prints them, then those about the target;
        // a dry run's plan is the command's output.
        Console.error(CommandLineText.rewrite(result.notices))
        if options.dryRun {
            try Console.output(CommandLineText.rewrite(result.summary))
        } else {
            Console.error(CommandLineText.rewrite(result.summary))
        }
        if let verification { Console.error(Self.verificationText(verification)) }
        return status
    }

    struct Summary: Encodable {
        var store: String
        var dryRun: Bool
        var mode: String
        var plan: ImportPlan
        var warnings: [String]
        var createdStore: Bool
        var seconds: Double
        var verification: VerificationSummary?
    }
}
