import Foundation

/// One run's model change: the archive's generic records read as the target's model version holds them. Inferred once
/// per run (`inferred`) and handed to every step that reads the archive against the target — the import, the check of
/// what the target already holds, the verification — so that all of them follow the same renames, conversions and
/// fills. The public report of it is `mapping` (what was matched, renamed, converted and filled, as
/// `StoreImportResult.versionMapping` returns it) and the `VersionMapping.Tally` each step keeps; this value is the
/// working state that travels between the steps.
struct ModelChange: Sendable {
    /// The mapping from the archive's version to the target's; never the identity.
    let mapping: VersionMapping

    /// A change made of `mapping`, nil when records pass unchanged or the target's model has none of the archive's
    /// entities (an archive of another app: what the target lacks is reported as such, not as a model change).
    init?(_ mapping: VersionMapping) {
        guard mapping.matchesAnyEntity, !mapping.isIdentity else { return nil }
        self.mapping = mapping
    }

    /// The change from the archive's `declarations` to the target's `model` (see `VersionMapping.inferred`), nil as
    /// for `init(_:)`.
    /// - Throws: `TaskInterchangeError.usage` for an override naming what neither model has.
    static func inferred(
        from declarations: [String: EntityDeclaration], to model: ObjectModel, versions: ModelVersionOrder?,
        overrides: ModelChangeOverrides, sourceModel: ObjectModel?
    ) throws(TaskInterchangeError) -> ModelChange? {
        ModelChange(
            try VersionMapping.inferred(
                from: declarations, to: model, versions: versions, overrides: overrides, sourceModel: sourceModel))
    }

    /// The relationships the archive carries, as `Entity.property` of the target's version: the sides a store is
    /// read from to be compared with it.
    var carriedRelationships: Set<String> {
        Set(
            mapping.targetDeclarations.flatMap { entity, declaration in
                declaration.relationships.keys.map { "\(entity).\($0)" }
            })
    }

    /// `record` as the target's version holds it, nil when the change drops its entity (counted in `tally`).
    /// - Throws: as `VersionMapping.apply`.
    func apply(_ record: EntityRecord, tally: inout VersionMapping.Tally) throws(TaskInterchangeError) -> EntityRecord?
    {
        try mapping.apply(
            record, path: JSONPath.member("$.entities", record.entity) + "[id \(record.id.uuidString)]", tally: &tally)
    }
}
