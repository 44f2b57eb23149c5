import Foundation

/// The generic `entities` section: records of declared entities, canonical and unique ids, values of the declared
/// types, relationships of the declared shape whose ids name records of the destination entity (or a sub-entity),
/// positions only for ordered relationships, and declarations that agree with each other.
extension Validator {
    /// What the checks of the generic section keep between records.
    struct GenericChecks {
        var declarations: [String: EntityDeclaration] = [:]
        /// Store entity name → the typed kind that reads it.
        var typed: [String: RecordKind] = [:]
        /// Id → entity (its number in `names`) of every generic record read; a repeated id keeps its first record's.
        var ids: [UUIDKey: Int32] = [:]
        /// References whose destination was not read before them (it may come later).
        var pending: [PendingReference] = []
        /// The entity and property names `ids` and pending references use, each kept once, by number.
        var names: [String] = []
        var nameNumbers: [String: Int32] = [:]
        /// (destination entity, key, path) of dangling keys: no record of the destination's tree may have that key.
        var dangling: [(entity: String, key: Int64, path: String)] = []
        /// Root entity (one table in the store) → source key → the first record that carries it.
        var keys: [String: [Int64: (entity: String, index: Int)]] = [:]
        /// Entity → its root entity, by the declared superentities.
        var roots: [String: String] = [:]
        var checkedHeader = false
        /// Entity → its declared properties' checks (`PropertyChecks`), made on its first record.
        var propertyChecks: [String: PropertyChecks] = [:]
        /// A record's values by their place in its `PropertyChecks`, reused from record to record.
        var slots: [ExtraValue?] = []
    }

    /// An entity's declared properties in name order (the order a record's problems are reported in), each with how
    /// its values are checked: worked out once per entity instead of per value.
    struct PropertyChecks {
        enum Check {
            case relationship(EntityRelationship)
            /// The declared type name, and the type it names (nil when it names none).
            case attribute(String, ArchiveType?)
        }

        /// Property name → its place in `properties`.
        var places: [String: Int] = [:]
        var properties: [(name: String, check: Check)] = []

        init(_ declaration: EntityDeclaration) {
            // A name declared both ways is checked as the relationship.
            var checks: [String: Check] = declaration.attributes.mapValues { .attribute($0, ArchiveType(rawValue: $0)) }
            for (name, relationship) in declaration.relationships { checks[name] = .relationship(relationship) }
            properties = checks.sorted { $0.key < $1.key }.map { (name: $0.key, check: $0.value) }
            for (place, property) in properties.enumerated() { places[property.name] = place }
        }
    }

    /// A reference waiting for the end of the archive, kept small (an archive may hold millions): its destination
    /// entity and its site's names by number in `generic.names`.
    struct PendingReference {
        let id: UUID
        let destination: Int32
        let entity: Int32
        let property: Int32
        let index: Int
        /// The id's place in a to-many's array; -1 for a to-one.
        let position: Int
    }

    /// Where a generic record names another: its path is built only for a message, not kept per link.
    struct ReferenceSite {
        let entity: String
        let index: Int
        let property: String
        /// The id's place in a to-many's array; nil for a to-one.
        let position: Int?

        var path: String {
            let property = JSONPath.member(JSONPath.entityRecord(entity, index) + ".values", self.property)
            return position.map { "\(property)[\($0)]" } ?? property
        }
    }

