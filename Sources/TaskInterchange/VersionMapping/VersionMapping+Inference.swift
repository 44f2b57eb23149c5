/// Inferring the mapping from the archive's declarations (the source version) and the target's model, as Core Data
/// infers a lightweight migration's: a target entity or property matches the source one its renaming identifier names,
/// or, without one, the source one of its own name.
extension VersionMapping {
    /// Infers the mapping.
    /// - Parameters:
    ///   - source: the archive's `source.model`.
    ///   - model: the target's model.
    ///   - overrides: decisions that replace the inferred ones.
    ///   - sourceModel: the version the archive was exported with, when known: it confirms what the archive alone
    ///     cannot show (a relationship pair whose other side changed: without it, an inverse the target lacks is the
    ///     archive's mistake, which validation reports).
    /// - Throws: `TaskInterchangeError.usage` when an override names an entity or property neither model has (with the
    ///   closest names).
    package init(
        from source: [String: EntityDeclaration], to model: ObjectModel,
        overrides: ModelChangeOverrides = ModelChangeOverrides(), sourceModel: ObjectModel? = nil
    ) throws(TaskInterchangeError) {
        let byName = model.entitiesByName
        let overrides = Self.carriedSides(of: overrides, source: source, model: model)
        try Self.checkOverrides(overrides, source: source, model: model, byName: byName)
        var entities: [String: EntityMap] = [:]
        for (name, declaration) in source {
            let target: ObjectModel.Entity?
            if let chosen = overrides.entities[name] {
                target = chosen.flatMap { byName[$0] }
            } else {
                target = Self.match(
                    name, among: model.entities, identifier: \.renamingIdentifier, name: \.name,
                    sourceNames: Set(source.keys))
            }
            // Records never become an abstract entity's; an abstract entity that stays abstract has none to map.
            guard let target, !target.isAbstract || declaration.isAbstract else {
                entities[name] = EntityMap(
                    target: nil, isLeftOut: overrides.entities[name] != nil, properties: [:], fills: [],
                    isIdentity: false, addsNothing: false)
                continue
            }
            entities[name] = try Self.entityMap(
                name, declaration, into: target, of: model, source: source, sourceModel: sourceModel,
                overrides: overrides,
                entityTargets: { sourceEntity in
                    if let chosen = overrides.entities[sourceEntity] { return chosen }
                    return Self.match(
                        sourceEntity, among: model.entities, identifier: \.renamingIdentifier, name: \.name,
                        sourceNames: Set(source.keys))?.name
                })
        }
        // Two sources written into one target would overwrite each other (or collide on keys).
        if let (first, second, target) = Self.collision(entities.mapValues(\.target)) {
            throw TaskInterchangeError(
                .usage,
                "$.modelChange.entities: the archive's \(first) and \(second) would both become the target's \(target); "
                    + "leave one out (null) or map it elsewhere")
        }
        self.entities = entities
        var added: [String: Set<String>] = [:]
        for map in entities.values {
            guard let target = map.target else { continue }
            added[target, default: []].formUnion(map.fills.filter(\.isAdded).map(\.property))
        }
        self.added = added
        targetDeclarations = Self.declarations(source, entities, model: model)
    }

    /// Overrides that name the side of a pair the archive does not carry (`Entry.notebook` when `Notebook.entries`
    /// travels) applied to the side it does: null leaves the pair out, a name picks the target's relationship whose
    /// inverse it is.
    private static func carriedSides(
        of overrides: ModelChangeOverrides, source: [String: EntityDeclaration], model: ObjectModel
    ) -> ModelChangeOverrides {
        var result = overrides
        for (key, target) in overrides.properties {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let declaration = source[parts[0]],
                declaration.attributes[parts[1]] == nil, declaration.relationships[parts[1]] == nil
            else { continue }
            for (owner, ownerDeclaration) in source.sorted(by: { $0.key < $1.key }) {
                guard
                    let (name, relationship) = ownerDeclaration.relationships.first(where: {
                        $0.value.inverse == parts[1] && $0.value.destination == parts[0]
                    })
                else { continue }
                result.properties[key] = nil
                if let target {
                    // The target's relationship of the owner whose inverse is the one named.
                    func targetEntity(_ name: String) -> String? {
                        if let chosen = overrides.entities[name] { return chosen }
                        return match(
                            name, among: model.entities, identifier: \.renamingIdentifier, name: \.name,
                            sourceNames: Set(source.keys))?.name
                    }
                    let destination = targetEntity(relationship.destination)
                    let found = targetEntity(owner).flatMap { model.entity(named: $0) }.flatMap { entity in
                        model.ancestry(of: entity).flatMap(\.relationships).first {
                            $0.inverse == target && $0.destination == destination
                        }
                    }
                    result.properties[owner + "." + name] = found?.name ?? target
                } else {
                    result.properties[owner + "." + name] = .some(nil)
                }
                break
            }
        }
        return result
    }

