import Foundation

/// The generic `entities` section: each record placed (inserted, updated or skipped by the mode) with its attributes,
/// its relationships kept with its key and linked once every record, typed or generic, has one.
extension Importer.Pass {
    /// A generic record's relationship waiting for its destinations to exist.
    struct PendingEntityLink {
        var entity: String
        var key: Destination.ObjectKey
        var property: String
        var declaration: EntityRelationship
        var ids: [UUID]
        var positions: [Int64]?
        /// The record's entity as the archive names it, and its index in that entity's section (nil: the model
        /// change's duplicates): the link's path is built from them only for a message, not kept per link.
        var archiveEntity: String
        var index: Int?
        var replacing: Bool

        /// The JSON path of the relationship's value.
        var path: String {
            guard let index else { return JSONPath.member("$.modelChange.duplicates", archiveEntity) }
            return JSONPath.member(JSONPath.entityRecord(archiveEntity, index) + ".values", property)
        }
    }

    /// What the generic section needs across records.
    struct Generic {
        /// `source.model`.
        var declarations: [String: EntityDeclaration] = [:]
        /// Store entity name → the typed kind that reads it (`source.entities` inverted): links to typed records.
        var typed: [String: StoreMapping.Kind] = [:]
        var keys: [UUIDKey: Destination.ObjectKey] = [:]
        var pending: [PendingEntityLink] = []
        /// Records the model change left out (their entity is gone, or left out on purpose): links to them go too.
        var dropped: Set<UUID> = []
        /// Entity → its declared relationships in name order (the order its links are written in), made once.
        var relationships: [String: [(property: String, relationship: EntityRelationship)]] = [:]

        /// `entity`'s declared relationships in name order.
        mutating func relationships(
            of entity: String, _ declaration: EntityDeclaration
        ) -> [(property: String, relationship: EntityRelationship)] {
            if let known = relationships[entity] { return known }
            let sorted = declaration.relationships.sorted { $0.key < $1.key }.map {
                (property: $0.key, relationship: $0.value)
            }
            relationships[entity] = sorted
            return sorted
        }
    }

    /// Reads the declarations; kinds generic records point at keep their ID maps.
    mutating func noteEntities(of header: ArchiveHeader) {
        guard generic.declarations.isEmpty, let source = header.source, !source.model.isEmpty else { return }
        generic.declarations = importer.versionMapping?.targetDeclarations ?? source.model
        for (kind, entity) in source.entities {
            if let kind = StoreMapping.Kind(rawValue: kind) { generic.typed[entity] = kind }
        }
        for declaration in source.model.values {
            for relationship in declaration.relationships.values {
                if let kind = generic.typed[relationship.destination] { links.kinds.insert(kind) }
            }
        }
    }

    mutating func visitEntity(_ record: EntityRecord, index: Int) throws {
        let archiveEntity = record.entity
        // Built for a message only.
        func path() -> String { JSONPath.entityRecord(archiveEntity, index) }
        if (index + 1) % 1_024 == 0 { try Cancellation.checkpoint() }
        guard loadsEntity(record.entity) else {
            plan.entities[record.entity, default: ImportPlan.Operations()].notLoaded =
                (plan.entities[record.entity]?.notLoaded ?? 0) + 1
            return
        }
        let archived = record.values.count
        var record = record
        let filled = plan.modelChange.filledCount
        if let mapping = importer.versionMapping {
            guard let mapped = try mapping.apply(record, path: path(), tally: &plan.modelChange) else {
                generic.dropped.insert(record.id)
                return
            }
            record = mapped
        }
        let declaration = generic.declarations[record.entity] ?? EntityDeclaration()
        // The archive's values that arrive (a model's default filled in is not one of them).
        let carried = record.values.count - (plan.modelChange.filledCount - filled)
        var taken: [(property: String, relationship: EntityRelationship, ids: [String])] = []
        for (property, relationship) in generic.relationships(of: record.entity, declaration) {
            switch record.values.removeValue(forKey: property) {
            case .string(let id)?: taken.append((property, relationship, [id]))
            case .array(let ids)?: taken.append((property, relationship, ids))
            default: taken.append((property, relationship, []))
            }
        }
        var operations = plan.entities[record.entity] ?? ImportPlan.Operations()
        operations.values += archived
        defer { plan.entities[record.entity] = operations }
        var existing =
            importer.mode == .replace ? nil : try destination.existingKey(ofEntity: record.entity, id: record.id)
        var targetId = record.id
        if existing == nil, importer.mode != .replace, let matched = importer.baseline?.entityMatches[record.id],
            let matchedKey = try destination.existingKey(ofEntity: record.entity, id: matched)
        {
            // The archive's record is the target's: every reference to the archive's id follows through the keys.
            existing = matchedKey
            targetId = matched
            operations.matched += 1
            plan.note(MergeDecision(kind: .match, entity: record.entity, id: record.id, targetId: matched))
        }
        let key: Destination.ObjectKey
        if let existing {
            let unchanged = importer.baseline?.unchangedEntities.contains(record.id) == true
            // Only merge decides by dates.
            let archiveDate = importer.mode == .merge ? importer.modificationDates.date(in: record.values) : nil
            let targetDate = importer.mode == .merge ? importer.baseline?.targetDates[targetId] ?? nil : nil
            switch importer.mode {
            case .insert where targetId == record.id:
                throw TaskInterchangeError(
                    .invalidData,
                    "\(path()).id: \(record.entity) \(record.id.uuidString) already exists in the target store "
                        + "(use \(setting: .mode, "upsert", "skip", "replace"))"
                )
            case .upsert where unchanged, .merge where unchanged:
                // Already as the archive says, links included: left unwritten.
                operations.unchanged += 1
                operations.valuesArrived += carried
                generic.keys[UUIDKey(record.id)] = existing
                return
            case .merge where !importer.archiveWins(archiveDate: archiveDate, targetDate: targetDate):
                operations.conflicts += 1
                operations.skipped += 1
                plan.note(
                    MergeDecision(
                        kind: .conflict, entity: record.entity, id: record.id, targetId: targetId,
                        winner: .target, archiveModifiedAt: archiveDate, targetModifiedAt: targetDate))
                generic.keys[UUIDKey(record.id)] = existing
                return
            case .insert, .skip:
                operations.skipped += 1
                generic.keys[UUIDKey(record.id)] = existing
                return
            case .upsert, .merge, .replace:
                if importer.mode == .merge {
                    operations.conflicts += 1
                    plan.note(
                        MergeDecision(
                            kind: .conflict, entity: record.entity, id: record.id, targetId: targetId,
                            winner: .archive, archiveModifiedAt: archiveDate,
                            targetModifiedAt: targetDate))
                }
                var declared = declaration
                if let added = importer.versionMapping?.addedAttributes(of: record.entity), !added.isEmpty {
                    // Attributes the archive's version never had keep the target's values.
                    for property in added {
                        declared.attributes[property] = nil
                        record.values[property] = nil
                    }
                }
                if !importer.dryRun { try destination.update(record, declaration: declared, at: existing) }
                operations.updated += 1
                operations.valuesArrived += carried
                key = existing
            }
        } else if importer.dryRun {
            operations.inserted += 1
            operations.valuesArrived += carried
            return
        } else {
            guard let inserted = try destination.insert(record, declaration: declaration) else {
                plan.lacking[record.entity, default: 0] += 1
                return
            }
            operations.inserted += 1
            operations.valuesArrived += carried
            key = inserted
        }
        generic.keys[UUIDKey(record.id)] = key
        for (property, relationship, texts) in taken where !texts.isEmpty || existing != nil {
            var ids: [UUID] = []
            for (position, text) in texts.enumerated() {
                guard let id = CanonicalUUID.parse(text) else {
                    let at =
                        relationship.toMany
                        ? "\(JSONPath.member(path() + ".values", property))[\(position)]"
                        : JSONPath.member(path() + ".values", property)
                    throw TaskInterchangeError(.invalidData, "\(at): \(CanonicalUUID.problem(with: text))")
                }
                ids.append(id)
            }
            generic.pending.append(
                PendingEntityLink(
                    entity: record.entity, key: key, property: property, declaration: relationship,
                    ids: ids, positions: record.positions[property], archiveEntity: archiveEntity, index: index,
                    replacing: existing != nil))
        }
    }

