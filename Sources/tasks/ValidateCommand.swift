import Foundation
import TaskInterchange

/// `tasks validate`: the gate before every import.
enum ValidateCommand {
    static let description = CommandDescription(
        name: "validate",
        abstract: "Check an interchange file's structure and referential integrity.",
        discussion: "Reports every problem (up to 100, then a count) with a code, a JSON path and line:column, and exits 65 when the file is invalid. With --store, the import into that target is run as 'import --dry-run' runs it (on a private copy), so validate fails exactly when, and as, the import would.",
        positionals: [.init(name: "file", help: "The archive to check; '-' or nothing reads stdin (JSON or NDJSON).")],
        options: [
            .init(name: "--store", valueName: "path", help: "Also check ids against this import target."),
            .init(name: "--mode", valueName: "mode", help: "The import mode to check against (with --store).",
                  allowedValues: ImportMode.allCases.map(\.rawValue), defaultValue: "insert"),
            .init(name: "--mapping", valueName: "file", help: "How the target's entities map (with --store)."),
            .init(name: "--busy-timeout", valueName: "ms", help: "How long to wait for another process's lock (with --store).", defaultValue: "5000"),
            .init(name: "--json", help: "Print the report as JSON on stdout."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let input = try ImportCommand.openInput(parsed.positionals.first)
        let report: ValidationReport
        if let store = parsed.value("--store") {
            var options = StoreImportOptions()
            options.mode = ImportMode(rawValue: parsed.value("--mode") ?? "insert")!
            options.dryRun = true
            options.busyTimeout = try ImportCommand.busyTimeout(parsed, for: description)
            if let mappingPath = parsed.value("--mapping") {
                options.mapping = try StoreMapping(contentsOf: mappingPath)
                options.mappingSource = mappingPath
            }
            do {
                report = try StoreImport.run(input, into: store, options: options).report
            } catch let error as ArchiveValidationError {
                report = error.report
            }
        } else {
            var validator = Validator()
            try input.stream(kinds: nil, into: &validator)
            report = validator.report
        }
        if parsed.flag("--json") {
            Console.output(Console.json(report))
        } else {
            Console.error(ReportRenderer.text(report))
            let name = input.path ?? "stdin"
            Console.error(report.isValid
                ? "\(name): valid (format version \(report.version.map(String.init) ?? "?")): \(ReportRenderer.counts(report.counts))\(report.warningCount > 0 ? ", \(report.warningCount) warning(s)" : "")\n"
                : "\(name): invalid: \(report.errorCount) error(s), \(report.warningCount) warning(s)\n")
        }
        return report.isValid ? ExitCode.ok : ExitCode.dataError
    }
}