    /// The first two sources (by name) that `targets` sends to one target, with that target.
    private static func collision(_ targets: [String: String?]) -> (String, String, String)? {
        var claimedBy: [String: String] = [:]
        for (source, target) in targets.sorted(by: { $0.key < $1.key }) {
            guard let target else { continue }
            if let other = claimedBy[target] { return (other, source, target) }
            claimedBy[target] = source
        }
        return nil
    }

    /// The target element that claims `name`: the one whose renaming identifier is `name`, else the one called `name`
    /// unless its renaming identifier names another element the source has (models keep identifiers that name
    /// nothing the source has, such as a version long gone).
    static func match<Element>(
        _ name: String, among elements: [Element], identifier: KeyPath<Element, String?>,
        name elementName: KeyPath<Element, String>, sourceNames: Set<String>, foldingCase: Bool = false
    ) -> Element? {
        if let renamed = elements.first(where: { $0[keyPath: identifier] == name }) { return renamed }
        let named = elements.first { element in
            guard element[keyPath: elementName] == name else { return false }
            guard let claimed = element[keyPath: identifier] else { return true }
            return claimed == name || !sourceNames.contains(claimed)
        }
        if let named { return named }
        guard foldingCase else { return nil }
        // An archive of a store without a model cache, exported without the app's model, has only the columns' names
        // (`userid` for `userId`): the one element that matches ignoring case, when the source has no better claim.
        let lowered = name.lowercased()
        let folded = elements.filter { $0[keyPath: elementName].lowercased() == lowered }
        guard folded.count == 1, let only = folded.first, !sourceNames.contains(only[keyPath: elementName]) else {
            return nil
        }
        return only
    }

