import Foundation
import TaskInterchange

/// `tasks model lint`: the Core Data → SwiftData / CloudKit audit checklist.
enum ModelLintCommand {
    static let description = CommandDescription(
        name: "model lint",
        abstract: "Audit a model for a move to SwiftData (and CloudKit with --cloudkit): each finding with a code and its place.",
        discussion: "Exit 0 whatever is found (findings are advice); 65 when the model cannot be read.",
        positionals: [.init(name: "model", help: "An .xcdatamodeld or .momd folder, an .xcdatamodel or a .mom.")],
        options: [
            .init(name: "--store", valueName: "path", help: "Lint the model cached in this store instead of a model."),
            .init(name: "--model-version", valueName: "name", help: "The version to lint (default: the current version)."),
            .init(name: "--cloudkit", help: "Add CloudKit's rules (no unique constraints, optional or defaulted values, no Deny)."),
            .init(name: "--json", help: "Print a JSON array for scripts instead of text."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let source = try ModelCommand.source(model: parsed.positionals.first, store: parsed.value("--store"), command: description)
        let version = try source.version(named: parsed.value("--model-version"))
        let findings = ModelLint(model: version.model, cloudKit: parsed.flag("--cloudkit")).findings
        if parsed.flag("--json") {
            Console.output(Console.json(findings))
        } else {
            var text = "Model: \(version.path) (\(version.name))\(parsed.flag("--cloudkit") ? ", with CloudKit rules" : "")\n"
            for finding in findings { text += "\(finding)\n" }
            text += "\(findings.count) finding\(findings.count == 1 ? "" : "s")\n"
            Console.output(text)
        }
        return ExitCode.ok
    }
}
