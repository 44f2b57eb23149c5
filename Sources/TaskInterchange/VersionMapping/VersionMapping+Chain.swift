/// A mapping composed through the versions between the archive's and the target's, step by step in the model's
/// version order, as Core Data's progressive migration would run it but without writing a store in between: each
/// record passes every step's mapping in turn, so each step's renaming identifiers, defaults and type checks apply.
extension VersionMapping {
    /// One step of a chain: the mapping from one version to the next.
    package struct Step: Sendable, Hashable {
        /// The version the step starts from.
        package var from: String
        /// The version it leads to.
        package var to: String
        /// The mapping between the two.
        package var mapping: VersionMapping
    }

    /// How counts made by the steps are named: drops by the source's names, fills and conversions by the target's,
    /// and what only a version in between had (a default it gave, then dropped) not at all.
    struct ChainNames: Sendable, Hashable {
        /// Per step: its source's entity → the archive's entity.
        var entityOrigin: [[String: String]]
        /// Per step: its source's `Entity.property` → the archive's, for properties the archive had.
        var propertyOrigin: [[String: String]]
        /// Per step: its target's `Entity.property` → the final target's, for properties that reach it.
        var finalNames: [[String: String]]
    }

    /// Composes the mapping from the archive's declarations through `versions` (the first the version that wrote
    /// the archive, the last the target's, those between in the model's order).
    /// - Parameters:
    ///   - source: the archive's `source.model`.
    ///   - versions: the source's version, those between, the target's; or, with `ownModel`, the version the first
    ///     step leads to, those after it, the target's.
    ///   - overrides: decisions for the last step: its `entities` and `properties` name the archive's elements (each
    ///     followed through the steps before) and the target's; `fill` names the target's.
    ///   - ownModel: for an archive of a store no version wrote: how the first step names its source (the store's
    ///     own model), with that model when known (a store's model cache).
    /// - Throws: `TaskInterchangeError.usage` for an override naming what neither model has, or an element the
    ///   versions in between have already removed.
    package init(
        from source: [String: EntityDeclaration], through versions: [ModelVersionOrder.Version],
        overrides: ModelChangeOverrides = ModelChangeOverrides(), ownModel: (name: String, model: ObjectModel?)? = nil
    ) throws(TaskInterchangeError) {
        let start = ownModel ?? (versions[0].name, versions[0].model)
        let targets = ownModel == nil ? Array(versions.dropFirst()) : versions
        precondition(!targets.isEmpty, "a chain has a source and a target version")
        var previous = (name: start.name, model: start.model)
        var steps: [Step] = []
        var declarations = source
        var entityOrigin: [[String: String]] = []
        var propertyOrigin: [[String: String]] = []
        var entities = Dictionary(uniqueKeysWithValues: source.keys.map { ($0, $0) })
        var properties: [String: String] = [:]
        for (name, declaration) in source {
            for property in Array(declaration.attributes.keys) + Array(declaration.relationships.keys) {
                properties[name + "." + property] = name + "." + property
            }
        }
        for (index, version) in targets.enumerated() {
            entityOrigin.append(entities)
            propertyOrigin.append(properties)
            let isLast = index == targets.count - 1
            let stepOverrides =
                isLast
                ? try Self.translated(overrides, entities: entities, properties: properties, before: previous.name)
                : ModelChangeOverrides()
            var mapping: VersionMapping
            do {
                mapping = try VersionMapping(
                    from: declarations, to: version.model, overrides: stepOverrides, sourceModel: previous.model)
            } catch {
                throw TaskInterchangeError(error.kind, "\(error.message) (\(previous.name) → \(version.name))")
            }
            mapping.isIntermediate = !isLast
            (entities, properties) = Self.forward(entities, properties, through: mapping)
            declarations = mapping.targetDeclarations
            steps.append(Step(from: previous.name, to: version.name, mapping: mapping))
            previous = (version.name, version.model)
        }
        // Backwards: which of each step's target properties reach the last version, and under which names.
        var finalNames: [[String: String]] = Array(repeating: [:], count: steps.count)
        for (entity, declaration) in declarations {
            for property in Array(declaration.attributes.keys) + Array(declaration.relationships.keys) {
                finalNames[steps.count - 1][entity + "." + property] = entity + "." + property
            }
        }
        for index in stride(from: steps.count - 2, through: 0, by: -1) {
            for (sourceEntity, map) in steps[index + 1].mapping.entities {
                guard let target = map.target else { continue }
                for (property, propertyMap) in map.properties {
                    guard let name = propertyMap.target, propertyMap.change.keepsValues,
                        let final = finalNames[index + 1][target + "." + name]
                    else { continue }
                    finalNames[index][sourceEntity + "." + property] = final
                }
            }
        }
        let reached = Set(properties.keys)
        // A required attribute a version in between added without a value is the last step's to refuse or fill.
        let lastIndex = steps.count - 1
        for (entity, map) in steps[lastIndex].mapping.entities {
            guard let target = map.target else { continue }
            for index in map.fills.indices where !reached.contains(target + "." + map.fills[index].property) {
                steps[lastIndex].mapping.entities[entity]?.fills[index].wasAddedEarlier = true
            }
        }
        self.steps = steps
        chainNames = ChainNames(
            entityOrigin: entityOrigin, propertyOrigin: propertyOrigin, finalNames: finalNames)
        targetDeclarations = declarations
        // What the target has that no property of the archive became: added by some step.
        var added: [String: Set<String>] = [:]
        for (entity, declaration) in declarations {
            added[entity] = Set(declaration.attributes.keys.filter { !reached.contains(entity + "." + $0) })
        }
        self.added = added
        self.entities = Self.composed(source, steps: steps, added: added)
    }

