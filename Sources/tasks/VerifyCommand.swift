import Foundation
import TaskInterchange

/// `tasks verify`: after a migration, does the store hold what the file holds?
enum VerifyCommand {
    static let description = CommandDescription(
        name: "verify",
        abstract: "Check that a store holds what an interchange file holds.",
        discussion: "Compares the file with the store as 'tasks diff' does, for the kinds the file carries (a version 1 file: projects, tags and tasks without notes, due dates or categories). Records the store holds beyond the file are counted, not differences. The report goes to stdout.\n\n\(DiffCommand.exitConvention)",
        positionals: [.init(name: "file", help: "The archive; '-' or nothing reads stdin (JSON or NDJSON).")],
        options: [
            .init(name: "--store", valueName: "path", help: "The store to check.", isRequired: true),
            .init(name: "--mapping", valueName: "file", help: "How the store's entities map (see 'tasks inspect')."),
            .init(name: "--limit", valueName: "n", help: "Differing records listed per kind in the text report.", defaultValue: "20"),
            .init(name: "--json", help: "Print the comparison as JSON on stdout."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let store = try parsed.required("--store", for: description)
        let limit = try DiffCommand.limit(parsed, description)
        let mapping = try parsed.value("--mapping").map { path throws(TaskInterchangeError) in try StoreMapping(contentsOf: path) }
        let file = parsed.positionals.first ?? "-"
        guard FileManager.default.fileExists(atPath: store) else {
            throw TaskInterchangeError(.noInput, "\(store): no such store file")
        }
        let diff = try GraphComparison.verify(file == "-" ? .standardInput : .archive(path: file),
                                              against: .store(path: store, mapping: mapping))
        if parsed.flag("--json") {
            Console.output(Console.json(diff))
        } else {
            Console.output("File: \(diff.nameA)\nStore: \(store)\n" + DiffRenderer.text(diff, limit: limit) + "\n" + verdict(diff) + "\n")
        }
        return diff.isEqual ? ExitCode.ok : ExitCode.different
    }

    /// One line: verified, or how many records differ.
    static func verdict(_ diff: GraphDiff) -> String {
        let beyond = diff.kinds.filter { $0.kind != .subtask }.reduce(0) { $0 + $1.onlyInB }
        let extra = beyond > 0 ? "; the store holds \(beyond) more record\(beyond == 1 ? "" : "s")" : ""
        return diff.isEqual
            ? "verified: \(diff.nameB) holds every record of \(diff.nameA) (\(DiffRenderer.total(diff)) records and their subtasks)\(extra)"
            : "not verified: \(diff.differenceCount) record\(diff.differenceCount == 1 ? "" : "s") of \(diff.nameA) missing or different in \(diff.nameB)\(extra)"
    }
}
