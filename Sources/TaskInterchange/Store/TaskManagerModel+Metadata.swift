extension TaskManagerModel {
    /// The framework version recorded in new stores: one that writes the model checksum and digest (1344 and later).
    static let frameworkVersion = 1344

    /// The `Z_METADATA` plist of a new store, with the model's version hashes, so an app with the same model opens
    /// the store without a migration.
    static func metadataPlist() -> [UInt8] {
        model.metadataPlist(frameworkVersion: frameworkVersion)
    }
}
