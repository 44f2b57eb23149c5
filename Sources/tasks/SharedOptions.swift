import Foundation
import TaskInterchange

/// Options several commands share, declared once; each command passes the help text that fits it.
enum SharedOptions {
    /// `--store <path>`.
    static func store(_ help: String, isRequired: Bool = true) -> Option<String> {
        Option("--store", valueName: "path", help: help, isRequired: isRequired)
    }

    /// `--mapping <file>`: a mapping file, or the file `tasks inspect --json` writes.
    static func mapping(_ help: String) -> Option<String> {
        Option("--mapping", valueName: "file", help: help)
    }

    /// `--busy-timeout <ms>`: how long SQLite waits for another connection's lock.
    static func busyTimeout(_ help: String) -> Option<Int32> {
        Option("--busy-timeout", valueName: "ms", help: help, default: 5_000, expected: "expected milliseconds")
    }

    /// `--json-summary`: the summary on stderr as JSON.
    static let jsonSummary = Flag("--json-summary", help: "Print the summary to stderr as JSON.")

    /// `--json`: the command's output as JSON.
    static func json(_ help: String) -> Flag {
        Flag("--json", help: help)
    }

    /// `--limit <n>`: records listed per kind in a comparison's text report.
    static let limit = Option<Int>(
        "--limit", valueName: "n",
        help: "Differing records listed per kind in the text "
            + "report.",
        default: 20, expected: "expected a count")

    /// `--model <model>`: the app's model a store is read with.
    static func model(_ help: String) -> Option<String> {
        Option("--model", valueName: "model", help: help)
    }

    /// `--model-version <name>`.
    static func modelVersion(_ help: String) -> Option<String> {
        Option("--model-version", valueName: "name", help: help)
    }

    /// `--version-order <names>`: the model's versions, oldest first.
    static let versionOrder = Option<String>(
        "--version-order", valueName: "names",
        help: "With --model: its versions, oldest first, comma-separated (default: by name, corrected by the "
            + "renaming identifiers); a store is carried through every version between its own and the target's.")

    /// The order of the model's versions: `names` (every one named once) or inferred.
    static func versionOrder(_ source: ModelSource, names: String?) throws -> ModelVersionOrder {
        let versions = source.versions.map { ModelVersionOrder.Version(name: $0.name, model: $0.model) }
        guard let names else { return ModelVersionOrder(inferring: versions) }
        var ordered: [ModelVersionOrder.Version] = []
        for name in names.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let version = try source.version(named: name)
            guard !ordered.contains(where: { $0.name == version.name }) else {
                throw UsageError("--version-order names \(version.name) twice")
            }
            ordered.append(ModelVersionOrder.Version(name: version.name, model: version.model))
        }
        let missing = versions.filter { version in !ordered.contains { $0.name == version.name } }.map(\.name)
        guard missing.isEmpty else {
            throw UsageError("--version-order leaves out \(missing.joined(separator: ", ")); name every version")
        }
        return ModelVersionOrder(given: ordered)
    }

    /// `-o, --output <valueName>`.
    static func output(
        _ valueName: String, _ help: String, default defaultValue: String? = nil,
        isRequired: Bool = false
    ) -> Option<String> {
        Option("--output", short: "-o", valueName: valueName, help: help, default: defaultValue, isRequired: isRequired)
    }
}
