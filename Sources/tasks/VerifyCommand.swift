import Foundation
import TaskInterchange

/// `tasks verify`: after a migration, does the store hold what the file holds?
struct VerifyCommand: Command {
    static let store = SharedOptions.store("The store to check.")
    static let mapping = SharedOptions.mapping("How the store's entities map (see 'tasks inspect').")
    static let json = SharedOptions.json("Print the comparison as JSON on stdout.")
    static let model = SharedOptions.model(
        "Read the store with the app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom), for a store that keeps no "
            + "model cache (one made from the model): its property names and types.")
    static let modelVersion = SharedOptions.modelVersion(
        "With --model: the store's version (default: the one whose hashes the store records).")

    static let description = CommandDescription(
        name: "verify",
        abstract: "Check that a store holds what an interchange file holds.",
        summary: "Check that a store holds what an interchange file holds (exit 0 yes, 1 no).",
        discussion: "Compares the file with the store as 'tasks diff' does, for the kinds and entities the file "
            + "carries (a version 1 file: projects, tags and tasks without notes, due dates or categories; an entity "
            + "the store does not have is counted, not compared). Records the store holds "
            + "beyond the file are counted, not differences. The report goes to "
            + "stdout.\n\n\(DiffCommand.exitConvention)",
        positionals: [ArchiveArgument.positional("The archive; '-' or nothing reads stdin (JSON or NDJSON).")],
        options: [store, mapping, model, modelVersion, SharedOptions.versionOrder, SharedOptions.limit, json])

    var store: String
    var mapping: MappingFile
    var model: String?
    var modelVersion: String?
    var versionOrder: String?
    var limit: Int
    var json: Bool
    var input: ArchiveArgument

    init(_ arguments: ParsedArguments) throws(UsageError) {
        store = try StoreArgument.read(arguments, Self.store)
        limit = try arguments.value(SharedOptions.limit)
        mapping = try MappingFile(arguments, Self.mapping)
        model = try arguments.optional(Self.model)
        modelVersion = try arguments.optional(Self.modelVersion)
        versionOrder = try arguments.optional(SharedOptions.versionOrder)
        json = arguments.flag(Self.json)
        input = ArchiveArgument(arguments)
    }

    func validate() throws(UsageError) {
        if modelVersion != nil && model == nil { throw UsageError("--model-version needs --model") }
        if versionOrder != nil && model == nil { throw UsageError("--version-order needs --model") }
    }

    func run() throws -> Int32 {
        let mapping = try mapping.load()
        guard FileManager.default.fileExists(atPath: store) else {
            throw TaskInterchangeError(.noInput, "\(store): no such store file\(Suggestion.nearPath(to: store))")
        }
        let source = try model.map { try ModelSource(path: $0) }
        let diff = try GraphComparison.verify(
            input.path.map { .archive(path: $0) } ?? .standardInput,
            against: .store(
                path: store, mapping: mapping, model: try source?.model(forStore: store, version: modelVersion)),
            modelChange: mapping?.modelChange ?? ModelChangeOverrides(),
            modelVersions: try source.map { try SharedOptions.versionOrder($0, names: versionOrder) })
        if json {
            try Console.output(Console.json(diff))
        } else {
            try Console.output(
                "File: \(diff.nameA)\nStore: \(store)\n" + DiffRenderer.text(diff, limit: limit) + "\n"
                    + Self.verdict(diff) + "\n")
        }
        return diff.isEqual ? ExitCode.ok : ExitCode.different
    }

    /// One line: verified, or how many records differ.
    static func verdict(_ diff: GraphDiff) -> String {
        let beyond =
            diff.kinds.filter { $0.kind != .subtask }.reduce(0) { $0 + $1.onlyInB }
            + diff.entities.reduce(0) { $0 + $1.onlyInB }
        var extra = beyond > 0 ? "; the store holds \(beyond) more record\(beyond == 1 ? "" : "s")" : ""
        let uncompared = diff.entities.filter { !$0.compared }
        if !uncompared.isEmpty {
            let count = uncompared.reduce(0) { $0 + $1.countA }
            extra +=
                "; \(count) record\(count == 1 ? "" : "s") of \(uncompared.count) entit"
                + "\(uncompared.count == 1 ? "y" : "ies") the store does not have not compared"
        }
        if let change = diff.modelChange, !change.droppedNothing {
            let listed =
                (change.droppedRecords.map { ("\($0.key) records", $0.value) }
                + change.droppedValues.map { ($0.key, $0.value) }).sorted { $0.0 < $1.0 }
                .map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            extra += "; dropped by the model change, not compared: \(listed)"
        }
        if diff.comparedNothing {
            return "not verified: none of the \(diff.uncomparedRecords) records of \(diff.nameA) was compared: "
                + "\(diff.nameB) has none of their entities"
        }
        return diff.isEqual
            ? "verified: \(diff.nameB) holds every record of \(diff.nameA) (\(DiffRenderer.total(diff)) records and "
                + "their subtasks)\(extra)"
            : "not verified: \(diff.differenceCount) record\(diff.differenceCount == 1 ? "" : "s") of \(diff.nameA) "
                + "missing or different in \(diff.nameB)\(extra)"
    }
}