    /// The mapping from the archive's declarations to `model`: through the versions between them when `versions`
    /// holds the archive's version (`sourceModel`, else the one declaring exactly the archive's entities) and the
    /// target's with others between; direct otherwise.
    /// - Throws: `TaskInterchangeError.usage` for an override naming what neither model has.
    package static func inferred(
        from source: [String: EntityDeclaration], to model: ObjectModel, versions: ModelVersionOrder?,
        overrides: ModelChangeOverrides = ModelChangeOverrides(), sourceModel: ObjectModel? = nil
    ) throws(TaskInterchangeError) -> VersionMapping {
        let direct = { () throws(TaskInterchangeError) in
            try VersionMapping(from: source, to: model, overrides: overrides, sourceModel: sourceModel)
        }
        guard let versions, versions.versions.contains(where: { $0.model == model }) else { return try direct() }
        let known =
            sourceModel.flatMap { sourceModel in versions.versions.first { $0.model == sourceModel } }
            ?? (sourceModel == nil ? versions.version(declaring: source) : nil)
        var mapping: VersionMapping
        if let known {
            guard let path = versions.path(from: known.model, to: model) else { return try direct() }
            mapping = try VersionMapping(from: source, through: path, overrides: overrides)
        } else {
            // The store's own model (its model cache), which no version is: mapped onto the version closest to it,
            // then through the versions after that one, when the target comes after it.
            guard let closest = versions.closest(to: source), let path = versions.versions(from: closest, to: model),
                path.count >= 2
            else { return try direct() }
            mapping = try VersionMapping(
                from: source, through: path, overrides: overrides, ownModel: (ownModelName, sourceModel))
            mapping.fromOwnModel = closest.name
        }
        mapping.order = versions.description
        return mapping
    }

    /// How a chain names the first step's source when no version wrote the store.
    package static let ownModelName = "the store's own model"

    /// The archive's entities and properties (target names → archive names) after `mapping`.
    private static func forward(
        _ entities: [String: String], _ properties: [String: String], through mapping: VersionMapping
    ) -> ([String: String], [String: String]) {
        var nextEntities: [String: String] = [:]
        var nextProperties: [String: String] = [:]
        for (sourceEntity, map) in mapping.entities {
            guard let target = map.target, let origin = entities[sourceEntity] else { continue }
            nextEntities[target] = origin
            for (property, propertyMap) in map.properties {
                guard let name = propertyMap.target, propertyMap.change.keepsValues,
                    let origin = properties[sourceEntity + "." + property]
                else { continue }
                nextProperties[target + "." + name] = origin
            }
        }
        return (nextEntities, nextProperties)
    }