    private static func entityMap(
        _ name: String, _ declaration: EntityDeclaration, into target: ObjectModel.Entity, of model: ObjectModel,
        source: [String: EntityDeclaration], sourceModel: ObjectModel?, overrides: ModelChangeOverrides,
        entityTargets: (String) -> String?
    ) throws(TaskInterchangeError) -> EntityMap {
        let ancestry = model.ancestry(of: target)
        let attributes = ancestry.flatMap(\.attributes).filter { !$0.isTransient }
        let relationships = ancestry.flatMap(\.relationships).filter { !$0.isTransient }
        var properties: [String: PropertyMap] = [:]
        var claimed: Set<String> = []
        var pairsChanged = false
        let sourceProperties = Set(declaration.attributes.keys).union(declaration.relationships.keys)
        let gone = "the target model's \(target.name) has no such property"
        // The target property a source property becomes (the mapping's choice first), or why it has none.
        func targetName(of property: String, isAttribute: Bool) -> (name: String?, dropped: String) {
            if let chosen = overrides.properties[name + "." + property] { return (chosen, "left out by the mapping") }
            let attribute =
                isAttribute
                ? match(
                    property, among: attributes, identifier: \.renamingIdentifier, name: \.name,
                    sourceNames: sourceProperties, foldingCase: sourceModel == nil)?.name : nil
            let relationship = match(
                property, among: relationships, identifier: \.renamingIdentifier, name: \.name,
                sourceNames: sourceProperties, foldingCase: !isAttribute && sourceModel == nil)?.name
            return (attribute ?? relationship, gone)
        }
        for (property, type) in declaration.attributes {
            let (found, reason) = targetName(of: property, isAttribute: true)
            guard let targetName = found else {
                properties[property] = PropertyMap(target: nil, change: .dropped(reason), sourceType: type)
                continue
            }
            claimed.insert(targetName)
            guard let attribute = attributes.first(where: { $0.name == targetName }) else {
                properties[property] = PropertyMap(
                    target: targetName,
                    change: .refused(
                        "\(target.name).\(targetName) is a relationship in the target model, not an attribute"),
                    sourceType: type)
                continue
            }
            let targetType = attribute.type.archiveType.name
            properties[property] = PropertyMap(
                target: targetName,
                change: change(from: type, to: targetType, property: "\(target.name).\(targetName)"),
                targetType: targetType, sourceType: type)
        }
        for (property, relationship) in declaration.relationships {
            let (found, reason) = targetName(of: property, isAttribute: false)
            guard let targetName = found else {
                properties[property] = PropertyMap(target: nil, change: .dropped(reason))
                continue
            }
            claimed.insert(targetName)
            guard let found = relationships.first(where: { $0.name == targetName }) else {
                properties[property] = PropertyMap(
                    target: targetName,
                    change: .refused(
                        "\(target.name).\(targetName) is an attribute in the target model, not a relationship"))
                continue
            }
            // The destination must be the source destination's successor (or an entity it inherits from).
            if source[relationship.destination] != nil, let destination = entityTargets(relationship.destination),
                let destinationEntity = model.entity(named: destination),
                !model.ancestry(of: destinationEntity).contains(where: { $0.name == found.destination })
            {
                properties[property] = PropertyMap(
                    target: targetName,
                    change: .refused(
                        "\(target.name).\(targetName) points at \(found.destination) in the target model, "
                            + "but the archive's \(name).\(property) points at \(relationship.destination) "
                            + "(\(destination) in the target model)"))
                continue
            }
            let change: Change
            if relationship.toMany != found.isToMany {
                change = found.isToMany ? .toMany : .toOne
            } else if relationship.toMany && relationship.ordered != found.isOrdered {
                change = .reordered(ordered: found.isOrdered)
            } else {
                change = .kept
            }
            var map = PropertyMap(target: targetName, change: change)
            map.destination = relationship.destination
            // The archive carries a to-one side only while its other side is not an ordered to-many: when the target's
            // is, the pair now travels from the other side (written and read from there).
            if !found.isToMany, let inverse = found.inverse,
                let destination = model.entity(named: found.destination),
                let other = model.relationship(named: inverse, in: destination)?.relationship,
                other.isToMany && other.isOrdered
            {
                pairsChanged = true
                map.pairChange = "the pair now travels from \(found.destination).\(inverse), an ordered to-many"
            }
            // Of a pair that is one-to-one in the target, each destination may be linked once: where the source's
            // other side was to-many (or is unknown), the links are checked as they come.
            if !found.isToMany, let inverse = found.inverse,
                let destination = model.entity(named: found.destination),
                let other = model.relationship(named: inverse, in: destination)?.relationship, !other.isToMany
            {
                let sourceOther = sourceModel.flatMap { source in
                    source.entity(named: relationship.destination).flatMap { entity in
                        relationship.inverse.flatMap { source.relationship(named: $0, in: entity)?.relationship }
                    }
                }
                if sourceOther?.isToMany ?? true { map.uniqueInverse = "\(found.destination).\(inverse)" }
                if sourceOther?.isToMany == true {
                    pairsChanged = true
                    map.pairChange = "\(found.destination).\(inverse) became to-one: each destination linked once"
                }
            }
            // A pair whose other side changed (a one-to-many become many-to-many) is written the target's way, when
            // the source version confirms the old side existed.
            if let inverse = relationship.inverse, inverse != found.inverse,
                let destination = sourceModel?.entity(named: relationship.destination),
                sourceModel?.relationship(named: inverse, in: destination) != nil
            {
                pairsChanged = true
                map.pairChange =
                    "its other side \(relationship.destination).\(inverse) is now "
                    + "\(found.destination).\(found.inverse ?? "none")"
            }
            properties[property] = map
        }
        if let (first, second, targetName) = collision(properties.mapValues(\.target)) {
            throw TaskInterchangeError(
                .usage,
                "$.modelChange.properties: \(name).\(first) and \(name).\(second) would both become "
                    + "\(target.name).\(targetName); leave one out (null) or map it elsewhere")
        }
        var fills: [Fill] = []
        for attribute in attributes where attribute.derivation == nil {
            let isAdded = !claimed.contains(attribute.name)
            let type = attribute.type.archiveType.name
            let value =
                overrides.fill[target.name + "." + attribute.name].flatMap { converted($0, to: type) }
                ?? attribute.defaultValue.flatMap { defaultValue($0, type: type) }
            // An attribute the new version adds: every record gets its default (refused when it is required and has
            // none). One that was there and is required: its NULLs get the default, where there is one; where there
            // is none they stay, counted (the source kept them; there is nothing to put instead).
            guard isAdded || !attribute.isOptional else { continue }
            guard value != nil || !attribute.isOptional else { continue }
            fills.append(
                Fill(property: attribute.name, value: value, isRequired: !attribute.isOptional, isAdded: isAdded))
        }
        fills.sort { $0.property < $1.property }
        let unchanged =
            target.name == name && !pairsChanged
            && properties.allSatisfy { $0.value.target == $0.key && $0.value.change == .kept }
        let checked = properties.values.contains { $0.uniqueInverse != nil }
        return EntityMap(
            target: target.name, properties: properties, fills: fills,
            isIdentity: unchanged && fills.isEmpty && !checked,
            addsNothing: unchanged && !fills.contains(where: \.isAdded))
    }

