import Foundation
import TaskInterchange

/// `tasks model swiftdata`: SwiftData `@Model` code for a model.
enum ModelSwiftDataCommand {
    static let description = CommandDescription(
        name: "model swiftdata",
        abstract: "Write SwiftData @Model classes that open the existing store: one file per entity, and for several versions a VersionedSchema each and a SchemaMigrationPlan.",
        discussion: "Names are kept so SwiftData finds the store's tables; a name that collides with a Swift or SwiftData type is renamed in Swift only. Comments mark what SwiftData has no equivalent for. The directory is created and must not exist.",
        positionals: [.init(name: "model", help: "An .xcdatamodeld or .momd folder, an .xcdatamodel or a .mom.")],
        options: [
            .init(name: "--store", valueName: "path", help: "Use the model cached in this store instead of a model."),
            .init(name: "--model-version", valueName: "name", help: "Only this version (default: every version of the model)."),
            .init(name: "--output", short: "-o", valueName: "dir", help: "The directory to create.", isRequired: true),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let output = try parsed.required("--output", for: description)
        let source = try ModelCommand.source(model: parsed.positionals.first, store: parsed.value("--store"), command: description)
        let versions = try parsed.value("--model-version").map { [try source.version(named: $0)] } ?? source.versions
        let generated = SwiftDataGenerator(versions: versions, currentVersion: source.currentVersionName,
                                           modelName: URL(fileURLWithPath: source.path).deletingPathExtension().lastPathComponent,
                                           allVersions: source.versions.map(\.name)).files()
        try SwiftDataGenerator.write(generated.files, to: output)
        for note in generated.notes { Console.error("note: \(note)\n") }
        Console.error("Wrote \(generated.files.count) file\(generated.files.count == 1 ? "" : "s") to \(output)\n")
        return ExitCode.ok
    }
}
