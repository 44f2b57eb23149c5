import Foundation
import TaskInterchange
import TaskModelTools

/// `tasks model lint`: the Core Data → SwiftData / CloudKit audit checklist.
struct ModelLintCommand: Command {
    static let store = SharedOptions.store(
        "Lint the model cached in this store instead of a model; with --model, the store whose records the model's "
            + "uniqueness constraints are checked against.", isRequired: false)
    static let model = SharedOptions.model(
        "With --store: lint this model's version, and list each group of the store's records (read as a migration "
            + "into that version reads them) that would share the values of one of its uniqueness constraints.")
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
        discussion: "Exit 0 whatever is found (findings are advice); 65 when the model or the store cannot be read.",
        positionals: [ModelCommand.modelArgument],
        options: [store, model, modelVersion, SharedOptions.versionOrder, cloudKit, json])

    var model: ModelCommand.ModelOrStore
    /// With `--store` and `--model`: the store checked against the model's uniqueness constraints.
    var records: String?
    var modelVersion: String?
    var versionOrder: String?
    var cloudKit: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let path = try arguments.optional(Self.model) {
            guard let store = try arguments.optional(Self.store), arguments.positionals.isEmpty else {
                throw UsageError("--model needs --store (the store to check) and no model argument")
            }
            model = .model(path)
            records = store
        } else {
            model = try ModelCommand.ModelOrStore(arguments, store: Self.store)
        }
        modelVersion = try arguments.optional(Self.modelVersion)
        versionOrder = try arguments.optional(SharedOptions.versionOrder)
        cloudKit = arguments.flag(Self.cloudKit)
        json = arguments.flag(Self.json)
    }

    func validate() throws(UsageError) {
        if versionOrder != nil && records == nil { throw UsageError("--version-order needs --store and --model") }
    }

    func run() throws -> Int32 {
        let source = try model.source()
        let version = try source.version(named: modelVersion)
        var findings = ModelLint(model: version.model, cloudKit: cloudKit).findings
        if let records {
            findings += ModelLint.duplicateFindings(
                try DuplicateCheck.groups(
                    inStore: records, model: version.model,
                    versions: try SharedOptions.versionOrder(source, names: versionOrder),
                    storeModel: try Self.storeModel(records, source: source)))
        }
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

    /// The model the store is read with: the version that wrote it, else its own model cache (nil), as a migration
    /// reads it.
    static func storeModel(_ store: String, source: ModelSource) throws -> ObjectModel? {
        guard FileManager.default.fileExists(atPath: store) else {
            throw TaskInterchangeError(.noInput, "\(store): no such store file")
        }
        let identification = try ModelIdentification(storePath: store, source: source)
        return try identification.version.map { try source.version(named: $0).model }
    }
}
