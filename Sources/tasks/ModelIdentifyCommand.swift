import Foundation
import TaskInterchange

/// `tasks model identify`: which version of a model made a store.
struct ModelIdentifyCommand: Command {
    static let store = SharedOptions.store("The Core Data SQLite store (read through a snapshot; not changed).")
    static let model = Option<String>(
        "--model", valueName: "path",
        help: "An .xcdatamodeld or .momd folder, an "
            + ".xcdatamodel or a .mom.", isRequired: true)
    static let json = SharedOptions.json(
        "Print a JSON object for scripts instead of text (\"version\" is null when "
            + "none matches).")

    static let description = CommandDescription(
        name: "model identify",
        abstract: "Name the model version whose hashes equal a store's; when none does, how the closest version "
            + "differs (Core Data error 134130).",
        discussion: "Exit 0 when a version matches, 1 when none does. Versions with identical hashes are reported as "
            + "tied; the store's model version identifiers break the tie.",
        options: [store, model, json])

    var store: String
    var model: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        store = try StoreArgument.read(arguments, Self.store)
        model = try arguments.value(Self.model)
        json = arguments.flag(Self.json)
    }

    func run() throws -> Int32 {
        let source = try ModelSource(path: model)
        let identification = try ModelIdentification(storePath: store, source: source)
        try Console.output(json ? Console.json(identification) : Self.text(identification))
        return identification.matched ? ExitCode.ok : ExitCode.different
    }

    static func text(_ result: ModelIdentification) -> String {
        var lines = [
            "Store: \(result.store) (\(result.storeEntities) entit\(result.storeEntities == 1 ? "y" : "ies"), "
                + "version identifiers \(list(result.storeVersionIdentifiers)), model cache: "
                + "\(result.storeHasModelCache ? "yes" : "no"))",
            "Model: \(result.model)", "",
        ]
        let width = max(7, result.candidates.map(\.name.count).max() ?? 0)
        lines.append(
            "  " + "version".padding(toLength: width, withPad: " ", startingAt: 0)
                + "  matching entity hashes")
        for candidate in result.candidates {
            lines.append(
                "  " + candidate.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  \(candidate.matchingEntities)/\(candidate.entities) (store has "
                    + "\(result.storeEntities))\(candidate.matches ? "  ✓ match" : "")")
        }
        lines.append("")
        if let version = result.version {
            lines.append("Made by: \(version)")
        }
        if !result.tied.isEmpty {
            lines.append("Tied: \(result.tied.joined(separator: ", ")) have identical hashes")
            if let reason = result.tieBreak { lines.append("  \(reason)") }
        }
        if let closest = result.closest {
            lines.append(
                "No version matches: Core Data would fail to open or migrate this store with this model "
                    + "(error 134130, missing source model).")
            lines.append("Closest: \(closest), which differs from the store in:")
            for difference in result.differences { lines.append("  \(difference)") }
            if !result.storeHasModelCache {
                lines.append("  (the store has no model cache, so only entity hashes can be compared)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func list(_ identifiers: [String]) -> String {
        "[" + identifiers.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }
}
