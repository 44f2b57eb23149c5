import Foundation
import TaskInterchange

/// The comma-separated lists `export` and `import` take to choose kinds and entities.
enum SelectionOptions {
    /// `--kinds <list>`; read with `kinds(_:_:)`, which names an unknown kind.
    static func kinds(_ help: String) -> Option<String> {
        Option("--kinds", valueName: "list", help: help)
    }

    /// `--entities <list>`.
    static func entities(_ help: String) -> Option<[String]> {
        Option(
            "--entities", valueName: "list", help: help, expected: "expected entity names, comma-separated",
            convert: list)
    }

    /// The items of a comma-separated list, trimmed, empty ones left out; nil when none is left (an empty list
    /// would select nothing, surely not what was meant).
    @Sendable static func list(_ text: String) -> [String]? {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return items.isEmpty ? nil : items
    }

    /// `--kinds` as record kinds; nil when the option is absent.
    /// - Throws: `UsageError` naming the first unknown kind.
    static func kinds(_ arguments: ParsedArguments, _ option: Option<String>) throws(UsageError) -> Set<RecordKind>? {
        guard let text = try arguments.optional(option) else { return nil }
        let names = list(text) ?? []
        guard !names.isEmpty else {
            throw UsageError(
                "--kinds: the list is empty (expected some of "
                    + RecordKind.sections.map(\.rawValue).joined(separator: ", ") + ")")
        }
        var kinds: Set<RecordKind> = []
        for name in names {
            guard let kind = RecordKind(rawValue: name), RecordKind.sections.contains(kind) else {
                throw UsageError(
                    "--kinds: unknown kind '\(name)' (expected "
                        + RecordKind.sections.map(\.rawValue).joined(separator: ", ") + ")")
            }
            kinds.insert(kind)
        }
        return kinds
    }
}
