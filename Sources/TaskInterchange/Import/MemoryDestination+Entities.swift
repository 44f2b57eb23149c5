import Foundation

/// Generic records in memory: each object's attribute values and its links, written back as ids by `archive`.
extension MemoryDestination {
    public func countOfEntities() -> [String: Int] {
        entities.values.reduce(into: [:]) { counts, record in counts[record.entity, default: 0] += 1 }
    }

    public func existingKey(ofEntity entity: String, id: UUID) -> Int? {
        entityKeys[id].flatMap { key in entities[key]?.entity == entity ? key : nil }
    }

    public mutating func insert(_ record: EntityRecord, declaration: EntityDeclaration) -> Int? {
        let key = nextKey
        nextKey += 1
        entityKeys[record.id] = key
        entities[key] = record
        entityDeclarations[record.entity] = declaration
        return key
    }

    public mutating func update(_ record: EntityRecord, declaration: EntityDeclaration, at key: Int) {
        entities[key] = record
    }

    public mutating func link(
        entity: String, _ key: Int, relationship: String, _ declaration: EntityRelationship,
        to destinations: [Int], positions: [Int64]?, replacing: Bool
    ) {
        entityLinks[key, default: [:]][relationship] = (destinations, positions)
    }

    /// The generic records with their relationships as ids and their positions, grouped by entity, in key order.
    var entityRecords: [EntityRecord] {
        var ids: [Int: UUID] = Dictionary(uniqueKeysWithValues: entityKeys.map { ($0.value, $0.key) })
        for (_, byID) in keys { for (id, key) in byID { ids[key] = id } }
        return entities.map { key, stored in
            var record = stored
            for (property, link) in entityLinks[key] ?? [:] {
                let linked = link.keys.compactMap { ids[$0]?.uuidString }
                guard let first = linked.first,
                    let declared = entityDeclarations[record.entity]?.relationships[property]
                else { continue }
                record.values[property] = declared.toMany ? .array(linked) : .string(first)
                if let positions = link.positions { record.positions[property] = positions }
            }
            return record
        }.sorted { ($0.entity, $0.key ?? 0, $0.id.uuidString) < ($1.entity, $1.key ?? 0, $1.id.uuidString) }
    }
}
