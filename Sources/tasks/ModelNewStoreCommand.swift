import Foundation
import TaskInterchange

/// `tasks model new-store`: an empty store for a model version.
enum ModelNewStoreCommand {
    static let description = CommandDescription(
        name: "model new-store",
        abstract: "Create an empty store with the layout and Z_METADATA Core Data writes for a model version, so the app opens it without a migration.",
        discussion: "The store appears at the path only when complete; an existing file is never replaced.",
        positionals: [.init(name: "model", help: "An .xcdatamodeld or .momd folder, an .xcdatamodel or a .mom.")],
        options: [
            .init(name: "--model-version", valueName: "name", help: "The version to use (default: the model's current version)."),
            .init(name: "--framework-version", valueName: "n", help: "NSPersistenceFrameworkVersion to record.", defaultValue: String(StoreTemplate.defaultFrameworkVersion)),
            .init(name: "--output", short: "-o", valueName: "path", help: "The new store.", isRequired: true),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        guard let path = parsed.positionals.first else { throw UsageError("Missing expected argument '<model>'", command: description) }
        let output = try parsed.required("--output", for: description)
        var frameworkVersion = StoreTemplate.defaultFrameworkVersion
        if let text = parsed.value("--framework-version") {
            guard let number = Int(text), number > 0 else {
                throw UsageError("The value '\(text)' is invalid for '--framework-version <n>' (expected a positive integer)", command: description)
            }
            frameworkVersion = number
        }
        let source = try ModelSource(path: path)
        let version = try source.version(named: parsed.value("--model-version"))
        try StoreTemplate(model: version.model, frameworkVersion: frameworkVersion).makeEmptyStore(at: output)
        Console.error("Created \(output): an empty store for \(version.name) (\(version.model.entities.count) entities, framework version \(frameworkVersion))\n")
        for caveat in version.model.schemaCaveats { Console.error("warning: \(caveat)\n") }
        return ExitCode.ok
    }
}
