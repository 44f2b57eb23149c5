import Foundation

/// Templates made from a model instead of a store: the schema, `Z_PRIMARYKEY` rows and `Z_METADATA` Core Data writes
/// for that model in a new store (`ObjectModel+Schema`, `ObjectModel+Metadata`), so `--model-from` accepts the
/// `.xcdatamodeld`, `.xcdatamodel`, `.mom` or `.momd` the app is built from.
extension StoreTemplate {
    /// The framework version new stores made from a model claim: the oldest that writes the model checksum.
    public static let defaultFrameworkVersion = 1344

    /// A template for `model`, with the model cache Core Data would write for it, so the store names its own model
    /// to every later reader. A model with a part whose archived form is not known to match Core Data's gets no cache
    /// (`modelCacheOmission` says which): Core Data misreading a cache is worse than having none, and stores from
    /// frameworks that kept none open with the app's model all the same.
    public init(model: ObjectModel, frameworkVersion: Int = defaultFrameworkVersion) {
        // Laid out once, for the statements and the entity numbers alike.
        let layout = SchemaLayout(model: model)
        objects = layout.statements.map { statement in
            let upper = statement.uppercased()
            // An R-tree fetch index is a virtual table: made with the tables, so the rows written later reach it.
            let type =
                upper.hasPrefix("CREATE TABLE") || upper.hasPrefix("CREATE VIRTUAL TABLE")
                ? "table" : upper.hasPrefix("CREATE TRIGGER") ? "trigger" : "index"
            return SchemaObject(type: type, sql: statement)
        }
        let numbers = layout.entityNumbers
        entities = model.entities.compactMap { entity in
            guard let number = numbers[entity.name] else { return nil }
            return (number, entity.name, entity.superentity.flatMap { numbers[$0] } ?? 0)
        }.sorted { $0.number < $1.number }
        metadata = model.metadataPlist(frameworkVersion: frameworkVersion)
        do {
            modelCache = try model.modelCache()
            modelCacheOmission = nil
        } catch {
            modelCache = nil
            if case .unsupported(let part) = error {
                modelCacheOmission = part
            } else {
                modelCacheOmission = "\(error)"
            }
        }
        versionIdentifier = 1
        self.model = model
    }

    /// What a template is made from (``StoreImportOptions/template``): a model (by its extension; `version` picks one of an `.xcdatamodeld`'s or
    /// `.momd`'s versions, the current one when nil) or a store.
    /// - Throws: ``TaskInterchangeError`` from reading the model or the store; `.usage` when a version is given
    ///   for a store.
    public init(modelFrom path: String, version: String? = nil, frameworkVersion: Int = defaultFrameworkVersion)
        throws(TaskInterchangeError)
    {
        if ModelSource.isModelPath(path) {
            let source = try ModelSource(path: path)
            self.init(model: try source.version(named: version).model, frameworkVersion: frameworkVersion)
            return
        }
        if version != nil {
            throw TaskInterchangeError(
                .usage, "\(path): a model version applies to a model (.xcdatamodeld, .momd), not to a store")
        }
        try self.init(path: path)
    }
}
