import Foundation
import TaskInterchange

/// `tasks model`: the app's Core Data model as an input (`.xcdatamodeld`, `.xcdatamodel`, `.momd`, `.mom`).
enum ModelCommand: Subcommand {
    /// The subcommands, in the order help lists them.
    static let subcommands: [any Command.Type] = [
        ModelHashesCommand.self, ModelIdentifyCommand.self, ModelNewStoreCommand.self, ModelSwiftDataCommand.self,
        ModelLintCommand.self, ModelDiagramCommand.self,
    ]

    static let modelArgument = CommandDescription.Positional(
        name: "model", help: "An .xcdatamodeld or .momd folder, an .xcdatamodel or a .mom.")

    /// A subcommand's name after `model `.
    static func name(of command: any Command.Type) -> String {
        String(command.description.name.dropFirst("model ".count))
    }

    /// `tasks model --help` lists every subcommand with its usage line; each one's own help (`tasks model <name>
    /// --help`) has its arguments, options and discussion.
    static let description = CommandDescription(
        name: "model",
        abstract: "Read the app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom): hashes, which version made a "
            + "store, new stores, SwiftData code, lint, diagrams.",
        summary:
            "Read the app's model: hashes, identify a store's version, new stores, SwiftData code, lint, diagrams.",
        discussion: "SUBCOMMANDS:\n"
            + subcommands.map { "\n  \($0.description.usage)\n    \($0.description.abstract)\n" }.joined()
            + "\n  See 'tasks model <subcommand> --help' for its arguments and options.",
        positionals: [
            .init(
                name: "subcommand",
                help: subcommands.map(name(of:)).joined(separator: ", ") + ", then its "
                    + "arguments.")
        ],
        options: [])

    static func description(for arguments: [String]) -> CommandDescription {
        subcommands.first { name(of: $0) == arguments.first }?.description ?? description
    }

    static func main(_ arguments: [String]) throws -> Int32 {
        let names = subcommands.map(name(of:))
        let expected = "(expected one of: \(names.sorted().joined(separator: ", ")))"
        guard let name = arguments.first else {
            throw UsageError("Missing subcommand \(expected)", command: description)
        }
        guard let subcommand = subcommands.first(where: { self.name(of: $0) == name }) else {
            let suggestion = Suggestion.closest(to: name, among: names).map { ". Did you mean 'model \($0)'?" } ?? ""
            throw UsageError("Unknown subcommand 'model \(name)' \(expected)\(suggestion)", command: description)
        }
        return try subcommand.main(Array(arguments.dropFirst()))
    }

    /// The model positional, or `--store`'s cached model, as the subcommands that accept either read them.
    enum ModelOrStore {
        case model(String)
        case store(String)

        init(_ arguments: ParsedArguments, store option: Option<String>) throws(UsageError) {
            switch (arguments.positionals.first, try arguments.optional(option)) {
            case (let model?, nil): self = .model(model)
            case (nil, let store?): self = .store(store)
            case (nil, nil): throw UsageError("Missing expected argument '<model>' (or --store <path>)")
            case (_?, _?): throw UsageError("Give a model or --store, not both")
            }
        }

        /// Reads the model.
        /// - Throws: `TaskInterchangeError` when it cannot be read.
        func source() throws -> ModelSource {
            switch self {
            case .model(let path): return try ModelSource(path: path)
            case .store(let path): return try ModelSource(storePath: path)
            }
        }
    }
}
