import Foundation
import TaskInterchange

/// The comma-separated lists `export` and `import` take to choose kinds and entities.
enum SelectionOptions {
    /// `--kinds` and `--entities` as import declares them.
    static let importOptions: [CommandDescription.Option] = [
        .init(name: "--kinds", valueName: "list", help: "Load only these kinds (project,category,tag,task); references to the rest link to the target's records with those ids, or are dropped (counted)."),
        .init(name: "--entities", valueName: "list", help: "Load only the records read from these store entities (the archive's source.entities); as --kinds otherwise."),
    ]

    /// The values of a comma-separated list option, trimmed; nil when the option is absent.
    static func list(_ parsed: ParsedArguments, _ name: String) -> [String]? {
        parsed.value(name).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    /// `--kinds` as record kinds.
    static func kinds(_ parsed: ParsedArguments, for command: CommandDescription) throws -> Set<RecordKind>? {
        guard let names = list(parsed, "--kinds") else { return nil }
        return Set(try names.map { name in
            guard let kind = RecordKind(rawValue: name) else {
                throw UsageError("--kinds: unknown kind '\(name)' (expected \(RecordKind.allCases.map(\.rawValue).joined(separator: ", ")))",
                                 command: command)
            }
            return kind
        })
    }
}