    /// The archive's declarations under the target's names and shapes: the target's types, cardinalities and order.
    private static func declarations(
        _ source: [String: EntityDeclaration], _ entities: [String: EntityMap], model: ObjectModel
    ) -> [String: EntityDeclaration] {
        var result: [String: EntityDeclaration] = [:]
        let byName = model.entitiesByName
        for (name, declaration) in source {
            guard let map = entities[name], let target = map.target, let entity = byName[target] else { continue }
            var mapped = EntityDeclaration(superentity: entity.superentity, isAbstract: entity.isAbstract)
            for (property, type) in declaration.attributes {
                guard let property = map.properties[property], let targetName = property.target else { continue }
                mapped.attributes[targetName] = property.targetType ?? type
            }
            for fill in map.fills {
                if let attribute = model.ancestry(of: entity).flatMap(\.attributes).first(where: {
                    $0.name == fill.property
                }) {
                    mapped.attributes[fill.property] = attribute.type.archiveType.name
                }
            }
            for (property, relationship) in declaration.relationships {
                guard let targetName = map.properties[property]?.target,
                    let found = model.relationship(named: targetName, in: entity)?.relationship
                else { continue }
                mapped.relationships[targetName] = EntityRelationship(
                    destination: found.destination, toMany: found.isToMany, ordered: found.isOrdered,
                    inverse: found.inverse ?? relationship.inverse)
            }
            result[target] = mapped
        }
        return result
    }

    /// Every name an override gives must exist: an unknown one would silently leave the inference in charge.
    private static func checkOverrides(
        _ overrides: ModelChangeOverrides, source: [String: EntityDeclaration], model: ObjectModel,
        byName: [String: ObjectModel.Entity]
    ) throws(TaskInterchangeError) {
        func unknown(_ what: String, _ name: String, among names: [String], at member: String) -> TaskInterchangeError {
            let near = Suggestion.closest(to: name, among: names)
            let listed = names.sorted().prefix(8).joined(separator: ", ")
            return TaskInterchangeError(
                .usage,
                "\(JSONPath.member("$.modelChange." + member, name)): \(what) '\(name)' does not exist"
                    + (near.map { " (did you mean '\($0)'?)" } ?? (names.isEmpty ? "" : "; there are: \(listed)")))
        }
        for (entity, target) in overrides.entities.sorted(by: { $0.key < $1.key }) {
            guard source[entity] != nil else {
                throw unknown("the archive's entity", entity, among: Array(source.keys), at: "entities")
            }
            if let target, byName[target] == nil {
                throw unknown("the target model's entity", target, among: Array(byName.keys), at: "entities")
            }
        }
        for (key, target) in overrides.properties.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let declaration = source[parts[0]] else {
                throw unknown("the archive's entity of", key, among: Array(source.keys), at: "properties")
            }
            let names = Array(declaration.attributes.keys) + Array(declaration.relationships.keys)
            guard names.contains(parts[1]) else {
                throw unknown(
                    "the archive's property", key, among: names.map { parts[0] + "." + $0 }, at: "properties")
            }
            guard let target else { continue }
            let targetEntity =
                (overrides.entities[parts[0]] ?? nil)
                ?? match(
                    parts[0], among: model.entities, identifier: \.renamingIdentifier, name: \.name,
                    sourceNames: Set(source.keys))?.name
            guard let entity = targetEntity.flatMap({ byName[$0] }) else { continue }
            let ancestry = model.ancestry(of: entity)
            let targets = ancestry.flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) }
            if !targets.contains(target) {
                throw unknown(
                    "the target model's property", entity.name + "." + target,
                    among: targets.map { entity.name + "." + $0 }, at: "properties")
            }
        }
        for key in overrides.fill.keys.sorted() {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let entity = byName[parts[0]] else {
                throw unknown("the target model's entity of", key, among: Array(byName.keys), at: "fill")
            }
            let attributes = model.ancestry(of: entity).flatMap(\.attributes)
            let names = attributes.map(\.name)
            if let attribute = attributes.first(where: { $0.name == parts[1] }), let value = overrides.fill[key] {
                let type = attribute.type.archiveType.name
                if converted(value, to: type) == nil || value == .null {
                    throw TaskInterchangeError(
                        .usage,
                        "\(JSONPath.member("$.modelChange.fill", key)): \(value == .null ? "null" : "this value") is not "
                            + "a \(ArchiveType.label(of: type)) value for \(key)"
                            + (value == .null
                                ? " (to leave values out, name the property null in modelChange.properties)" : ""))
                }
            }
            if !names.contains(parts[1]) {
                throw unknown(
                    "the target model's attribute", key, among: names.map { parts[0] + "." + $0 }, at: "fill")
            }
        }
    }
}