    /// Checks `source.model` once: superentities, destinations and inverses name declared entities.
    mutating func checkModel(of header: ArchiveHeader) {
        guard !generic.checkedHeader, let source = header.source else { return }
        generic.checkedHeader = true
        generic.declarations = source.model
        for (kind, entity) in source.entities where RecordKind(rawValue: kind) != nil {
            generic.typed[entity] = RecordKind(rawValue: kind)
        }
        for (kind, declared) in source.relationships.sorted(by: { $0.key < $1.key }) {
            for (name, relationship) in declared.sorted(by: { $0.key < $1.key }) {
                checkInverse(
                    relationship.inverse, of: kind, name, destination: relationship.destination.rawValue, declared: nil,
                    path: JSONPath.member(JSONPath.member("$.source.relationships", kind), name) + ".inverse")
            }
        }
        for (entity, declaration) in source.model.sorted(by: { $0.key < $1.key }) {
            let path = JSONPath.member("$.source.model", entity)
            if let parent = declaration.superentity, source.model[parent] == nil {
                error(
                    .undeclaredProperty, path + ".superentity",
                    "superentity \(parent) is not declared in $.source.model")
            }
            for (name, relationship) in declaration.relationships.sorted(by: { $0.key < $1.key }) {
                let relationshipPath = JSONPath.member(path + ".relationships", name)
                if declaration.attributes[name] != nil {
                    error(
                        .undeclaredProperty, relationshipPath,
                        "\(name) is declared both as an attribute and as a relationship")
                }
                if relationship.ordered && !relationship.toMany {
                    error(.wrongType, relationshipPath + ".ordered", "a to-one relationship cannot be ordered")
                }
                checkInverse(
                    relationship.inverse, of: entity, name,
                    destination: generic.typed[relationship.destination]?.rawValue ?? relationship.destination,
                    declared: source.model[relationship.destination], path: relationshipPath + ".inverse")
                guard let destination = source.model[relationship.destination] else {
                    if generic.typed[relationship.destination] == nil {
                        error(
                            .undeclaredProperty, relationshipPath + ".destination",
                            "destination \(relationship.destination) is neither declared in $.source.model "
                                + "nor read by a kind in $.source.entities"
                        )
                    }
                    continue
                }
                // When both sides travel, each must name the other.
                if let inverse = relationship.inverse, let back = destination.relationships[inverse],
                    !isEntity(entity, kindOf: back.destination) && !isEntity(back.destination, kindOf: entity)
                {
                    error(
                        .wrongType, relationshipPath + ".inverse",
                        "the inverse \(relationship.destination).\(inverse) points at \(back.destination), "
                            + "not at \(entity)"
                    )
                }
            }
        }
    }

    /// The inverse declared for `owner.relationship` names a relationship of the destination: not one of its
    /// declared attributes, and, when the import target's model has the relationship (its values are written), one of
    /// the destination's relationships there. (Only one side of a pair travels, so the archive alone declares the
    /// inverse side only when both do.)
    mutating func checkInverse(
        _ inverse: String?, of owner: String, _ relationship: String, destination: String,
        declared: EntityDeclaration?, path: String
    ) {
        guard let inverse else { return }
        if declared?.attributes[inverse] != nil {
            error(.undeclaredProperty, path, "\(inverse) is an attribute of \(destination), not a relationship")
        } else if targetRelationships[owner]?.contains(relationship) == true,
            let names = targetRelationships[destination], !names.contains(inverse)
        {
            error(
                .undeclaredProperty, path,
                "the target's \(destination) has no relationship \(inverse)"
                    + (Suggestion.closest(to: inverse, among: names.sorted()).map { " (did you mean '\($0)'?)" } ?? "")
                    + (names.isEmpty ? "; it has none" : "; it has \(names.sorted().joined(separator: ", "))"))
        }
    }

