import Foundation
import TaskInterchange

/// `tasks validate`: the gate before every import.
enum ValidateCommand {
    static let description = CommandDescription(
        name: "validate",
        abstract: "Check an interchange file's structure and referential integrity.",
        discussion: "Reports every problem (up to 100, then a count) with a code, a JSON path and line:column, and exits 65 when the file is invalid. With --store, ids are also checked against the import target for the given --mode.",
        positionals: [.init(name: "file", help: "The archive to check; '-' or nothing reads stdin (JSON or NDJSON).")],
        options: [
            .init(name: "--store", valueName: "path", help: "Also check ids against this import target."),
            .init(name: "--mode", valueName: "mode", help: "The import mode to check against (with --store).",
                  allowedValues: ImportMode.allCases.map(\.rawValue), defaultValue: "insert"),
            .init(name: "--mapping", valueName: "file", help: "How the target's entities map (with --store)."),
            .init(name: "--json", help: "Print the report as JSON on stdout."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let input = try ImportCommand.openInput(parsed.positionals.first)
        var existing: Validator.ExistingIDs?
        if let store = parsed.value("--store") {
            let mapping = try parsed.value("--mapping").map { path throws(TaskInterchangeError) in try StoreMapping(contentsOf: path) }
            let target = try StoreWriter(planningFor: store, mapping: mapping, mappingSource: parsed.value("--mapping") ?? "mapping")
            existing = Validator.ExistingIDs(ids: target.existingIDs, existingIsError: (parsed.value("--mode") ?? "insert") == "insert")
        }
        var validator = Validator(existing: existing)
        try input.stream(kinds: nil, into: &validator)
        let report = validator.report
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