    /// The target's object for an id of `entity` (or of one of its sub-entities, by the declarations).
    private mutating func existingObject(_ id: UUID, of entity: String) throws -> Destination.ObjectKey? {
        if let kind = generic.typed[entity] { return try destination.existingKey(of: kind, id: id) }
        let declarations = generic.declarations
        for name in declarations.keys.sorted()
        where EntityDeclaration.isEntity(
            name, kindOf: entity, limit: declarations.count, superentity: { declarations[$0]?.superentity })
        {
            if let key = try destination.existingKey(ofEntity: name, id: id) { return key }
        }
        return nil
    }

    /// Links every generic relationship, now that every record has a key.
    mutating func linkEntities() throws {
        // A record the target already held, kept over the archive's duplicates of it: their to-many links join its own.
        for kept in importer.versionMapping?.linksAddedInTarget ?? [] {
            guard let key = try existingObject(kept.id, of: kept.entity) else { continue }
            for (property, ids) in kept.links.sorted(by: { $0.key < $1.key }) {
                guard let relationship = generic.declarations[kept.entity]?.relationships[property] else { continue }
                generic.pending.append(
                    PendingEntityLink(
                        entity: kept.entity, key: key, property: property, declaration: relationship,
                        ids: ids.compactMap { UUID(uuidString: $0) }, positions: nil, archiveEntity: kept.entity,
                        index: nil, replacing: false))
            }
        }
        for link in generic.pending {
            var keys: [Destination.ObjectKey] = []
            for id in link.ids {
                var typed = generic.typed[link.declaration.destination].flatMap { key(of: $0, id: id) }
                // A record the archive's duplicates were merged into, which the target already held.
                if typed == nil, importer.versionMapping?.isKeptInTarget(id) == true {
                    typed = try existingObject(id, of: link.declaration.destination)
                }
                guard let key = generic.keys[UUIDKey(id)] ?? typed else {
                    if plan.lacking[link.declaration.destination] != nil { continue }
                    if generic.dropped.contains(id) {
                        plan.modelChange.droppedValues["\(link.entity).\(link.property)", default: 0] += 1
                        continue
                    }
                    if importer.kinds != nil || importer.entities != nil {
                        // A record this import does not load: the target's object with that id, or the link is dropped.
                        if let existing = try existingObject(id, of: link.declaration.destination) {
                            keys.append(existing)
                        } else {
                            plan.droppedReferences = (plan.droppedReferences ?? 0) + 1
                        }
                        continue
                    }
                    throw TaskInterchangeError(
                        .invalidData,
                        "\(link.path): no \(link.declaration.destination) with id \(id.uuidString) in the archive")
                }
                keys.append(key)
            }
            let positions = link.positions?.count == keys.count ? link.positions : nil
            try destination.link(
                entity: link.entity, link.key, relationship: link.property, link.declaration, to: keys,
                positions: positions, replacing: link.replacing)
        }
        generic.pending = []
        for (property, count) in destination.lackingProperties() {
            plan.lacking[property, default: 0] += count
            if let dot = property.firstIndex(of: ".") {
                plan.entities[String(property[..<dot])]?.valuesArrived -= count
            }
        }
    }
}
