import Foundation
import TaskInterchange

/// `tasks model new-store`: an empty store for a model version.
struct ModelNewStoreCommand: Command {
    static let modelVersion = SharedOptions.modelVersion("The version to use (default: the model's current version).")
    static let frameworkVersion = Option<Int>(
        "--framework-version", valueName: "n", help: "NSPersistenceFrameworkVersion to record.",
        default: StoreTemplate.defaultFrameworkVersion, range: 1..., expected: "expected a positive integer")
    static let output = SharedOptions.output("path", "The new store.", isRequired: true)

    static let description = CommandDescription(
        name: "model new-store",
        abstract: "Create an empty store with the layout and \(CoreDataNames.metadataTable) Core Data writes for a "
            + "model version, so the app opens it without a migration.",
        discussion: "The store appears at the path only when complete; an existing file is never replaced.",
        positionals: [ModelCommand.modelArgument],
        options: [modelVersion, frameworkVersion, output])

    var model: String
    var modelVersion: String?
    var frameworkVersion: Int
    var output: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let model = arguments.positionals.first else { throw UsageError("Missing expected argument '<model>'") }
        self.model = model
        output = try arguments.value(Self.output)
        frameworkVersion = try arguments.value(Self.frameworkVersion)
        modelVersion = try arguments.optional(Self.modelVersion)
    }

    func run() throws -> Int32 {
        let source = try ModelSource(path: model)
        let version = try source.version(named: modelVersion)
        let template = StoreTemplate(model: version.model, frameworkVersion: frameworkVersion)
        try template.makeEmptyStore(at: output)
        Console.error(
            "Created \(output): an empty store for \(version.name) (\(version.model.entities.count) "
                + "entities, framework version \(frameworkVersion))\n")
        if let omission = template.modelCacheOmission {
            Console.error(
                "note: no model cache written (\(omission): its archived form is not known to match Core Data's); "
                    + "later commands need the model passed again\n")
        }
        for caveat in version.model.schemaCaveats { Console.error("warning: \(caveat)\n") }
        return ExitCode.ok
    }
}