    /// The user's overrides for the last step: entity and property keys (the archive's names) followed to the names
    /// the last step's source has.
    private static func translated(
        _ overrides: ModelChangeOverrides, entities: [String: String], properties: [String: String], before: String
    ) throws(TaskInterchangeError) -> ModelChangeOverrides {
        guard !overrides.entities.isEmpty || !overrides.properties.isEmpty else { return overrides }
        let entityNames = Dictionary(entities.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let propertyNames = Dictionary(properties.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        func lost(_ member: String, _ key: String) -> TaskInterchangeError {
            TaskInterchangeError(
                .usage,
                "\(JSONPath.member("$.modelChange." + member, key)): no version up to \(before) keeps \(key), so it "
                    + "cannot be carried into the last one; the mapping's modelChange decides the last step only")
        }
        var result = overrides
        result.entities = [:]
        for (entity, target) in overrides.entities {
            guard let name = entityNames[entity] else { throw lost("entities", entity) }
            result.entities[name] = target
        }
        result.properties = [:]
        for (key, target) in overrides.properties {
            if let name = propertyNames[key] {
                result.properties[name] = target
                continue
            }
            // The other side of a pair (not declared by the archive): its entity followed, its name kept.
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let entity = entityNames[parts[0]] else { throw lost("properties", key) }
            result.properties[entity + "." + parts[1]] = target
        }
        return result
    }

    /// The chain as one mapping from the archive's entities to the target's, for plans, summaries and the names an
    /// import and a comparison use: each property's fate over all steps.
    private static func composed(
        _ source: [String: EntityDeclaration], steps: [Step], added: [String: Set<String>]
    ) -> [String: EntityMap] {
        var result: [String: EntityMap] = [:]
        for (name, declaration) in source {
            var entity: String? = name
            var addsNothing = true
            var isLeftOut = false
            for step in steps {
                guard let current = entity, let map = step.mapping.entities[current] else { break }
                addsNothing = addsNothing && map.addsNothing
                isLeftOut = map.isLeftOut
                entity = map.target
            }
            var properties: [String: PropertyMap] = [:]
            for property in Array(declaration.attributes.keys) + Array(declaration.relationships.keys) {
                properties[property] = fate(of: property, of: name, through: steps)
            }
            var fills: [Fill] = []
            if let target = entity {
                fills = steps[steps.count - 1].mapping.entities.values.first { $0.target == target }?.fills ?? []
                for index in fills.indices where added[target]?.contains(fills[index].property) == true {
                    fills[index].isAdded = true
                }
            }
            result[name] = EntityMap(
                target: entity, isLeftOut: isLeftOut, properties: properties, fills: fills, isIdentity: false,
                addsNothing: addsNothing)
        }
        return result
    }

    /// One archive property's fate over the steps: dropped at the first step that drops it, refused at the first
    /// that refuses it, converted from its type to the last when any step converts it, the last relationship change
    /// otherwise.
    private static func fate(of property: String, of entity: String, through steps: [Step]) -> PropertyMap {
        var entityName = entity
        var name = property
        var result = PropertyMap(target: property, change: .kept)
        var converted = false
        for (index, step) in steps.enumerated() {
            guard let map = step.mapping.entities[entityName], let target = map.target,
                let propertyMap = map.properties[name]
            else {
                return PropertyMap(target: nil, change: .dropped("removed in \(step.to)"))
            }
            if index == 0 {
                result.sourceType = propertyMap.sourceType
                result.destination = propertyMap.destination
            }
            switch propertyMap.change {
            case .dropped(let reason):
                let why = reason.hasPrefix("left out") ? reason : "removed in \(step.to)"
                return PropertyMap(target: nil, change: .dropped(why), sourceType: result.sourceType)
            case .refused(let reason):
                return PropertyMap(target: propertyMap.target, change: .refused("\(reason) (in \(step.to))"))
            case .converted: converted = true
            case .kept: break
            case .toMany, .toOne, .reordered: result.change = propertyMap.change
            }
            result.targetType = propertyMap.targetType
            if let pair = propertyMap.pairChange { result.pairChange = pair }
            entityName = target
            name = propertyMap.target ?? name
        }
        result.target = name
        if converted, let from = result.sourceType, let to = result.targetType {
            result.change = .converted(from: from, to: to)
        }
        return result
    }

    /// A record through every step in turn; what the steps count is named as `names` says.
    func applySteps(
        _ record: EntityRecord, path: @autoclosure () -> String, tally: inout Tally, names: ChainNames
    ) throws(TaskInterchangeError) -> EntityRecord? {
        var current = record
        if tally.stepLinks.count < steps.count { tally.stepLinks = Array(repeating: [:], count: steps.count) }
        for (index, step) in steps.enumerated() {
            var counted = Tally()
            swap(&counted.linkedOnce, &tally.stepLinks[index])
            defer { swap(&counted.linkedOnce, &tally.stepLinks[index]) }
            let mapped: EntityRecord?
            do {
                mapped = try step.mapping.apply(current, path: path(), tally: &counted)
            } catch {
                throw TaskInterchangeError(error.kind, "\(error.message) (\(step.from) → \(step.to))")
            }
            let isLast = index == steps.count - 1
            for (entity, count) in counted.droppedRecords {
                tally.droppedRecords[names.entityOrigin[index][entity] ?? entity, default: 0] += count
            }
            for (property, count) in counted.droppedValues {
                // A value a version in between gave (its default) and a later one dropped was never the archive's.
                guard let origin = names.propertyOrigin[index][property] else { continue }
                tally.droppedValues[origin, default: 0] += count
            }
            for (property, count) in counted.filledValues {
                guard let final = names.finalNames[index][property] else { continue }
                tally.filledValues[final, default: 0] += count
                tally.filledCount += count
            }
            for (property, count) in counted.convertedValues {
                guard let final = names.finalNames[index][property] else { continue }
                tally.convertedValues[final, default: 0] += count
            }
            if isLast {
                for (property, count) in counted.requiredNulls { tally.requiredNulls[property, default: 0] += count }
            }
            guard let mapped else { return nil }
            current = mapped
        }
        return current
    }
}

extension VersionMapping.Change {
    /// True when the property's values travel on (under this or another name); false when dropped or refused.
    var keepsValues: Bool {
        switch self {
        case .dropped, .refused: return false
        default: return true
        }
    }
}
