/// Writing a model cache (`Z_MODELCACHE.Z_CONTENT`) for a store `tasks` creates, so later readers — this tool, and
/// Core Data when the app no longer ships the model — find the store's model in the store itself.
extension ObjectModel {
    /// The model as Core Data caches it in a store: an `NSKeyedArchiver` archive of the `NSManagedObjectModel`,
    /// compressed as raw DEFLATE at Core Data's level.
    /// - Throws: `ModelCacheError.unsupported` when the model has a part whose archived form this tool cannot
    ///   match (the message names it; such a store is better left without a cache), `.malformed` for an
    ///   inconsistent model.
    func modelCache() throws(ModelCacheError) -> [UInt8] {
        var encoder = ModelCacheEncoder(model: self)
        let archive = try encoder.encoded()
        do {
            return try RawDeflate.deflate(archive)
        } catch {
            throw .inflate(error)
        }
    }
}
