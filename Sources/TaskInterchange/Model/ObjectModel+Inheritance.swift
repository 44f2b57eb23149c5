/// Walking a model's entity inheritance, safely for hand-built models: an unknown superentity ends the walk, and a
/// cycle (which a decoded model never has) is cut after every entity has been visited once.
extension ObjectModel {
    /// The entity followed by its superentity, that one's superentity, and so on up to its root.
    package func ancestry(of entity: Entity) -> [Entity] {
        ancestry(of: entity, lookUp: self.entity(named:))
    }

    /// `ancestry(of:)` with superentities looked up in `byName` (`entitiesByName`): for loops over every entity of a
    /// model, where `entity(named:)`, which searches the list, would make the work grow with the square of its size.
    func ancestry(of entity: Entity, in byName: [String: Entity]) -> [Entity] {
        ancestry(of: entity) { byName[$0] }
    }

    private func ancestry(of entity: Entity, lookUp: (String) -> Entity?) -> [Entity] {
        var chain: [Entity] = []
        var seen: Set<String> = []
        var current: Entity? = entity
        while let found = current, seen.insert(found.name).inserted {
            chain.append(found)
            current = found.superentity.flatMap(lookUp)
        }
        return chain
    }

    /// Entity name → entity (the first of a name, as `entity(named:)` finds it).
    var entitiesByName: [String: Entity] {
        var result: [String: Entity] = [:]
        for entity in entities where result[entity.name] == nil { result[entity.name] = entity }
        return result
    }

    /// The root of the entity's inheritance tree (the entity itself when it has no superentity).
    func root(of entity: Entity) -> Entity {
        ancestry(of: entity).last ?? entity
    }

    /// The relationship called `name` that `entity` declares or inherits (superentities looked up in `byName` when
    /// given, see `ancestry(of:in:)`).
    package func relationship(named name: String, in entity: Entity, byName: [String: Entity]? = nil) -> (
        relationship: Relationship, declaredBy: Entity
    )? {
        for member in byName.map({ ancestry(of: entity, in: $0) }) ?? ancestry(of: entity) {
            if let found = member.relationships.first(where: { $0.name == name }) { return (found, member) }
        }
        return nil
    }

    /// Every stored relationship `entity` declares or inherits, with the entity that declares it.
    func storedRelationships(of entity: Entity) -> [(relationship: Relationship, declaredBy: Entity)] {
        ancestry(of: entity).flatMap { member in member.relationships.filter { !$0.isTransient }.map { ($0, member) } }
    }

    /// The stored relationship whose name matches `name` ignoring case (store columns keep only upper case), the exact
    /// spelling first.
    func storedRelationship(matching name: String, in entity: Entity) -> (
        relationship: Relationship, declaredBy: Entity
    )? {
        let all = storedRelationships(of: entity)
        return all.first { $0.relationship.name == name }
            ?? all.first { $0.relationship.name.uppercased() == name.uppercased() }
    }
}
