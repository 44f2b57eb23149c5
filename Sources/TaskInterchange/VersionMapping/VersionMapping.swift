/// How the records of one model version become records of another, inferred as Core Data's lightweight migration
/// infers it: entities and properties matched by name or by the target's renaming identifier, properties the target
/// adds given its default value, properties it removes dropped (and counted), types converted where no value changes,
/// to-one and to-many relationships turned into each other where the links fit. `ModelChangeOverrides` (the mapping
/// file's `modelChange`) can rename, drop or fill anything the inference would decide otherwise.
///
/// The mapping works on generic records (the archive's `entities` section), before they are written and before an
/// archive is compared with a store of the target version. Ids stay the archive's: a store read for comparison
/// derives the ids of a renamed entity's records from its source name (`identityNames`).
///
/// To an app it is a handle: an import returns the one it used (`StoreImportResult/versionMapping`), which a
/// comparison reads its archive through (`GraphComparison/Options/versionMapping`); what it did is in the
/// `ModelChangeReport` and the plan's `VersionMapping/Tally`.
public struct VersionMapping: Sendable, Hashable {
    /// What happens to one source property.
    package enum Change: Sendable, Hashable {
        /// Carried under the same type (and, for a relationship, the same cardinality).
        case kept
        /// Converted without changing any value (Integer 16 → Integer 32, Float → Double, Boolean → Integer, …), or
        /// converted where each value fits and refused where one does not (Integer 64 → Integer 32).
        case converted(from: String, to: String)
        /// A to-one relationship that became to-many: its link becomes a set of one.
        case toMany
        /// A to-many relationship that became to-one: a record with more than one link is refused.
        case toOne
        /// A to-many relationship that became ordered (its links numbered in the archive's order) or unordered (its
        /// positions dropped).
        case reordered(ordered: Bool)
        /// The target model has no such property: its values are dropped by the model change.
        case dropped(String)
        /// The target's property cannot hold these values without changing them: a record that has one is refused.
        case refused(String)
    }

    /// One source property's fate.
    package struct PropertyMap: Sendable, Hashable {
        /// The target property's name (nil when dropped).
        package var target: String?
        /// How its values change.
        package var change: Change
        /// The target's type for an attribute (`source.model` type names), nil for a relationship.
        var targetType: String?
        /// The source's type for an attribute, nil for a relationship.
        var sourceType: String?
        /// The source's destination entity for a relationship, nil for an attribute.
        var destination: String?
        /// For a to-one whose inverse is to-one in the target (`Entity.inverse`): each destination may be linked by one
        /// record only.
        var uniqueInverse: String?
        /// How the pair this relationship belongs to changed on its other side, for the plan.
        package internal(set) var pairChange: String?
    }

    /// A target attribute no source property fills (added by the new version), or a required one: what records
    /// without a value get.
    package struct Fill: Sendable, Hashable {
        /// The target attribute.
        package var property: String
        /// The value written: the mapping file's, else the model's default; nil when there is none.
        package var value: ExtraValue?
        /// The target requires a value: a record without one, with no `value` to write, is refused.
        package var isRequired: Bool
        /// No source property maps to it (an added attribute): every record gets `value`.
        package var isAdded: Bool
        /// In the last step of a chain: a version before added it without a value, so records lack it as if this step
        /// added it.
        var wasAddedEarlier = false
    }

    /// One source entity's fate.
    package struct EntityMap: Sendable, Hashable {
        /// The target entity (nil when the target model has none, or the mapping leaves it out: its records are
        /// dropped by the model change).
        package var target: String?
        /// True when the mapping's `modelChange` left the entity out on purpose.
        package var isLeftOut = false
        /// Source property → its fate, attributes and relationships alike.
        package var properties: [String: PropertyMap]
        /// The target's attributes that records may lack, by name.
        package var fills: [Fill]
        /// True when records pass unchanged: same name, every property kept, nothing to fill.
        var isIdentity: Bool
        /// True when the versions agree on this entity (same name and properties, nothing added): at most the NULLs of
        /// required attributes would be filled.
        var addsNothing: Bool
    }