    public mutating func visitEntity(_ record: EntityRecord, index: Int) {
        // Paths are built for messages only.
        let entity = record.entity
        let path = { JSONPath.entityRecord(entity, index) }
        counts.entities += 1
        if let first = generic.ids.updateValue(number(of: record.entity), forKey: UUIDKey(record.id)) {
            // The first record with the id stands for it, wherever a reference to it sits.
            generic.ids[UUIDKey(record.id)] = first
            error(
                .duplicateID, path() + ".id",
                "id \(record.id.uuidString) appears more than once (also a \(generic.names[Int(first)]) record)")
        }
        guard let declaration = generic.declarations[record.entity] else {
            error(.undeclaredProperty, path(), "entity \(record.entity) is not declared in $.source.model")
            return
        }
        if let key = record.key { checkKey(key, of: record.entity, index: index, path: path()) }
        if declaration.isAbstract {
            error(
                .wrongType, path(),
                "entity \(record.entity) is abstract (declared so in $.source.model) and has no records of its own")
        }
        let checks = propertyChecks(of: entity, declaration)
        func check(_ value: ExtraValue, _ place: Int) {
            let (property, check) = checks.properties[place]
            switch check {
            case .relationship(let relationship):
                checkRelationship(
                    value, relationship,
                    at: ReferenceSite(entity: entity, index: index, property: property, position: nil))
            case .attribute(let type, let archiveType):
                checkAttribute(
                    value, type: type, archiveType: archiveType, path: JSONPath.member(path() + ".values", property))
            }
        }
        // Each value in its declared property's place, so they are checked in name order without sorting them.
        var slots = generic.slots
        generic.slots = []
        slots.removeAll(keepingCapacity: true)
        slots.append(contentsOf: repeatElement(nil, count: checks.properties.count))
        var allDeclared = true
        for (property, value) in record.values {
            guard let place = checks.places[property] else {
                allDeclared = false
                break
            }
            slots[place] = value
        }
        if allDeclared {
            for (place, value) in slots.enumerated() {
                if let value { check(value, place) }
            }
        } else {
            for (property, value) in record.values.sorted(by: { $0.key < $1.key }) {
                if let place = checks.places[property] {
                    check(value, place)
                } else {
                    error(
                        .undeclaredProperty, JSONPath.member(path() + ".values", property),
                        "\(record.entity) declares no property \(property) in $.source.model")
                }
            }
        }
        generic.slots = slots
        for (property, positions) in record.positions.sorted(by: { $0.key < $1.key }) {
            let positionsPath = JSONPath.member(path() + ".positions", property)
            guard declaration.relationships[property]?.ordered == true else {
                error(
                    .wrongType, positionsPath,
                    "positions belong to an ordered to-many relationship; \(property) is not one")
                continue
            }
            let count: Int
            if case .array(let ids)? = record.values[property] { count = ids.count } else { count = 0 }
            if positions.count != count {
                error(.wrongType, positionsPath, "\(positions.count) positions for \(count) ids")
            }
        }
        for (property, dangling) in record.dangling.sorted(by: { $0.key < $1.key }) {
            checkDangling(dangling, property, of: record, declaration: declaration, path: path())
        }
        for property in record.external.keys.sorted() {
            let externalPath = JSONPath.member(path() + ".external", property)
            guard let type = declaration.attributes[property], ["binary", "transformable"].contains(type) else {
                error(
                    .wrongType, externalPath,
                    "only binary attributes are kept in external files; \(property) is not one")
                continue
            }
        }
    }

    private mutating func propertyChecks(of entity: String, _ declaration: EntityDeclaration) -> PropertyChecks {
        if let known = generic.propertyChecks[entity] { return known }
        let checks = PropertyChecks(declaration)
        generic.propertyChecks[entity] = checks
        return checks
    }

    /// A dangling key belongs to a declared to-one relationship without a value, and the entity beside it is the
    /// destination or one of its sub-entities.
    private mutating func checkDangling(
        _ dangling: EntityRecord.DanglingKey, _ property: String, of record: EntityRecord,
        declaration: EntityDeclaration, path: String
    ) {
        let danglingPath = JSONPath.member(path + ".dangling", property)
        guard let relationship = declaration.relationships[property], !relationship.toMany else {
            error(
                .undeclaredProperty, danglingPath,
                "\(record.entity) declares no to-one relationship \(property) in $.source.model")
            return
        }
        if record.values[property] != nil {
            error(.wrongType, danglingPath, "\(property) has a value too; a dangling key stands for a missing link")
        }
        if let entity = dangling.entity, generic.typed[relationship.destination] == nil,
            !isEntity(entity, kindOf: relationship.destination)
        {
            error(
                .wrongType, danglingPath + ".entity",
                "\(entity) is not \(relationship.destination) or one of its sub-entities in $.source.model")
        }
        if generic.typed[relationship.destination] == nil {
            generic.dangling.append((relationship.destination, dangling.key, danglingPath + ".key"))
        }
    }

    /// A source key names one row of its entity tree's table: two records with one key cannot both be restored.
    private mutating func checkKey(_ key: Int64, of entity: String, index: Int, path: @autoclosure () -> String) {
        let root = rootEntity(of: entity)
        if let first = generic.keys[root, default: [:]].updateValue((entity, index), forKey: key) {
            generic.keys[root]?[key] = first
            let shared = first.entity == entity ? "" : " (\(first.entity) and \(entity) share one table in the store)"
            error(
                .duplicateRecordKey, path() + ".key",
                "key \(key) is also the key of \(JSONPath.entityRecord(first.entity, first.index))\(shared)")
        }
    }

