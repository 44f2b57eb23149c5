import Foundation

/// A store's own model (its `Z_MODELCACHE`) as a one-version model source, for `--store` in place of a model.
extension ModelSource {
    /// Reads the model cached in a store (through a read-only snapshot).
    /// - Throws: `TaskInterchangeError` — `.invalidData` when the store keeps no model cache (frameworks up to 519
    ///   wrote none) or it cannot be decoded; the store's own errors when it cannot be read.
    package init(storePath: String) throws(TaskInterchangeError) {
        let snapshot = try StoreSnapshot(path: storePath)
        guard let model = try ObjectModel(modelCacheOf: snapshot) else {
            throw TaskInterchangeError(
                .invalidData,
                "\(storePath): the store keeps no model cache (\(CoreDataNames.modelCacheTable)); "
                    + "pass the app's model instead")
        }
        path = storePath
        kind = .store
        let name = URL(fileURLWithPath: storePath).deletingPathExtension().lastPathComponent
        versions = [Version(name: name, model: model, path: storePath)]
        currentVersionName = name
    }
}
