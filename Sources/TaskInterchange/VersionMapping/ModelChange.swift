import Foundation

/// One run's model change: the archive's generic records read as the target's model version holds them. Inferred once
/// per run (`inferred`) and handed to every step that reads the archive against the target — the import, the check of
/// what the target already holds, the verification — so that all of them follow the same renames, conversions and
/// fills. The public report of it is `mapping` (what was matched, renamed, converted and filled, as
/// `StoreImportResult.versionMapping` returns it) and the `VersionMapping.Tally` each step keeps; this value is the
/// working state that travels between the steps.
struct ModelChange: Sendable {
    /// The mapping from the archive's version to the target's; the identity only when it merges records a
    /// uniqueness constraint makes one.
    let mapping: VersionMapping
    /// Target entity → its relationships into an entity the change drops (left out by the mapping, or missing from
    /// the target's version). The import drops such links as it resolves them, one value per link; the comparisons
    /// drop them in `apply`, counted alike, so that a verification does not take them for differences.
    let linksIntoDropped: [String: Set<String>]

    /// A change made of `mapping`, nil when records pass unchanged or the target's model has none of the archive's
    /// entities (an archive of another app: what the target lacks is reported as such, not as a model change).
    init?(_ mapping: VersionMapping) {
        guard mapping.matchesAnyEntity, !mapping.isIdentity || mapping.mergesRecords else { return nil }
        self.mapping = mapping
        var links: [String: Set<String>] = [:]
        for map in mapping.entities.values {
            guard let entity = map.target else { continue }
            for property in map.properties.values where mapping.droppedDestination(of: property) != nil {
                if let name = property.target { links[entity, default: []].insert(name) }
            }
        }
        linksIntoDropped = links
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
    /// Links into an entity the change drops are left out, counted one value per link as the import counts them.
    /// - Throws: as `VersionMapping.apply`.
    func apply(_ record: EntityRecord, tally: inout VersionMapping.Tally) throws(TaskInterchangeError) -> EntityRecord?
    {
        let path = JSONPath.member("$.entities", record.entity) + "[id \(record.id.uuidString)]"
        guard var mapped = try mapping.apply(record, path: path, tally: &tally) else { return nil }
        for name in linksIntoDropped[mapped.entity] ?? [] {
            guard let value = mapped.values.removeValue(forKey: name) else { continue }
            mapped.positions[name] = nil
            let links: Int
            switch value {
            case .array(let ids): links = ids.count
            case .null: links = 0
            default: links = 1
            }
            if links > 0 { tally.droppedValues["\(mapped.entity).\(name)", default: 0] += links }
        }
        return mapped
    }
}
