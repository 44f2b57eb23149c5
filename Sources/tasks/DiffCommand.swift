import Foundation
import TaskInterchange

/// `tasks diff`: compares two graphs (archives or stores) by id.
struct DiffCommand: Command {
    static let exitConvention =
        "Exit status as for diff(1) and cmp(1): 0 when the graphs are equal, 1 when they "
        + "differ, and above 1 for trouble: 64 usage, 65 bad data (an unreadable or invalid archive, not a store), 66 "
        + "no such input, 74 I/O, 75 store locked, 70 internal."
    static let modelOptions = ModelOptions.Declarations(
        mapping: "How a store side's entities map (see 'tasks inspect').",
        model:
            "Read a store side with the app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom), for a store that keeps "
            + "no model cache: each store in the version whose hashes it records.",
        modelVersion: "With --model: the version both store sides are read with.")
    static let json = SharedOptions.json(
        "Print the comparison as JSON on stdout (up to 1000 records listed, all "
            + "counted).")

    static let description = CommandDescription(
        name: "diff",
        abstract: "Compare two graphs (archives or stores) record by record.",
        summary: "Compare two graphs (archives or stores) record by record (exit 0 same, 1 different).",
        discussion: "A and B are each an archive (JSON or NDJSON; '-' for stdin) or a Core Data store (recognised by "
            + "its SQLite header). Records are matched by id: per-kind and per-entity counts (the generic entities "
            + "section's too), then each differing record with its fields (old → new, dates losslessly), links "
            + "added or removed, ordered lists in a new order, records only on one side. exportDate, generator and "
            + "source are ignored. The report goes to "
            + "stdout.\n\n\(exitConvention)",
        positionals: [
            .init(name: "a", help: "The first graph: an archive, '-' for stdin, or a store."),
            .init(name: "b", help: "The second graph."),
        ],
        options: [
            modelOptions.mapping, modelOptions.model, modelOptions.modelVersion, SharedOptions.limit, json,
        ])

    var a: String
    var b: String
    var modelOptions: ModelOptions
    var limit: Int
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 2 else {
            throw UsageError("Expected two graphs to compare, A and B")
        }
        a = arguments.positionals[0]
        b = arguments.positionals[1]
        limit = try arguments.value(SharedOptions.limit)
        modelOptions = try ModelOptions(arguments, Self.modelOptions)
        json = arguments.flag(Self.json)
    }

    func validate() throws(UsageError) {
        try modelOptions.validate()
    }

    /// One side: an archive, or a store read with the model when `--model` names one.
    private func side(_ path: String, _ mapping: StoreMapping?) throws -> GraphSource {
        let source = try GraphSource.detecting(path: path, mapping: mapping)
        guard source.isStore, modelOptions.model != nil else { return source }
        return .store(
            path: path, mapping: mapping, model: try modelOptions.model(forStore: path))
    }

    func run() throws -> Int32 {
        let mapping = try modelOptions.mapping.load()
        let a = try side(a, mapping)
        let b = try side(b, mapping)
        let diff = try GraphComparison.compare(a, b)
        if json {
            try Console.output(Console.json(diff))
        } else {
            try Console.output(
                "A: \(a.name)\nB: \(b.name)\n" + CommandLineText.rewrite(diff.description(limit: limit)) + "\n"
                    + diff.comparisonVerdict + "\n")
        }
        return diff.isEqual ? ExitCode.ok : ExitCode.different
    }
}
