import Foundation
import TaskInterchange

/// `tasks validate`: the gate before every import.
struct ValidateCommand: Command {
    static let store = SharedOptions.store("Also check ids against this import target.", isRequired: false)
    static let mode = Option<ImportMode>(
        "--mode", valueName: "mode",
        help: "The import mode to check against (with "
            + "--store).", default: .insert)
    static let mapping = SharedOptions.mapping("How the target's entities map (with --store).")
    static let busyTimeout = SharedOptions.busyTimeout("How long to wait for another process's lock (with --store).")
    static let json = SharedOptions.json("Print the report as JSON on stdout.")

    static let description = CommandDescription(
        name: "validate",
        abstract: "Check an interchange file's structure and referential integrity.",
        discussion: "Reports every problem (up to 100, then a count) with a code, a JSON path and line:column, and "
            + "exits 65 when the file is invalid. With --store, the import into that target is run as 'import "
            + "--dry-run' runs it (on a private copy), so validate fails exactly when, and as, the import would.",
        positionals: [ArchiveArgument.positional("The archive to check; '-' or nothing reads stdin (JSON or NDJSON).")],
        options: [store, mode, mapping, busyTimeout, json])

    var input: ArchiveArgument
    var store: String?
    var mode: ImportMode
    var mapping: MappingFile
    var busyTimeout: Int32
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        input = ArchiveArgument(arguments)
        store = try arguments.optional(Self.store)
        mode = try arguments.value(Self.mode)
        busyTimeout = try arguments.value(Self.busyTimeout)
        mapping = try MappingFile(arguments, Self.mapping)
        json = arguments.flag(Self.json)
    }

    func run() throws -> Int32 {
        let input = try input.open()
        if Console.showsProgress { ProgressLine.observe(input, label: "validating") }
        let report: ValidationReport
        if let store {
            var options = StoreImportOptions()
            options.mode = mode
            options.dryRun = true
            options.busyTimeout = busyTimeout
            try mapping.load(into: &options.mapping, source: &options.mappingSource)
            do {
                report = try StoreImport.run(input, into: store, options: options).report
            } catch let error as ArchiveValidationError {
                report = error.report
            }
        } else {
            report = try Validator.validate(input)
        }
        if Console.showsProgress { Console.endProgress() }
        if json {
            try Console.output(Console.json(report))
        } else {
            Console.error(CommandLineText.rewrite(report.notices))
            let advice =
                report.isValid || report.existingRecordCount == nil ? "" : "; \(CommandLineText.existingIDsAdvice)"
            Console.error("\(input.path ?? "stdin"): \(CommandLineText.rewrite(report.verdict))\(advice)\n")
        }
        return report.isValid ? ExitCode.ok : ExitCode.dataError
    }
}
