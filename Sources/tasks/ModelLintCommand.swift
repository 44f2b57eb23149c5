import Foundation
import TaskInterchange
import TaskModelTools

/// `tasks model lint`: the Core Data → SwiftData / CloudKit audit checklist.
struct ModelLintCommand: Command {
    static let store = SharedOptions.store("Lint the model cached in this store instead of a model.", isRequired: false)
    static let modelVersion = SharedOptions.modelVersion("The version to lint (default: the current version).")
    static let cloudKit = Flag(
        "--cloudkit",
        help: "Add CloudKit's rules (no unique constraints, optional or defaulted "
            + "values, no Deny).")
    static let json = SharedOptions.json("Print a JSON array for scripts instead of text.")

    static let description = CommandDescription(
        name: "model lint",
        abstract: "Audit a model for a move to SwiftData (and CloudKit with --cloudkit): each finding with a code and "
            + "its place.",
        discussion: "Exit 0 whatever is found (findings are advice); 65 when the model cannot be read.",
        positionals: [ModelCommand.modelArgument],
        options: [store, modelVersion, cloudKit, json])

    var model: ModelCommand.ModelOrStore
    var modelVersion: String?
    var cloudKit: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        model = try ModelCommand.ModelOrStore(arguments, store: Self.store)
        modelVersion = try arguments.optional(Self.modelVersion)
        cloudKit = arguments.flag(Self.cloudKit)
        json = arguments.flag(Self.json)
    }

    func run() throws -> Int32 {
        let version = try model.source().version(named: modelVersion)
        let findings = ModelLint(model: version.model, cloudKit: cloudKit).findings
        if json {
            try Console.output(Console.json(findings))
        } else {
            var text = "Model: \(version.path) (\(version.name))\(cloudKit ? ", with CloudKit rules" : "")\n"
            for finding in findings { text += "\(finding)\n" }
            text += "\(findings.count) finding\(findings.count == 1 ? "" : "s")\n"
            try Console.output(text)
        }
        return ExitCode.ok
    }
}
