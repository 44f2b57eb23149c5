import Foundation
import TaskInterchange

/// `tasks export`: a store to an interchange file (stdout by default).
struct ExportCommand: Command {
    static let store = SharedOptions.store("The Core Data SQLite store to read.")
    static let output = SharedOptions.output(
        "file", "Where to write; '-' is stdout. A file appears only when complete.", default: "-")
    static let formatVersion = Option<Int>(
        "--format-version", valueName: "version", help: "1 (the DataExporter format) or 2.", default: 2,
        defaultText: "2", allowedValues: ["1", "2"]) { Int($0) }
    static let mapping = SharedOptions.mapping(
        "Read entities and properties as this mapping file says (see 'tasks inspect').")
    static let pretty = Flag("--pretty", help: "Indent the JSON.")
    static let ndjson = Flag("--ndjson", help: "Write one JSON object per line: header, records, trailer with counts.")
    static let busyTimeout = SharedOptions.busyTimeout("How long to wait for a writer's lock on the store.")
    static let strict = Flag("--strict", help: "Fail (exit 65, nothing written) when anything could not be carried "
        + "exactly.")

    static let description = CommandDescription(
        name: "export",
        abstract: "Export a Core Data store to an interchange file.",
        discussion: "Reads one committed state of the store (and its -wal), even while an app writes to it, without "
            + "changing a byte of it, and writes records sorted by id. A summary and everything that could not be "
            + "carried exactly go to stderr.",
        positionals: [StoreArgument.positional],
        options: [store, output, formatVersion, mapping, pretty, ndjson, busyTimeout, strict,
                  SharedOptions.jsonSummary])

    var store: String
    var output: String
    var formatVersion: Int
    var mapping: MappingFile
    var pretty: Bool
    var ndjson: Bool
    var busyTimeout: Int32
    var strict: Bool
    var jsonSummary: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        store = try StoreArgument.read(arguments, Self.store, acceptsPositional: true)
        formatVersion = try arguments.value(Self.formatVersion)
        pretty = arguments.flag(Self.pretty)
        ndjson = arguments.flag(Self.ndjson)
        mapping = try MappingFile(arguments, Self.mapping)
        strict = arguments.flag(Self.strict)
        busyTimeout = try arguments.value(Self.busyTimeout)
        output = try arguments.value(Self.output)
        jsonSummary = arguments.flag(SharedOptions.jsonSummary)
    }

    func validate() throws(UsageError) {
        if pretty && ndjson { throw UsageError("--pretty and --ndjson cannot be combined") }
        if ndjson && formatVersion != 2 { throw UsageError("--ndjson needs --format-version 2") }
    }

    func run() throws -> Int32 {
        var options = ExportOptions()
        options.writing.formatVersion = formatVersion
        options.writing.layout = ndjson ? .ndjson : pretty ? .pretty : options.writing.layout
        try mapping.load(into: &options.mapping, source: &options.mappingSource)
        options.strict = strict
        options.busyTimeout = busyTimeout
        if Console.showsProgress {
            let started = Date()
            options.progress = { done, total in
                let rate = Double(done) / max(Date().timeIntervalSince(started), 0.001)
                Console.progress("exporting: \(done)/\(total) tasks (\(Int(rate))/s)")
            }
        }
        let summary: ExportSummary
        do {
            if output != "-" {
                summary = try Exporter.export(store: store, toFile: output, options: options)
            } else {
                summary = try Exporter.export(store: store, to: FileDescriptorSink.standardOutput, options: options)
            }
        } catch let error as ExportStrictError {
            Self.printSummary(error.summary, json: jsonSummary, wrote: false)
            Console.error("Error: --strict: \(error.summary.findings.filter(\.isWarning).count) finding(s) mean data "
                + "would not be carried exactly; nothing was written\n")
            return ExitCode.dataError
        }
        if Console.showsProgress { Console.endProgress() }
        Self.printSummary(summary, json: jsonSummary, wrote: true)
        return ExitCode.ok
    }

    static func printSummary(_ summary: ExportSummary, json: Bool, wrote: Bool) {
        if json {
            Console.error(Console.json(summary))
            return
        }
        for finding in summary.findings {
            Console.error("\(finding.isWarning ? "warning" : "note"): "
                + "\(finding.description)\(finding.count > 1 ? " [\(finding.count)]" : "")\n")
        }
        if wrote {
            Console.error("Exported \(ReportRenderer.counts(summary.counts)) from \(summary.store) (format "
                + "\(summary.formatVersion)) in \(String(format: "%.2f", summary.seconds)) s\n")
        }
    }
}