    /// Source entity → its fate, for every entity the archive declares.
    package var entities: [String: EntityMap]
    /// Target entity → the attributes the source version did not have (see `addedAttributes(of:)`).
    var added: [String: Set<String>]
    /// The archive's declarations as the target model has them (keyed by target entity name): what an import passes
    /// to its destination and a comparison reads the archive's records by.
    package var targetDeclarations: [String: EntityDeclaration]
    /// For a mapping composed through the versions between the source's and the target's (see
    /// `init(from:through:overrides:)`): each step in order; empty for a direct mapping.
    package internal(set) var steps: [Step] = []
    /// Groups of records that share the values of a uniqueness constraint the target has (see `findDuplicates`).
    package internal(set) var duplicates: [DuplicateGroup] = []
    /// How `duplicates` are made one record each, when the mapping's `modelChange` says which to keep.
    var resolution: Resolution?
    /// For a chain from a store no version of the model wrote: the version its own model (its model cache) was
    /// mapped onto first, the closest.
    package internal(set) var fromOwnModel: String?
    /// For a chain: the model's version order its steps follow, as a plan states it.
    package internal(set) var order: String?
    /// How a chain's records are counted under the source's and the target's names.
    var chainNames: ChainNames?
    /// True for a step of a chain before its last: a required attribute it adds without a value is left for the
    /// later steps (one of them may give it a default or remove it).
    var isIntermediate = false
    /// True when the two versions agree on every entity: an import of the same version (a restore, say), which keeps
    /// every record exactly as it is, NULLs of required attributes included.
    package var isIdentity: Bool {
        steps.isEmpty ? entities.values.allSatisfy(\.addsNothing) : steps.allSatisfy(\.mapping.isIdentity)
    }
    /// True when the target model has at least one of the source's entities (otherwise the archive belongs to
    /// another app, and nothing is a model change).
    package var matchesAnyEntity: Bool { entities.values.contains { $0.target != nil } }
    /// Target entity → the source name its records' ids were derived from, for each renamed entity.
    package var identityNames: [String: String] {
        var names: [String: String] = [:]
        for (source, map) in entities {
            if let target = map.target, target != source { names[target] = source }
        }
        return names
    }

    /// The attributes of target entity `entity` that the source version did not have (added by the model change): an
    /// update of an existing record leaves them as the target has them.
    package func addedAttributes(of entity: String) -> Set<String> {
        added[entity] ?? []
    }

    /// What applying the mapping dropped and filled, counted by `Entity` (records) or `Entity.property` (values),
    /// with the source's names for drops and the target's for fills.
    public struct Tally: Sendable, Hashable, Codable {
        /// Records of entities the target model does not have.
        public package(set) var droppedRecords: [String: Int] = [:]
        /// Values of properties the target model does not have.
        public package(set) var droppedValues: [String: Int] = [:]
        /// Values the model's default (or the mapping file) supplied.
        public package(set) var filledValues: [String: Int] = [:]
        /// Values converted to the target's type.
        public package(set) var convertedValues: [String: Int] = [:]
        /// Every value filled so far (the sum of `filledValues`).
        public package(set) var filledCount = 0
        /// Records left with NULL in an attribute the target requires and gives no default (the source held NULL there).
        public package(set) var requiredNulls: [String: Int] = [:]
        /// Records merged into another that shares the values of a new uniqueness constraint, by target entity:
        /// their to-many links carried to it, their own values dropped.
        public package(set) var mergedRecords: [String: Int] = [:]
        /// The values of the merged records (not carried).
        public package(set) var mergedValues: [String: Int] = [:]
        /// The destinations linked so far through each relationship whose inverse became to-one (not reported).
        var linkedOnce: [String: Set<String>] = [:]
        /// A chain's `linkedOnce`, one per step.
        var stepLinks: [[String: Set<String>]] = []

        private enum CodingKeys: String, CodingKey {
            case droppedRecords, droppedValues, filledValues, convertedValues, filledCount, requiredNulls
            case mergedRecords, mergedValues
        }
        /// Creates empty counts.
        package init() {}

        /// True when nothing was dropped.
        public var droppedNothing: Bool { droppedRecords.isEmpty && droppedValues.isEmpty }
        /// The number of records and values dropped.
        public var droppedCount: Int { droppedRecords.values.reduce(0, +) + droppedValues.values.reduce(0, +) }
    }

    /// The record as the target model holds it, nil when the target has no such entity (counted in `tally`).
    /// - Parameters:
    ///   - record: a record of the archive's model.
    ///   - path: the record's JSON path, for messages.
    ///   - tally: what was dropped, filled and converted, added to.
    /// - Throws: `TaskInterchangeError.invalidData` for a value the target cannot hold unchanged, a required value
    ///   with nothing to fill it, or a to-one relationship given several links.
    package func apply(_ record: EntityRecord, path: @autoclosure () -> String, tally: inout Tally)
        throws(TaskInterchangeError) -> EntityRecord?
    {
        guard let resolution else { return try applyMapping(record, path: path(), tally: &tally) }
        guard let mapped = try applyMapping(record, path: path(), tally: &tally) else { return nil }
        return resolution.apply(mapped, tally: &tally)
    }