    /// The root of `entity`'s inheritance tree by the declared superentities (a cycle ends at the declaration count).
    private mutating func rootEntity(of entity: String) -> String {
        if let known = generic.roots[entity] { return known }
        var root = entity
        var steps = 0
        while let parent = generic.declarations[root]?.superentity, steps <= generic.declarations.count {
            root = parent
            steps += 1
        }
        generic.roots[entity] = root
        return root
    }

    private mutating func checkRelationship(
        _ value: ExtraValue, _ relationship: EntityRelationship, at site: ReferenceSite
    ) {
        let named = linkedIds(
            value, toMany: relationship.toMany, destination: relationship.destination,
            declaredIn: "$.source.model", path: site.path)
        for (text, position) in named {
            guard let id = CanonicalUUID.parse(text) else {
                let site = ReferenceSite(
                    entity: site.entity, index: site.index, property: site.property, position: position)
                error(.invalidUUID, site.path, CanonicalUUID.problem(with: text))
                continue
            }
            // A destination already read settles the reference now; only the others wait. (A record read later
            // with the same id is reported as repeated; the id stays the first one's.)
            if let kind = generic.typed[relationship.destination] {
                if ids(of: kind).contains(UUIDKey(id)) { continue }
            } else if let found = generic.ids[UUIDKey(id)],
                isEntity(generic.names[Int(found)], kindOf: relationship.destination)
            {
                continue
            }
            generic.pending.append(
                PendingReference(
                    id: id, destination: number(of: relationship.destination), entity: number(of: site.entity),
                    property: number(of: site.property), index: site.index, position: position ?? -1))
        }
    }

    /// The number of `name` in `generic.names`.
    private mutating func number(of name: String) -> Int32 {
        if let known = generic.nameNumbers[name] { return known }
        generic.names.append(name)
        generic.nameNumbers[name] = Int32(generic.names.count - 1)
        return Int32(generic.names.count - 1)
    }

    /// Checks generic references once every record has been read.
    mutating func resolveEntityReferences() {
        for pending in generic.pending {
            let reference = (
                entity: generic.names[Int(pending.destination)], id: pending.id,
                site: ReferenceSite(
                    entity: generic.names[Int(pending.entity)], index: pending.index,
                    property: generic.names[Int(pending.property)],
                    position: pending.position < 0 ? nil : pending.position)
            )
            if let kind = generic.typed[reference.entity] {
                if !ids(of: kind).contains(UUIDKey(reference.id)) {
                    error(
                        .missingReference, reference.site.path,
                        "no \(kind.rawValue) (\(reference.entity)) with id \(reference.id.uuidString) in the archive")
                }
                continue
            }
            guard let found = generic.ids[UUIDKey(reference.id)].map({ generic.names[Int($0)] }) else {
                error(
                    .missingReference, reference.site.path,
                    "no \(reference.entity) with id \(reference.id.uuidString) in the archive")
                continue
            }
            if !isEntity(found, kindOf: reference.entity) {
                error(
                    .missingReference, reference.site.path,
                    "\(reference.id.uuidString) is a \(found) record, "
                        + "not a \(reference.entity) (or one of its sub-entities)"
                )
            }
        }
        generic.pending = []
        for dangling in generic.dangling {
            guard let found = generic.keys[rootEntity(of: dangling.entity)]?[dangling.key] else { continue }
            error(
                .wrongType, dangling.path,
                "key \(dangling.key) is said to name no row, but it is the key of "
                    + JSONPath.entityRecord(found.entity, found.index))
        }
        generic.dangling = []
    }

    /// True when `entity` is `ancestor` or one of its sub-entities, by the declared superentities.
    private func isEntity(_ entity: String, kindOf ancestor: String) -> Bool {
        EntityDeclaration.isEntity(entity, kindOf: ancestor, limit: generic.declarations.count) {
            generic.declarations[$0]?.superentity
        }
    }
}
