import Foundation
import TaskInterchange

/// `tasks import`: validate, then rebuild the graph in a store, all or nothing.
enum ImportCommand {
    static let description = CommandDescription(
        name: "import",
        abstract: "Validate an interchange file and import it into a store, all or nothing.",
        discussion: "A path that does not exist gets a new store in Core Data's layout. An existing store is written in one transaction under Core Data's invariants; an invalid file writes nothing.",
        positionals: [.init(name: "file", help: "The archive to import; '-' or nothing reads stdin (JSON or NDJSON).")],
        options: [
            .init(name: "--store", valueName: "path", help: "The target store; created when it does not exist.", isRequired: true),
            .init(name: "--mode", valueName: "mode", help: "insert: every id must be new; upsert: update matching ids that changed; skip: keep existing; replace: remove the mapped entities' rows first; merge: like upsert, but the newer version of each record wins.",
                  allowedValues: ImportMode.allCases.map(\.rawValue), defaultValue: "insert"),
            .init(name: "--dry-run", help: "Run the whole import on a private copy of the target and print its plan; the target is not written."),
            .init(name: "--backup", valueName: "path", help: "Copy the target here (SQLite online backup) before writing."),
            .init(name: "--mapping", valueName: "file", help: "How the target's entities map (see 'tasks inspect')."),
            .init(name: "--model-from", valueName: "store|model", help: "Create the new store with this store's schema and metadata (e.g. the empty store your app wrote), or those Core Data writes for a model (.xcdatamodeld, .xcdatamodel, .momd, .mom), so the app opens it without a migration."),
            .init(name: "--model-version", valueName: "name", help: "With --model-from a model: the version to use (default: its current version)."),
            .init(name: "--keep-identity",
                  help: "New stores only: take the archive's store UUID and every generic record's key (Z_PK), so "
                      + "object URIs and derived ids survive (a backup that restores to the same store)."),
            .init(name: "--strict",
                  help: "Fail, writing nothing, when the target has no place for some generic records or values."),
            .init(name: "--busy-timeout", valueName: "ms", help: "How long to wait for another process's lock.", defaultValue: "5000"),
            .init(name: "--json-summary", help: "Print the summary to stderr as JSON."),
            verifyOption,
        ] + SelectionOptions.importOptions + [
            matchOption,
            modifiedPropertyOption,
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let store = try parsed.required("--store", for: description)
        var options = StoreImportOptions()
        options.mode = ImportMode(rawValue: parsed.value("--mode") ?? "insert")!
        options.dryRun = parsed.flag("--dry-run")
        options.backupPath = parsed.value("--backup")
        options.keepIdentity = parsed.flag("--keep-identity")
        options.strict = parsed.flag("--strict")
        options.busyTimeout = try busyTimeout(parsed, for: description)
        if let mappingPath = parsed.value("--mapping") {
            options.mapping = try StoreMapping(contentsOf: mappingPath)
            options.mappingSource = mappingPath
        }
        try applyMergeOptions(parsed, to: &options)
        options.kinds = try SelectionOptions.kinds(parsed, for: description)
        options.entities = SelectionOptions.list(parsed, "--entities").map(Set.init)
        if parsed.flag("--verify") && (options.kinds != nil || options.entities != nil) {
            throw UsageError("--verify checks that the store holds the whole file; with --kinds or --entities it holds part of it", command: description)
        }
        if let template = parsed.value("--model-from") {
            options.template = try StoreTemplate(modelFrom: template, version: parsed.value("--model-version"))
        } else if parsed.value("--model-version") != nil {
            throw UsageError("--model-version needs --model-from <model>", command: description)
        }
        let input = try openInput(parsed.positionals.first)
        let started = Date()
        if Console.showsProgress {
            options.progress = { done in
                let rate = Double(done) / max(Date().timeIntervalSince(started), 0.001)
                Console.progress("importing: \(done) tasks (\(Int(rate))/s)")
            }
        }
        let result = try StoreImport.run(input, into: store, options: options)
        if Console.showsProgress { Console.endProgress() }
        let verification = try verification(parsed, input: input, store: store, options: options)
        let status = verification?.isEqual == false ? ExitCode.different : ExitCode.ok
        if parsed.flag("--json-summary") {
            Console.error(Console.json(Summary(store: store, dryRun: options.dryRun, mode: options.mode.rawValue, plan: result.plan,
                                               warnings: result.warnings, createdStore: result.createdStore,
                                               seconds: Date().timeIntervalSince(started),
                                               verification: verification.map(VerificationSummary.init))))
            return status
        }
        // Warnings about the archive (unknown members, say), as `validate` prints them, then those about the target.
        Console.error(ReportRenderer.text(result.report))
        for warning in result.warnings { Console.error("warning: \(warning)\n") }
        if options.dryRun {
            Console.output("Plan for \(store) (--mode \(options.mode.rawValue), nothing written):\n" + ReportRenderer.plan(result.plan)
                + decisionsText(result.plan))
        } else {
            Console.error("Imported \(ReportRenderer.counts(result.report.counts)) into \(store)\(result.createdStore ? " (new store)" : "") in \(String(format: "%.2f", Date().timeIntervalSince(started))) s\n")
            Console.error(ReportRenderer.plan(result.plan))
        }
        if let verification { Console.error(verificationText(verification)) }
        return status
    }

    /// `--busy-timeout` in milliseconds (5000 when absent).
    static func busyTimeout(_ parsed: ParsedArguments, for description: CommandDescription) throws -> Int32 {
        guard let timeout = parsed.value("--busy-timeout") else { return 5_000 }
        guard let milliseconds = Int32(timeout), milliseconds >= 0 else {
            throw UsageError("The value '\(timeout)' is invalid for '--busy-timeout <ms>' (expected milliseconds)", command: description)
        }
        return milliseconds
    }

    /// The archive named on the command line, or stdin for nothing or '-'.
    static func openInput(_ argument: String?) throws -> ArchiveInput {
        guard let argument, argument != "-" else { return try ArchiveInput.standardInput() }
        return try ArchiveInput(path: argument)
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
