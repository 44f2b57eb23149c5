import Foundation
import TaskInterchange

/// `tasks verify`: after a migration, does the store hold what the file holds?
struct VerifyCommand: Command {
    static let store = SharedOptions.store("The store to check.")
    static let modelOptions = ModelOptions.Declarations(
        mapping: "How the store's entities map (see 'tasks inspect').",
        model:
            "Read the store with the app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom), for a store that keeps no "
            + "model cache (one made from the model): its property names and types.",
        modelVersion: "With --model: the store's version (default: the one whose hashes the store records).")
    static let json = SharedOptions.json("Print the comparison as JSON on stdout.")

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
        options: [
            store, modelOptions.mapping, modelOptions.model, modelOptions.modelVersion, modelOptions.versionOrder,
            SharedOptions.limit, json,
        ])

    var store: String
    var modelOptions: ModelOptions
    var limit: Int
    var json: Bool
    var input: ArchiveArgument

    init(_ arguments: ParsedArguments) throws(UsageError) {
        store = try StoreArgument.read(arguments, Self.store)
        limit = try arguments.value(SharedOptions.limit)
        modelOptions = try ModelOptions(arguments, Self.modelOptions)
        json = arguments.flag(Self.json)
        input = ArchiveArgument(arguments)
    }

    func validate() throws(UsageError) {
        try modelOptions.validate()
    }

    func run() throws -> Int32 {
        let mapping = try modelOptions.mapping.load()
        guard FileManager.default.fileExists(atPath: store) else {
            throw TaskInterchangeError(.noInput, "\(store): no such store file\(Suggestion.nearPath(to: store))")
        }
        let source = try modelOptions.source()
        // Read through the store's model, the archive may be read twice (duplicates under its constraints first).
        let file: GraphSource =
            try input.path.map { .archive(path: $0) }
            ?? (source == nil ? .standardInput : .input(ArchiveInput.standardInput()))
        let diff = try GraphComparison.verify(
            file,
            against: .store(
                path: store, mapping: mapping,
                model: try source?.model(forStore: store, version: modelOptions.modelVersion)),
            modelChange: mapping?.modelChange ?? ModelChangeOverrides(),
            modelVersions: try source.map { try modelOptions.versionOrder(of: $0) })
        if json {
            try Console.output(Console.json(diff))
        } else {
            try Console.output(
                "File: \(diff.nameA)\nStore: \(store)\n" + CommandLineText.rewrite(diff.description(limit: limit))
                    + "\n"
                    + diff.verificationVerdict + "\n")
        }
        return diff.isEqual ? ExitCode.ok : ExitCode.different
    }
}