    /// The record through the mapping alone (see `apply`).
    func applyMapping(_ record: EntityRecord, path: @autoclosure () -> String, tally: inout Tally)
        throws(TaskInterchangeError) -> EntityRecord?
    {
        if let chainNames { return try applySteps(record, path: path(), tally: &tally, names: chainNames) }
        guard let map = entities[record.entity] else { return record }
        guard let target = map.target else {
            tally.droppedRecords[record.entity, default: 0] += 1
            return nil
        }
        if map.isIdentity { return record }
        var mapped = EntityRecord(id: record.id, entity: target, key: record.key)
        // Values come in the dictionary's order, which differs from run to run: of several problems, the one of
        // the first property by name is reported, so a record fails with the same message every time.
        var failure: (source: String, error: TaskInterchangeError)?
        for (source, value) in record.values {
            do throws(TaskInterchangeError) {
                guard let property = map.properties[source] else {
                    // Not declared: passed on under its name for the writer to report.
                    mapped.values[source] = value
                    continue
                }
                let name = property.target ?? source
                // Spelt only for a message: most records never need it.
                func at() -> String { JSONPath.member(path() + ".values", source) }
                switch property.change {
                case .kept:
                    mapped.values[name] = value
                case .converted(let from, let to):
                    mapped.values[name] = try Self.convert(
                        value, from: from, to: to, at: at(), property: target + "." + name)
                    tally.convertedValues[target + "." + name, default: 0] += 1
                case .toMany:
                    if case .string(let id) = value {
                        mapped.values[name] = .array([id])
                    } else {
                        mapped.values[name] = value
                    }
                case .reordered:
                    mapped.values[name] = value
                case .toOne:
                    guard case .array(let ids) = value else {
                        mapped.values[name] = value
                        break
                    }
                    guard ids.count <= 1 else {
                        throw TaskInterchangeError(
                            .invalidData,
                            "\(at()): \(ids.count) links, but \(target).\(name) is to-one in the target model; "
                                + "keep one link per record, or map the relationship to a to-many one")
                    }
                    if let id = ids.first { mapped.values[name] = .string(id) }
                case .dropped:
                    tally.droppedValues[record.entity + "." + source, default: 0] += 1
                case .refused(let reason):
                    guard value != .null else { break }
                    throw TaskInterchangeError(.invalidData, "\(at()): \(reason)")
                }
                if let inverse = property.uniqueInverse, case .string(let id)? = mapped.values[name] {
                    guard tally.linkedOnce[target + "." + name, default: []].insert(id).inserted else {
                        throw TaskInterchangeError(
                            .invalidData,
                            "\(at()): \(id) is linked by another record too, but \(inverse) is to-one in the target "
                                + "model, so only one record may link to it")
                    }
                }
            } catch {
                if failure.map({ source < $0.source }) ?? true { failure = (source, error) }
            }
        }
        if let failure { throw failure.error }
        for (property, positions) in record.positions {
            guard let map = map.properties[property], let name = map.target else { continue }
            if case .toOne = map.change { continue }
            if case .reordered(false) = map.change { continue }
            mapped.positions[name] = positions
        }
        for (property, file) in record.external {
            if let name = map.properties[property]?.target { mapped.external[name] = file }
        }
        for (property, dangling) in record.dangling {
            // A key pointing at no row stays one wherever its relationship goes, under the target's entity names.
            guard let name = map.properties[property].map({ $0.target }) ?? property else {
                tally.droppedValues[record.entity + "." + property, default: 0] += 1
                continue
            }
            var renamed = dangling
            if let entity = dangling.entity, let target = entities[entity]?.target { renamed.entity = target }
            mapped.dangling[name] = renamed
        }
        for fill in map.fills {
            let present = mapped.values[fill.property].map { $0 != .null } ?? false
            if present { continue }
            if let value = fill.value {
                mapped.values[fill.property] = value
                tally.filledValues[target + "." + fill.property, default: 0] += 1
                tally.filledCount += 1
            } else if !fill.isAdded && !fill.wasAddedEarlier {
                tally.requiredNulls[target + "." + fill.property, default: 0] += 1
            } else if fill.isRequired && !isIntermediate {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(JSONPath.member(path() + ".values", fill.property)): \(target).\(fill.property) is required in "
                        + "the target model, which gives it no default value, and the archive has none; name the "
                        + "value to write in the mapping's modelChange.fill")
            }
        }
        return mapped
    }
}
