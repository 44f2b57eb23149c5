/// Walking a model's entity inheritance, safely for hand-built models: an unknown superentity ends the walk, and a
/// cycle (which a decoded model never has) is cut after every entity has been visited once.
extension ObjectModel {
    /// The entity followed by its superentity, that one's superentity, and so on up to its root.
    func ancestry(of entity: Entity) -> [Entity] {
        var chain: [Entity] = []
        var seen: Set<String> = []
        var current: Entity? = entity
        while let found = current, seen.insert(found.name).inserted {
            chain.append(found)
            current = found.superentity.flatMap(self.entity(named:))
        }
        return chain
    }

    /// The root of the entity's inheritance tree (the entity itself when it has no superentity).
    func root(of entity: Entity) -> Entity {
        ancestry(of: entity).last ?? entity
    }

    /// The relationship called `name` that `entity` declares or inherits.
    func relationship(named name: String, in entity: Entity) -> (relationship: Relationship, declaredBy: Entity)? {
        for member in ancestry(of: entity) {
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
