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

    /// `--model-version <name>`.
    /// `--model <model>`: the app's model a store is read with.
    static func model(_ help: String) -> Option<String> {
        Option("--model", valueName: "model", help: help)
    }

    /// The model `--model` names, in the version `--model-version` names or, without it, the one that wrote `store`.
    static func model(_ path: String?, version: String?, forStore store: String) throws -> ObjectModel? {
        guard let path else { return nil }
        return try ModelSource(path: path).model(forStore: store, version: version)
    }

    static func modelVersion(_ help: String) -> Option<String> {
        Option("--model-version", valueName: "name", help: help)
    }

    /// `-o, --output <valueName>`.
    static func output(
        _ valueName: String, _ help: String, default defaultValue: String? = nil,
        isRequired: Bool = false
    ) -> Option<String> {
        Option("--output", short: "-o", valueName: valueName, help: help, default: defaultValue, isRequired: isRequired)
    }
}
