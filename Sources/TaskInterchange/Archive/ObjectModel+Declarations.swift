/// A model made from an archive's own `source.model` declarations, for a new store no model was given for: every
/// generic record then has its entity, every value its column.
///
/// The declarations list inherited properties too and carry one side of most relationship pairs, so the model takes
/// each entity's own properties (those its superentity does not declare) and adds the inverse side a declaration names
/// but does not carry. That side is made to-many: a to-one side always travels with its to-many inverse unless the
/// to-many side is ordered (then it is the one that travels and the other may have been either), and a to-many
/// inverse holds whatever a to-one one would have. Attributes are optional (the declarations do not say), binary ones
/// allow external storage where declared, `untyped` ones are 64-bit integers.
extension ObjectModel {
    /// The model for `declarations`; `typed` maps a store entity a typed section read (`source.entities`' values) to
    /// the entity of `base` that the typed kind's records go into, and `base` (the built-in task model, for an
    /// archive with typed kinds) is added as it is.
    /// - Throws: `.invalidData` naming the entity and property the declarations cannot make a store for: an
    ///   `objectID` attribute, an undeclared superentity or destination, a name two entities or properties share.
    package init(
        declarations: [String: EntityDeclaration], typed: [String: String] = [:], base: ObjectModel? = nil
    ) throws(TaskInterchangeError) {
        var entities: [String: Entity] = [:]
        for entity in base?.entities ?? [] { entities[entity.name] = entity }
        for name in declarations.keys.sorted() where entities[name] != nil {
            throw Self.refusal(
                name, nil, "has the name of an entity of the built-in task model the typed kinds go into")
        }
        for (name, declaration) in declarations.sorted(by: { $0.key < $1.key }) {
            let inherited = try Self.inherited(name, declarations)
            var entity = Entity(name, superentity: declaration.superentity, attributes: [])
            entity.isAbstract = declaration.isAbstract
            for (property, type) in declaration.attributes.sorted(by: { $0.key < $1.key })
            where inherited?.attributes[property] == nil {
                var attribute = Attribute(property, try Self.attributeType(type, name, property), optional: true)
                attribute.allowsExternalStorage =
                    attribute.type == .binaryData && declaration.externalStorage.contains(property)
                entity.attributes.append(attribute)
            }
            entities[name] = entity
        }
        // Relationships second: an inverse a declaration names but does not carry goes on its destination.
        for (name, declaration) in declarations.sorted(by: { $0.key < $1.key }) {
            let inherited = try Self.inherited(name, declarations)
            for (property, relationship) in declaration.relationships.sorted(by: { $0.key < $1.key })
            where inherited?.relationships[property] == nil {
                if declaration.attributes[property] != nil {
                    throw Self.refusal(name, property, "is declared both as an attribute and as a relationship")
                }
                // A typed kind's destination is the task model's entity for it.
                let typedTarget = typed[relationship.destination]
                let target = typedTarget ?? relationship.destination
                let carried = typedTarget == nil ? declarations[target] : EntityDeclaration()
                guard let destination = carried, entities[target] != nil else {
                    throw Self.refusal(
                        name, property,
                        "leads to \(relationship.destination), which the archive does not declare")
                }
                entities[name]?.relationships.append(
                    Relationship(
                        property, to: target, inverse: relationship.inverse,
                        toMany: relationship.toMany, ordered: relationship.toMany && relationship.ordered))
                guard let inverse = relationship.inverse, destination.relationships[inverse] == nil else { continue }
                let existing = entities[target]
                if destination.attributes[inverse] != nil
                    || existing?.attributes.contains(where: { $0.name == inverse }) == true
                    || existing?.relationships.contains(where: { $0.name == inverse }) == true
                {
                    throw Self.refusal(
                        name, property, "names the inverse \(target).\(inverse), which is already another property")
                }
                entities[target]?.relationships.append(
                    Relationship(inverse, to: name, inverse: property, toMany: true))
            }
        }
        self.init(entities: entities.keys.sorted().compactMap { entities[$0] })
    }

    /// The superentity's declaration (nil for a root), after checking the chain is declared and ends.
    private static func inherited(_ name: String, _ declarations: [String: EntityDeclaration])
        throws(TaskInterchangeError) -> EntityDeclaration?
    {
        guard let parent = declarations[name]?.superentity else { return nil }
        guard let declaration = declarations[parent] else {
            throw refusal(name, nil, "has the superentity \(parent), which the archive does not declare")
        }
        if EntityDeclaration.isEntity(
            parent, kindOf: name, limit: declarations.count,
            superentity: {
                declarations[$0]?.superentity
            })
        {
            throw refusal(name, nil, "is its own ancestor")
        }
        return declaration
    }

    private static func attributeType(_ name: String, _ entity: String, _ property: String)
        throws(TaskInterchangeError) -> AttributeType
    {
        // Raw columns of a store read without its model (keys and positions whose relationship was not known) keep
        // their numbers in an integer column: every value arrives, and `untypedProperties` says what they are.
        if name == ArchiveType.untyped.name { return .integer64 }
        // An object ID has no column in a store.
        guard let type = AttributeType.allCases.first(where: { $0.archiveType.name == name && $0 != .objectID }) else {
            throw refusal(entity, property, "is of type \(name), which a store keeps no column for")
        }
        return type
    }

    /// The `untyped` attributes of `declarations` (`Entity.property`, sorted): raw numbers of a store read without
    /// its model, which a new store keeps as integers that mean nothing to it.
    package static func untypedProperties(of declarations: [String: EntityDeclaration]) -> [String] {
        declarations.flatMap { name, declaration in
            declaration.attributes.filter { $0.value == ArchiveType.untyped.name }.map { "\(name).\($0.key)" }
        }.sorted()
    }

    private static func refusal(_ entity: String, _ property: String?, _ problem: String) -> TaskInterchangeError {
        let name = entity + (property.map { ".\($0)" } ?? "")
        return TaskInterchangeError(
            .invalidData,
            "cannot make a new store from the archive's model declarations: \(name) \(problem); "
                + "give the app's model (\(setting: .template)); nothing was written")
    }
}
