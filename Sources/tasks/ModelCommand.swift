import Foundation
import TaskInterchange

/// `tasks model`: the app's Core Data model as an input (`.xcdatamodeld`, `.xcdatamodel`, `.momd`, `.mom`).
enum ModelCommand {
    nonisolated(unsafe) static let subcommands: [String: (description: CommandDescription, run: ([String]) throws -> Int32)] = [
        "hashes": (ModelHashesCommand.description, ModelHashesCommand.run),
        "identify": (ModelIdentifyCommand.description, ModelIdentifyCommand.run),
        "new-store": (ModelNewStoreCommand.description, ModelNewStoreCommand.run),
        "swiftdata": (ModelSwiftDataCommand.description, ModelSwiftDataCommand.run),
        "lint": (ModelLintCommand.description, ModelLintCommand.run),
    ]

    /// `tasks model --help` (and `tasks model <subcommand> --help`, which Tasks routes here) lists every
    /// subcommand with its usage line, so each one's options are shown.
    static let description = CommandDescription(
        name: "model",
        abstract: "Read the app's model (.xcdatamodeld, .xcdatamodel, .momd, .mom): hashes, which version made a store, new stores, SwiftData code, lint.",
        discussion: "SUBCOMMANDS:\n" + order.map { name in
            let command = subcommands[name]!.description
            var text = "\n  \(command.usage)\n    \(command.abstract)\n"
            for positional in command.positionals { text += "  " + CommandDescription.row("<\(positional.name)>", positional.help) }
            for option in command.options {
                var label = option.short.map { "\($0), \(option.name)" } ?? option.name
                if let valueName = option.valueName { label += " <\(valueName)>" }
                text += "  " + CommandDescription.row(label, option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
            }
            return text
        }.joined() + "\n  'tasks help model' and 'tasks model <subcommand> -h' show this text.",
        positionals: [.init(name: "subcommand", help: order.joined(separator: ", ") + ", then its arguments.")],
        options: [])

    static let order = ["hashes", "identify", "new-store", "swiftdata", "lint"]

    static func run(_ arguments: [String]) throws -> Int32 {
        guard let name = arguments.first else {
            throw UsageError("Missing subcommand (expected one of: \(subcommands.keys.sorted().joined(separator: ", ")))", command: description)
        }
        guard let subcommand = subcommands[name] else {
            throw UsageError("Unknown subcommand 'model \(name)' (expected one of: \(subcommands.keys.sorted().joined(separator: ", ")))", command: description)
        }
        return try subcommand.run(Array(arguments.dropFirst()))
    }

    /// The model positional, or `--store`'s cached model, as the subcommands that accept either read it.
    static func source(model: String?, store: String?, command: CommandDescription) throws -> ModelSource {
        switch (model, store) {
        case (let model?, nil):
            return try ModelSource(path: model)
        case (nil, let store?):
            return try ModelSource(storePath: store)
        case (nil, nil):
            throw UsageError("Missing expected argument '<model>' (or --store <path>)", command: command)
        case (_?, _?):
            throw UsageError("Give a model or --store, not both", command: command)
        }
    }
}
