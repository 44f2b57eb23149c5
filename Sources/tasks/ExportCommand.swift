import Foundation
import TaskInterchange

/// `tasks export`: a store to an interchange file (stdout by default).
enum ExportCommand {
    static let description = CommandDescription(
        name: "export",
        abstract: "Export a Core Data store to an interchange file.",
        discussion: "Reads one committed state of the store (and its -wal), even while an app writes to it, without changing a byte of it, and writes records sorted by id. A summary and everything that could not be carried exactly go to stderr.",
        options: [
            .init(name: "--store", valueName: "path", help: "The Core Data SQLite store to read.", isRequired: true),
            .init(name: "--output", short: "-o", valueName: "file", help: "Where to write; '-' is stdout. A file appears only when complete.", defaultValue: "-"),
            .init(name: "--format-version", valueName: "version", help: "1 (the DataExporter format) or 2.", allowedValues: ["1", "2"], defaultValue: "2"),
            .init(name: "--mapping", valueName: "file", help: "Read entities and properties as this mapping file says (see 'tasks inspect')."),
            .init(name: "--kinds", valueName: "list", help: "Export only these kinds (project,category,tag,task) and what they refer to."),
            .init(name: "--entities", valueName: "list", help: "Export only these store entities and what they refer to."),
            .init(name: "--exclude-entities", valueName: "list", help: "Never export these store entities; references to them are dropped (reported)."),
            .init(name: "--project", valueName: "id|name", help: "Only tasks of this project (and the records they refer to)."),
            .init(name: "--completed", help: "Only completed tasks (and the records they refer to)."),
            .init(name: "--open", help: "Only open tasks (and the records they refer to)."),
            .init(name: "--since", valueName: "date", help: "Only tasks created or modified at or after this date (YYYY-MM-DD or an RFC 3339 date-time)."),
            .init(name: "--pretty", help: "Indent the JSON."),
            .init(name: "--ndjson", help: "Write one JSON object per line: header, records, trailer with counts."),
            .init(name: "--busy-timeout", valueName: "ms", help: "How long to wait for a writer's lock on the store.", defaultValue: "5000"),
            .init(name: "--strict", help: "Fail (exit 65, nothing written) when anything could not be carried exactly."),
            .init(name: "--json-summary", help: "Print the summary to stderr as JSON."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let store = try parsed.required("--store", for: description)
        var options = ExportOptions()
        options.writing.formatVersion = Int(parsed.value("--format-version") ?? "2")!
        if parsed.flag("--pretty") && parsed.flag("--ndjson") {
            throw UsageError("--pretty and --ndjson cannot be combined", command: description)
        }
        if parsed.flag("--ndjson") {
            guard options.writing.formatVersion == 2 else { throw UsageError("--ndjson needs --format-version 2", command: description) }
            options.writing.layout = .ndjson
        } else if parsed.flag("--pretty") {
            options.writing.layout = .pretty
        }
        if let mappingPath = parsed.value("--mapping") {
            options.mapping = try StoreMapping(contentsOf: mappingPath)
            options.mappingSource = mappingPath
        }
        options.selection = try selection(parsed)
        options.strict = parsed.flag("--strict")
        options.busyTimeout = try ImportCommand.busyTimeout(parsed, for: description)
        if Console.showsProgress {
            let started = Date()
            options.progress = { done, total in
                let rate = Double(done) / max(Date().timeIntervalSince(started), 0.001)
                Console.progress("exporting: \(done)/\(total) tasks (\(Int(rate))/s)")
            }
        }
        let output = parsed.value("--output") ?? "-"

        let summary: ExportSummary
        do {
            if output != "-" {
                summary = try Exporter.export(store: store, toFile: output, options: options)
            } else {
                summary = try Exporter.export(store: store, to: FileDescriptorSink.standardOutput, options: options)
            }
        } catch let error as ExportStrictError {
            printSummary(error.summary, json: parsed.flag("--json-summary"), wrote: false)
            Console.error("Error: --strict: \(error.summary.findings.filter(\.isWarning).count) finding(s) mean data would not be carried exactly; nothing was written\n")
            return ExitCode.dataError
        }
        if Console.showsProgress { Console.endProgress() }
        printSummary(summary, json: parsed.flag("--json-summary"), wrote: true)
        return ExitCode.ok
    }

    /// The records to export, from `--kinds`, `--entities`, `--exclude-entities` and the task filters.
    static func selection(_ parsed: ParsedArguments) throws -> ExportSelection {
        var selection = ExportSelection()
        selection.kinds = try SelectionOptions.kinds(parsed, for: description)
        selection.entities = SelectionOptions.list(parsed, "--entities").map(Set.init)
        selection.excludedEntities = Set(SelectionOptions.list(parsed, "--exclude-entities") ?? [])
        selection.project = parsed.value("--project")
        if parsed.flag("--completed") && parsed.flag("--open") {
            throw UsageError("--completed and --open cannot be combined", command: description)
        }
        selection.completion = parsed.flag("--completed") ? .completed : parsed.flag("--open") ? .open : nil
        selection.since = try parsed.value("--since").map(ExportSelection.instant(from:))
        return selection
    }

    static func printSummary(_ summary: ExportSummary, json: Bool, wrote: Bool) {
        if json {
            Console.error(Console.json(summary))
            return
        }
        for finding in summary.findings {
            Console.error("\(finding.isWarning ? "warning" : "note"): \(finding.description)\(finding.count > 1 ? " [\(finding.count)]" : "")\n")
        }
        if wrote {
            Console.error("Exported \(ReportRenderer.counts(summary.counts)) from \(summary.store) (format \(summary.formatVersion)) in \(String(format: "%.2f", summary.seconds)) s\n")
            Console.error("  \(ReportRenderer.entityPlacement(typed: summary.entities, generic: summary.generic))\n")
        }
    }
}
