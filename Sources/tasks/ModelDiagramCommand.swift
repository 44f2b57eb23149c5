import Foundation
import TaskInterchange
import TaskModelTools

/// `tasks model diagram`: a model (or a store's cached one) as a picture, Mermaid or Graphviz DOT text.
struct ModelDiagramCommand: Command {
    static let store = SharedOptions.store("Draw the model cached in this store instead of a model.", isRequired: false)
    static let modelVersion = SharedOptions.modelVersion("The version to draw (default: the current version).")
    static let format = Option<ModelDiagram.Format>(
        "--format", valueName: "format",
        help: "mermaid (a classDiagram that renders in pull requests and wikis) or dot (Graphviz).",
        default: .mermaid)
    static let from = Option<String>(
        "--from", valueName: "version",
        help: "Mark what the change from this version adds, removes, renames and converts (with --to, or the "
            + "current version).")
    static let to = Option<String>("--to", valueName: "version", help: "The version drawn with --from.")

    static let description = CommandDescription(
        name: "model diagram",
        abstract: "Draw a model: entities, attributes, relationships with their cardinality, inheritance and join "
            + "tables; with --from, what a model change does.",
        discussion: "The text goes to stdout. Exit 0; 64 for a version the model does not have; 65 when the model "
            + "cannot be read.",
        positionals: [ModelCommand.modelArgument],
        options: [store, modelVersion, format, from, to])

    var model: ModelCommand.ModelOrStore
    var version: String?
    var previous: String?
    var format: ModelDiagram.Format

    init(_ arguments: ParsedArguments) throws(UsageError) {
        model = try ModelCommand.ModelOrStore(arguments, store: Self.store)
        let modelVersion = try arguments.optional(Self.modelVersion)
        let to = try arguments.optional(Self.to)
        previous = try arguments.optional(Self.from)
        if to != nil && previous == nil { throw UsageError("--to needs --from (the version it is compared with)") }
        if modelVersion != nil && previous != nil {
            throw UsageError("--model-version draws one version; with --from, name the other one with --to")
        }
        version = modelVersion ?? to
        format = try arguments.value(Self.format)
    }

    func run() throws -> Int32 {
        let source = try model.source()
        let drawn = try source.version(named: version)
        let before = try previous.map { try source.version(named: $0).model }
        // A change across several versions follows each step's renames, as a migration does.
        let order = before == nil ? nil : try SharedOptions.versionOrder(source, names: nil)
        try Console.output(try ModelDiagram(model: drawn.model, previous: before, order: order).text(format))
        return ExitCode.ok
    }
}
