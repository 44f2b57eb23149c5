import TaskInterchange

/// How a command reads or writes a store as the app's model has it — `--mapping`, `--model`, `--model-version` and,
/// where a store is carried through versions, `--version-order` — declared, read and checked together, as an
/// argument-parser option group is; each command gives the help that fits it.
struct ModelOptions {
    /// A command's declarations of the group, listed in its `CommandDescription` where its help shows them.
    struct Declarations: Sendable {
        let mapping: Option<String>
        let model: Option<String>
        let modelVersion: Option<String>
        /// Listed only by the commands that carry a store through versions (read as absent by the others).
        let versionOrder = SharedOptions.versionOrder

        /// The group with each option's help.
        init(mapping: String, model: String, modelVersion: String) {
            self.mapping = SharedOptions.mapping(mapping)
            self.model = SharedOptions.model(model)
            self.modelVersion = SharedOptions.modelVersion(modelVersion)
        }
    }

    var mapping: MappingFile
    /// The model's path.
    var model: String?
    var modelVersion: String?
    /// The versions' names, comma-separated, oldest first.
    var versionOrder: String?

    init(_ arguments: ParsedArguments, _ declarations: Declarations) throws(UsageError) {
        mapping = try MappingFile(arguments, declarations.mapping)
        model = try arguments.optional(declarations.model)
        modelVersion = try arguments.optional(declarations.modelVersion)
        versionOrder = try arguments.optional(declarations.versionOrder)
    }

    /// Checks that a version or an order comes with the model it is of.
    /// - Parameter otherModel: another option that gives a model (import's `--model-from <model>`), with whether it
    ///   was given; the error names it as what `--model-version` needs.
    /// - Throws: `UsageError` for `--model-version` or `--version-order` without a model.
    func validate(otherModel: (name: String, isGiven: Bool)? = nil) throws(UsageError) {
        guard model == nil, otherModel?.isGiven != true else { return }
        if modelVersion != nil { throw UsageError("--model-version needs \(otherModel?.name ?? "--model")") }
        if versionOrder != nil { throw UsageError("--version-order needs --model") }
    }

    /// The model `--model` names, in the version `--model-version` names or, without it, the one that wrote `store`;
    /// nil without `--model`.
    /// - Throws: `TaskInterchangeError` for a model that cannot be read or a version it does not have.
    func model(forStore store: String) throws -> ObjectModel? {
        try source()?.model(forStore: store, version: modelVersion)
    }

    /// The model `--model` names, every version; nil without `--model`.
    /// - Throws: `TaskInterchangeError` for a model that cannot be read.
    func source() throws -> ModelSource? {
        try model.map { try ModelSource(path: $0) }
    }

    /// The order of `source`'s versions: `--version-order`'s, or inferred.
    /// - Throws: `UsageError` for an order that names a version twice or leaves one out.
    func versionOrder(of source: ModelSource) throws -> ModelVersionOrder {
        try SharedOptions.versionOrder(source, names: versionOrder)
    }
}
