/// The public way to an `ObjectModel`: read it from the app's model files or from a store's model cache, and find the
/// version of a model that wrote a store. The model's contents stay inside the library; an app hands the value on.
extension ObjectModel {
    /// Reads one version of a model: an `.xcdatamodeld` or `.momd` folder (the current version, or `version`), an
    /// `.xcdatamodel` or a `.mom`.
    /// - Parameters:
    ///   - path: the model's file or folder.
    ///   - version: a version's name (with or without its `.xcdatamodel`/`.mom` extension); nil for the current one.
    /// - Throws: `TaskInterchangeError` — `.noInput` when the path does not exist or holds no version, `.invalidData`
    ///   when a file is not a model or the model names no current version among several, `.usage` when there is no
    ///   version `version`, `.io` when a file cannot be read.
    public init(contentsOf path: String, version: String? = nil) throws(TaskInterchangeError) {
        self = try ModelSource(path: path).version(named: version).model
    }

    /// Reads the version of the model at `path` that wrote `store`: the one whose entity version hashes equal those
    /// the store's metadata records (what Core Data compares when it opens the store).
    /// - Parameters:
    ///   - path: the model's `.xcdatamodeld` or `.momd` folder (or a single version).
    ///   - store: the store's path.
    /// - Throws: `TaskInterchangeError` — as `init(contentsOf:version:)`; `.invalidData` when no version matches the
    ///   store (naming the closest one); the store's own errors when it cannot be read.
    public init(contentsOf path: String, versionThatWrote store: String) throws(TaskInterchangeError) {
        self = try ModelSource(path: path).model(forStore: store, version: nil)
    }

    /// The model a store keeps in its model cache (`Z_MODELCACHE`), read through a read-only snapshot; nil when the
    /// store keeps none (frameworks up to 519 wrote none).
    /// - Parameter store: the store's path.
    /// - Throws: `TaskInterchangeError` — `.invalidData` when the cache cannot be decoded; the store's own errors
    ///   when it cannot be read.
    public init?(cachedIn store: String) throws(TaskInterchangeError) {
        guard let model = try ObjectModel(modelCacheOf: StoreSnapshot(path: store)) else { return nil }
        self = model
    }

    /// The name of the version of the model at `path` that wrote `store`, or nil when none of its versions has the
    /// store's entity version hashes (or several have them and the store's version identifiers do not tell them
    /// apart).
    /// - Parameters:
    ///   - path: the model's `.xcdatamodeld` or `.momd` folder (or a single version).
    ///   - store: the store's path.
    /// - Throws: `TaskInterchangeError`, as `init(contentsOf:version:)`, or the store's own errors.
    public static func versionName(in path: String, thatWrote store: String) throws(TaskInterchangeError) -> String? {
        try ModelIdentification(storePath: store, source: ModelSource(path: path)).version
    }
}
