import Foundation
import TaskInterchange
import TaskModelTools

/// `tasks model swiftdata`: SwiftData `@Model` code for a model.
struct ModelSwiftDataCommand: Command {
    static let store = SharedOptions.store("Use the model cached in this store instead of a model.", isRequired: false)
    static let modelVersion = SharedOptions.modelVersion("Only this version (default: every version of the model).")
    static let output = SharedOptions.output("dir", "The directory to create.", isRequired: true)

    static let description = CommandDescription(
        name: "model swiftdata",
        abstract: "Write SwiftData @Model classes that open the existing store: one file per entity, and for several "
            + "versions a VersionedSchema each and a SchemaMigrationPlan.",
        discussion: "Names are kept so SwiftData finds the store's tables; a name that collides with a Swift or "
            + "SwiftData type is renamed in Swift only. Comments mark what SwiftData has no equivalent for. The "
            + "directory is created and must not exist.",
        positionals: [ModelCommand.modelArgument],
        options: [store, modelVersion, output])

    var model: ModelCommand.ModelOrStore
    var modelVersion: String?
    var output: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        output = try arguments.value(Self.output)
        model = try ModelCommand.ModelOrStore(arguments, store: Self.store)
        modelVersion = try arguments.optional(Self.modelVersion)
    }

    func run() throws -> Int32 {
        let source = try model.source()
        let versions = try modelVersion.map { [try source.version(named: $0)] } ?? source.versions
        let modelName = URL(fileURLWithPath: source.path).deletingPathExtension().lastPathComponent
        let generated = SwiftDataGenerator(
            versions: versions, currentVersion: source.currentVersionName,
            modelName: modelName, allVersions: source.versions.map(\.name)
        ).files()
        try SwiftDataGenerator.write(generated.files, to: output)
        for note in generated.notes { Console.error("note: \(note)\n") }
        Console.error("Wrote \(generated.files.count) file\(generated.files.count == 1 ? "" : "s") to \(output)\n")
        return ExitCode.ok
    }
}
