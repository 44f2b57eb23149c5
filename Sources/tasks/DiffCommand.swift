import Foundation
import TaskInterchange

/// `tasks diff`: compares two graphs (archives or stores) by id.
enum DiffCommand {
    static let exitConvention = "Exit status as for diff(1) and cmp(1): 0 when the graphs are equal, 1 when they differ, and above 1 for trouble: 64 usage, 65 bad data (an unreadable or invalid archive, not a store), 66 no such input, 74 I/O, 75 store locked, 70 internal."

    static let description = CommandDescription(
        name: "diff",
        abstract: "Compare two graphs (archives or stores) record by record.",
        discussion: "A and B are each an archive (JSON or NDJSON; '-' for stdin) or a Core Data store (recognised by its SQLite header). Records are matched by id: per-kind counts, then each differing record with its fields (old → new, dates losslessly), links added or removed, ordered lists in a new order, records only on one side. exportDate, generator and source are ignored. The report goes to stdout.\n\n\(exitConvention)",
        positionals: [.init(name: "a", help: "The first graph: an archive, '-' for stdin, or a store."),
                      .init(name: "b", help: "The second graph.")],
        options: [
            .init(name: "--mapping", valueName: "file", help: "How a store side's entities map (see 'tasks inspect')."),
            .init(name: "--limit", valueName: "n", help: "Differing records listed per kind in the text report.", defaultValue: "20"),
            .init(name: "--json", help: "Print the comparison as JSON on stdout (up to 1000 records listed, all counted)."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        guard parsed.positionals.count == 2 else {
            throw UsageError("Expected two graphs to compare, A and B", command: description)
        }
        let limit = try self.limit(parsed, description)
        let mapping = try parsed.value("--mapping").map { path throws(TaskInterchangeError) in try StoreMapping(contentsOf: path) }
        let a = try GraphSource.detecting(path: parsed.positionals[0], mapping: mapping)
        let b = try GraphSource.detecting(path: parsed.positionals[1], mapping: mapping)
        let diff = try GraphComparison.compare(a, b)
        if parsed.flag("--json") {
            Console.output(Console.json(diff))
        } else {
            var text = "A: \(a.name)\nB: \(b.name)\n" + DiffRenderer.text(diff, limit: limit)
            text += diff.isEqual
                ? "\nA and B hold the same graph (\(DiffRenderer.total(diff)) records and their subtasks)\n"
                : "\nA and B differ: \(diff.differenceCount) record\(diff.differenceCount == 1 ? "" : "s")\n"
            Console.output(text)
        }
        return diff.isEqual ? ExitCode.ok : ExitCode.different
    }

    static func limit(_ parsed: ParsedArguments, _ description: CommandDescription) throws -> Int {
        guard let text = parsed.value("--limit") else { return 20 }
        guard let value = Int(text), value >= 0 else {
            throw UsageError("The value '\(text)' is invalid for '--limit <n>' (expected a count)", command: description)
        }
        return value
    }
}
