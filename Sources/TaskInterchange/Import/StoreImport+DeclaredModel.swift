/// A new store with no template given takes its layout from the archive's own model declarations when the archive
/// carries generic entities: the built-in task model alone has no place for them. Typed kinds still go into the
/// task model's entities, which join the declared ones when the archive read typed kinds.
extension StoreImport {
    /// The template a new store given none gets: one made from `source.model` when it declares entities (nil: the
    /// built-in task model).
    /// - Throws: `.invalidData` when the declarations cannot make a store (see `ObjectModel(declarations:)`).
    static func newStoreTemplate(_ header: ArchiveHeader?) throws(TaskInterchangeError)
        -> StoreTemplate?
    {
        guard let source = header?.source, !source.model.isEmpty else { return nil }
        let kindEntities = [
            "project": "Project", "category": "Category", "tag": "Tag", "task": "Task", "subtask": "Subtask",
        ]
        var typed: [String: String] = [:]
        for (kind, entity) in source.entities { typed[entity] = kindEntities[kind] }
        let model = try ObjectModel(
            declarations: source.model, typed: typed, base: source.entities.isEmpty ? nil : TaskManagerModel.model)
        return StoreTemplate(model: model)
    }

    /// Said of a store made from the declarations: an app needs its own model's store; raw untyped columns are kept
    /// as numbers.
    static func declaredModelWarnings(_ header: ArchiveHeader?) -> [String] {
        let template = TaskInterchangeError.Setting.template.name
        var warnings = [
            "the new store was made from the archive's model declarations (source.model): every record has its place, "
                + "but an app opening it expects the store its own model makes (version hashes, optionality, defaults "
                + "and which relationship sides are to-one, all of which the declarations lack); import into a new "
                + "store made from the app's model (\(template)) for that"
        ]
        let untyped = ObjectModel.untypedProperties(of: header?.source?.model ?? [:])
        if !untyped.isEmpty {
            warnings.append(
                "\(untyped.joined(separator: ", ")): untyped (the source was read without its model), kept as integer "
                    + "columns; the keys and positions among them are the source store's, not links of the new store")
        }
        return warnings
    }

    /// A new store nothing arrived in holds none of the archive's records: the wrong target, whatever `strict` says
    /// (there is no user data in it to keep).
    static func checkAnythingArrived(_ plan: ImportPlan) throws(TaskInterchangeError) {
        let arrived =
            (plan.kinds.values.map(\.inserted) + plan.entities.values.map(\.inserted)
            + plan.tables.values.map(\.inserted)).reduce(0, +)
        let missing = plan.lacking.filter { !$0.key.contains(".") || $0.key.hasPrefix("tables.") }
        guard arrived == 0, !missing.isEmpty else { return }
        let list = missing.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        throw TaskInterchangeError(
            .invalidData,
            "the new store has no place for any of the archive's records: \(list); make it from the app's model "
                + "(\(setting: .template)); nothing was written")
    }
}
