import Foundation
import TaskInterchange

/// `tasks export`: a store to an interchange file (stdout by default).
struct ExportCommand: Command {
    static let store = SharedOptions.store("The Core Data SQLite store to read.")
    static let output = SharedOptions.output(
        "file", "Where to write; '-' is stdout. A file appears only when complete.", default: "-")
    static let formatVersion = Option<Int>(
        "--format-version", valueName: "version", help: "1 (the DataExporter format) or 2.", default: 2,
        defaultText: "2", allowedValues: ["1", "2"]
    ) { Int($0) }
    static let modelOptions = ModelOptions.Declarations(
        mapping: "Read entities and properties as this mapping file says (see 'tasks inspect').",
        model: "Read the store with the app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom): its property names "
            + "and types, for a store that keeps no model cache; the version is the one whose hashes the store "
            + "records.",
        modelVersion: "With --model: the version that wrote the store.")
    static let kinds = SelectionOptions.kinds(
        "Export only these kinds (project,category,tag,task) and what they refer to.")
    static let entities = SelectionOptions.entities("Export only these store entities and what they refer to.")
    static let excludedEntities = Option<[String]>(
        "--exclude-entities", valueName: "list",
        help: "Never export these store entities; references to them are dropped (reported).",
        expected: "expected entity names, comma-separated", convert: SelectionOptions.list)
    static let project = Option<String>(
        "--project", valueName: "id|name", help: "Only tasks of this project (and the records they refer to).")
    static let completed = Flag("--completed", help: "Only completed tasks (and the records they refer to).")
    static let open = Flag("--open", help: "Only open tasks (and the records they refer to).")
    static let since = Option<String>(
        "--since", valueName: "date",
        help: "Only tasks created or modified at or after this date (YYYY-MM-DD or an RFC 3339 date-time).")
    static let pretty = Flag("--pretty", help: "Indent the JSON.")
    static let ndjson = Flag("--ndjson", help: "Write one JSON object per line: header, records, trailer with counts.")
    static let busyTimeout = SharedOptions.busyTimeout("How long to wait for a writer's lock on the store.")
    static let strict = Flag(
        "--strict",
        help: "Fail (exit 65, nothing written) when anything could not be carried "
            + "exactly.")

    static let description = CommandDescription(
        name: "export",
        abstract: "Export a Core Data store to an interchange file.",
        discussion: "Reads one committed state of the store (and its -wal), even while an app writes to it, without "
            + "changing a byte of it, and writes records sorted by id. A summary and everything that could not be "
            + "carried exactly go to stderr.",
        positionals: [StoreArgument.positional],
        options: [
            store, output, formatVersion, modelOptions.mapping, kinds, entities, excludedEntities, project, completed,
            open,
            since, pretty, ndjson, modelOptions.model, modelOptions.modelVersion, busyTimeout, strict,
            SharedOptions.jsonSummary,
        ])

    var store: String
    var output: String
    var formatVersion: Int
    var modelOptions: ModelOptions
    var kinds: Set<RecordKind>?
    var entities: [String]?
    var excludedEntities: [String]
    var project: String?
    var completed: Bool
    var open: Bool
    var since: String?
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
        modelOptions = try ModelOptions(arguments, Self.modelOptions)
        kinds = try SelectionOptions.kinds(arguments, Self.kinds)
        entities = try arguments.optional(Self.entities)
        excludedEntities = try arguments.optional(Self.excludedEntities) ?? []
        project = try arguments.optional(Self.project)
        completed = arguments.flag(Self.completed)
        open = arguments.flag(Self.open)
        since = try arguments.optional(Self.since)
        strict = arguments.flag(Self.strict)
        busyTimeout = try arguments.value(Self.busyTimeout)
        output = try arguments.value(Self.output)
        jsonSummary = arguments.flag(SharedOptions.jsonSummary)
    }

    func validate() throws(UsageError) {
        if pretty && ndjson { throw UsageError("--pretty and --ndjson cannot be combined") }
        if ndjson && formatVersion != 2 { throw UsageError("--ndjson needs --format-version 2") }
        if completed && open { throw UsageError("--completed and --open cannot be combined") }
        try modelOptions.validate()
    }

    func run() throws -> Int32 {
        var options = ExportOptions()
        options.writing.formatVersion = formatVersion
        options.writing.layout = ndjson ? .ndjson : pretty ? .pretty : options.writing.layout
        try modelOptions.mapping.load(into: &options.mapping, source: &options.mappingSource)
        options.selection = try selection()
        options.strict = strict
        options.busyTimeout = busyTimeout
        options.model = try modelOptions.model(forStore: store)
        if Console.showsProgress {
            let line = ProgressLine()
            options.progress = { done, total in
                Console.progress(
                    line.text(
                        "exporting", fraction: total > 0 ? Double(done) / Double(total) : 1,
                        detail: "\(done) of \(total) tasks"))
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
            Console.error(
                "Error: --strict: \(error.summary.findings.filter(\.isWarning).count) finding(s) mean data "
                    + "would not be carried exactly; nothing was written\n")
            return ExitCode.dataError
        }
        if Console.showsProgress { Console.endProgress() }
        Self.printSummary(summary, json: jsonSummary, wrote: true)
        return ExitCode.ok
    }

    /// The records to export, from `--kinds`, `--entities`, `--exclude-entities` and the task filters.
    /// - Throws: `TaskInterchangeError.usage` when `--since` is not a date.
    func selection() throws(TaskInterchangeError) -> ExportSelection {
        var selection = ExportSelection()
        selection.kinds = kinds
        selection.entities = entities.map(Set.init)
        selection.excludedEntities = Set(excludedEntities)
        selection.project = project
        selection.completion = completed ? .completed : open ? .open : nil
        selection.since = try since.map { text throws(TaskInterchangeError) in try ExportSelection.instant(from: text) }
        return selection
    }

    static func printSummary(_ summary: ExportSummary, json: Bool, wrote: Bool) {
        if json {
            Console.error(Console.json(summary))
            return
        }
        // An export refused for its findings wrote nothing: the findings alone.
        Console.error(CommandLineText.rewrite(wrote ? summary.description : summary.notices))
    }
}
