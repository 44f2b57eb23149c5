/// Two versions of a model mapped onto each other, as a picture of a model shows the change.
extension ObjectModel {
    /// The mapping Core Data's lightweight migration would infer from `previous` to this model: through the versions
    /// between them in `order` (each step's renaming identifiers followed) when `order` has some, else directly.
    /// - Throws: `TaskInterchangeError` when the inference refuses the models.
    package func versionMapping(from previous: ObjectModel, order: ModelVersionOrder? = nil)
        throws(TaskInterchangeError) -> VersionMapping
    {
        let declarations = previous.entityDeclarations
        if let path = order?.path(from: previous, to: self) {
            return try VersionMapping(from: declarations, through: path)
        }
        return try VersionMapping(from: declarations, to: self, sourceModel: previous)
    }

    /// Every entity as an archive's `source.model` declares it: what a mapping from this model starts from.
    package var entityDeclarations: [String: EntityDeclaration] {
        var declarations: [String: EntityDeclaration] = [:]
        for entity in entities {
            var declaration = EntityDeclaration(superentity: entity.superentity, isAbstract: entity.isAbstract)
            for attribute in ancestry(of: entity).flatMap(\.attributes) where !attribute.isTransient {
                declaration.attributes[attribute.name] = attribute.type.archiveType.name
            }
            for (relationship, _) in storedRelationships(of: entity) {
                declaration.relationships[relationship.name] = EntityRelationship(
                    destination: relationship.destination, toMany: relationship.isToMany,
                    ordered: relationship.isToMany && relationship.isOrdered, inverse: relationship.inverse)
            }
            declarations[entity.name] = declaration
        }
        return declarations
    }
}
