import Foundation

/// What a migration of a store into a model version would meet under that version's uniqueness constraints, found
/// without writing anything: the store read as an export reads it, its records mapped as a migration maps them
/// (through the versions between), grouped by the constrained values.
package enum DuplicateCheck {
    /// The groups of the store's records that share the values of one of `model`'s uniqueness constraints.
    /// - Parameters:
    ///   - path: the store, read through a private snapshot.
    ///   - model: the target version's model.
    ///   - versions: the app's versions in order, for the chain from the store's version.
    ///   - storeModel: the version that wrote the store, or its own model cache (nil: its cache, when it has one).
    /// - Throws: `TaskInterchangeError` for a store that cannot be read, or records the mapping refuses.
    package static func groups(
        inStore path: String, model: ObjectModel, versions: ModelVersionOrder?, storeModel: ObjectModel?
    ) throws -> [VersionMapping.DuplicateGroup] {
        let buffer = ByteBuffer()
        var options = ExportOptions()
        options.model = storeModel
        _ = try Exporter.export(store: path, to: buffer, options: options)
        let archive = ArchiveInput(bytes: buffer.bytes)
        guard let declarations = try archive.header()?.source?.model, !declarations.isEmpty else { return [] }
        var mapping = try VersionMapping.inferred(
            from: declarations, to: model, versions: versions, sourceModel: storeModel)
        guard mapping.matchesAnyEntity else { return [] }
        try mapping.findDuplicates(
            in: archive, model: model, overrides: ModelChangeOverrides(), target: nil, matching: [:], refusing: false)
        return mapping.duplicates
    }
}
