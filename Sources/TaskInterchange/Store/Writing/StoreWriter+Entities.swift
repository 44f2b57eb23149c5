import Foundation

/// Generic records: rows of the target's own entities, attributes written by the target's column types (as `extra`
/// values are), keys kept from the archive when the table was empty before the import (always with
/// `keepIdentity`), relationships through the target's key columns, ordered positions and join tables.
extension StoreWriter {
    /// One generic entity's prepared statements.
    struct EntityStatements {
        let entity: GenericLayout.Entity
        let insert: Statement
        let update: Statement
        /// The declared type of each attribute's column, in `entity.attributes` order.
        let declaredTypes: [String]
    }

    private func statements(for entity: GenericLayout.Entity) throws -> EntityStatements {
        if let statements = rowWriting.entities[entity.name] { return statements }
        let table = Database.quote(entity.table)
        let columns = entity.attributes.map(\.column)
        let quoted = (CoreDataNames.rowColumns + columns).map(Database.quote).joined(separator: ", ")
        let insert = try database.prepare(
            "INSERT INTO \(table) (\(quoted)) "
                + "VALUES (\(Array(repeating: "?", count: columns.count + 3).joined(separator: ", ")))"
        )
        let assignments =
            columns.enumerated().map { "\(Database.quote($0.element)) = ?\($0.offset + 1)" } + [
                CoreDataNames.versionIncrement
            ]
        let update = try database.prepare(
            CoreDataNames.update(table, set: assignments.joined(separator: ", "), byKey: "?\(columns.count + 1)"))
        let declared = Dictionary(
            schema.columns(of: entity.table)?.map { ($0.name, $0.declaredType) } ?? [],
            uniquingKeysWith: { first, _ in first })
        let statements = EntityStatements(
            entity: entity, insert: insert, update: update, declaredTypes: columns.map { declared[$0] ?? "" })
        rowWriting.entities[entity.name] = statements
        return statements
    }

    /// Whether the target keeps `attribute` as Core Data keeps externally storable data (behind a marker byte, or in
    /// a file): its model says so, or, for a store that keeps no model, the archive's declaration of the entity.
    /// - Throws: `.invalidData` when neither can say and the record names an external file.
    private func isExternal(
        _ attribute: GenericLayout.Attribute, of record: EntityRecord, _ declaration: EntityDeclaration
    ) throws(TaskInterchangeError) -> Bool {
        if attribute.value == .external { return true }
        guard targetModel == nil, attribute.type == "binary" else { return false }
        if declaration.externalStorage.contains(attribute.property) { return true }
        guard let name = record.external[attribute.property] else { return false }
        throw TaskInterchangeError(
            .invalidData,
            "\(record.entity) \(record.id.uuidString): the archive kept \(attribute.property) in the external file "
                + "\(name), and neither it nor the target (which keeps no model cache) says whether "
                + "\(record.entity).\(attribute.property) allows external storage; give the app's model "
                + "(\(setting: .targetModel)); nothing was written")
    }

    /// Binds a record's attribute values from `base` on (NULL for those it leaves out) and counts the values the
    /// target has no attribute for.
    private func bindAttributes(
        _ record: EntityRecord, _ declaration: EntityDeclaration, _ statements: EntityStatements,
        to statement: Statement, from base: Int32
    ) throws {
        var placed = 0
        for (offset, attribute) in statements.entity.attributes.enumerated() {
            let index = base + Int32(offset)
            let external = try isExternal(attribute, of: record, declaration)
            if external, record.values[attribute.property] == nil, let name = record.external[attribute.property] {
                // The source's file was missing: the row points at it all the same, as the source's did.
                ExternalData.reference(name).withUnsafeBytes { statement.bind(blob: $0, at: index) }
            } else if external, case .string(let text)? = record.values[attribute.property],
                let value = Data(base64Encoded: text)
            {
                // Kept as the source kept it: in its file (same name), or in the row behind the inline marker.
                let bytes: [UInt8]
                if let name = record.external[attribute.property] {
                    bytes = ExternalData.reference(try externalDataWriter.stage([UInt8](value), as: name))
                } else {
                    bytes = ExternalData.inline([UInt8](value))
                }
                bytes.withUnsafeBytes { statement.bind(blob: $0, at: index) }
                placed += 1
            } else if let value = record.values[attribute.property] {
                bind(value, declaredType: statements.declaredTypes[offset], to: statement, at: index)
                placed += 1
            } else {
                // A reference to a file the source lacked has nowhere to go in a column that keeps values inline.
                if record.external[attribute.property] != nil {
                    diagnostics.missingFileReferences["\(record.entity).\(attribute.property)", default: 0] += 1
                }
                statement.bindNull(at: index)
            }
        }
        if placed < record.values.count {
            let known = Set(statements.entity.attributes.map(\.property))
            for property in record.values.keys where !known.contains(property) {
                diagnostics.lackingEntityValues["\(record.entity).\(property)", default: 0] += 1
            }
        }
    }

    public func existingKey(ofEntity entity: String, id: UUID) throws -> Int64? {
        try existingObjects(of: entity)[id]
    }

    public func countOfEntities() throws -> [String: Int] {
        try genericLayout.names.reduce(into: [:]) { counts, name in counts[name] = try existingObjects(of: name).count }
    }

    /// The rows of each concrete generic entity the target holds now, by entity name (counted, not read).
    func genericRowCounts() throws(TaskInterchangeError) -> [String: Int] {
        var counts: [String: Int] = [:]
        do {
            for name in genericLayout.names {
                guard let laidOut = genericLayout.entities[name], !laidOut.isAbstract else { continue }
                let count = try database.prepare(
                    "SELECT count(*) FROM \(Database.quote(laidOut.table)) WHERE \(CoreDataNames.entityNumber) = ?")
                count.bind(laidOut.number, at: 1)
                counts[name] = try count.step() ? Int(count.int64(at: 0)) : 0
            }
        } catch {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read the target store")
        }
        return counts
    }

    /// The objects of generic `entity` the target holds, by the id each derives from its key (read once). A new
    /// store held none before the import, whose own objects the importer keys itself (an id the archive repeats is
    /// the archive's error): none are kept for it.
    func existingObjects(of entity: String) throws -> [UUID: Int64] {
        guard !isNew, let laidOut = genericLayout.entities[entity] else { return [:] }
        if let known = existingEntities[entity] { return known }
        var keys: [UUID: Int64] = [:]
        let select = try database.prepare(CoreDataNames.selectKeys(from: Database.quote(laidOut.table), ofEntity: "?"))
        select.bind(laidOut.number, at: 1)
        let identity = DerivedIdentity(
            storeUUID: schema.storeUUID ?? "", entity: archive.identityNames[entity] ?? entity)
        while try select.step() {
            let key = select.int64(at: 0)
            keys[identity.id(of: key)] = key
        }
        existingEntities[entity] = keys
        return keys
    }

    public func insert(_ record: EntityRecord, declaration: EntityDeclaration) throws -> Int64? {
        guard let entity = genericLayout.entities[record.entity], !entity.isAbstract,
            let schemaEntity = schema.entity(number: entity.number)
        else { return nil }
        let statements = try statements(for: entity)
        let key: Int64
        var version: Int64 = 1
        let takenBack = replaced.takeBack(entity: record.entity, id: record.id, in: entity.table)
        if let takenBack {
            // The same object, removed by replace mode: written again under its key, one version on.
            key = takenBack.key
            version = takenBack.row.version + 1
            try useKept(key, in: entity.table)
        } else if try keepsKeys(in: entity.table, of: schemaEntity), let kept = record.key {
            key = kept
            try useKept(kept, in: entity.table)
        } else if configuration.keepIdentity {
            throw TaskInterchangeError(
                .invalidData,
                "\(setting: .keepIdentity): the \(record.entity) record \(record.id.uuidString) has no key")
        } else {
            key = try allocateKey(in: entity.table, of: schemaEntity)
        }
        let insert = statements.insert
        insert.bind(key, at: 1)
        insert.bind(entity.number, at: 2)
        insert.bind(version, at: 3)
        try bindAttributes(record, declaration, statements, to: insert, from: 4)
        if let failure = try runCatchingConstraint(insert) {
            // A key taken, or the row's values against another of the table's constraints (a unique index, say).
            let what =
                failure.isPrimaryKeyConflict
                ? "key \(key) is already taken in \(entity.table)"
                : "its row (key \(key)) breaks a constraint of \(entity.table)"
            throw TaskInterchangeError(
                .invalidData, "\(record.entity) \(record.id.uuidString): \(what) (\(failure.message))")
        }
        existingEntities[record.entity]?[record.id] = key
        if takenBack != nil {
            noteChanged(key, in: entity.table)
        } else {
            history?.noteInserted(key, entity: entity.number)
        }
        try writeDanglingKeys(of: record, entity, at: key)
        return key
    }

    /// A restore that keeps identity writes a dangling key's cells back as the source held them (the key of an object
    /// the source no longer has, which no new key can take: `Z_MAX` is the source's); any other import leaves them
    /// out, counted.
    private func writeDanglingKeys(of record: EntityRecord, _ entity: GenericLayout.Entity, at key: Int64) throws {
        for (property, dangling) in record.dangling.sorted(by: { $0.key < $1.key }) {
            guard configuration.keepIdentity,
                case .column(let column, let entityColumn, _)? = entity.relationships.first(where: {
                    $0.property == property
                })?.storage
            else {
                diagnostics.droppedDanglingKeys["\(record.entity).\(property)", default: 0] += 1
                continue
            }
            var sets = [Database.quote(column) + " = ?1"]
            var values: [SQLValue] = [.integer(dangling.key), .integer(key)]
            if let entityColumn {
                let number = dangling.entity.flatMap { name in
                    targetModel.flatMap { GenericLayout.storeEntity(named: name, in: $0, schema: schema) }
                        ?? schema.entity(named: name)
                }?.number
                sets.append(Database.quote(entityColumn) + " = ?3")
                values.append(number.map(SQLValue.integer) ?? .null)
            }
            try database.prepare(
                CoreDataNames.update(Database.quote(entity.table), set: sets.joined(separator: ", "), byKey: "?2")
            ).execute(values)
        }
    }

    /// Whether the archive carries the other side of the one-to-one `relationship` too: then each side's column is
    /// written from that side's records alone.
    func archiveCarriesInverse(of relationship: EntityRelationship) -> Bool {
        guard let inverse = relationship.inverse, let declarations = archive.declarations else { return false }
        return declarations.contains { name, declaration in
            declaration.relationships[inverse] != nil
                && EntityDeclaration.isEntity(name, kindOf: relationship.destination, limit: declarations.count) {
                    declarations[$0]?.superentity
                }
        }
    }

    public func update(_ record: EntityRecord, declaration: EntityDeclaration, at key: Int64) throws {
        guard var entity = genericLayout.entities[record.entity] else { return }
        // Only the attributes the archive declares are the archive's to set: one it does not know (an attribute a
        // later model version added, a column the archive's names do not reach) keeps the target's value.
        let undeclared = entity.attributes.filter { declaration.attributes[$0.property] == nil }
        if !undeclared.isEmpty {
            entity.attributes.removeAll { declaration.attributes[$0.property] == nil }
            entity.name += "|" + entity.attributes.map(\.property).joined(separator: ",")
        }
        let statements = try statements(for: entity)
        try bindAttributes(record, declaration, statements, to: statements.update, from: 1)
        statements.update.bind(key, at: Int32(entity.attributes.count + 1))
        try statements.update.run()
        noteChanged(key, in: entity.table)
    }

    /// The statements that write one generic relationship, prepared once: `clear` drops an existing object's links
    /// (replacing), `write` sets one link, `mirror` sets a one-to-one's key on the destination's row. `write` and
    /// `mirror` run from `linkWriting.entityRows`, under the numbers `writeSlot` and `mirrorSlot`.
    struct LinkStatements {
        let relationship: GenericLayout.Relationship
        let clear: Statement?
        let write: Statement
        let mirror: Statement?
        /// The clear keeps the rows of the destinations about to be written (its second parameter, a JSON array of
        /// keys): a join table whose other side is ordered too keeps that side's positions of links that stay.
        var clearKeepsListed = false
        var writeSlot: Int32 = 0
        var mirrorSlot: Int32 = 0
    }

    private func linkStatements(_ entity: GenericLayout.Entity, _ relationship: GenericLayout.Relationship) throws
        -> LinkStatements
    {
        let cacheKey = entity.name + "." + relationship.property
        if let cached = linkWriting.entityStatements[cacheKey] { return cached }
        let table = Database.quote(relationship.destinationTable)
        func assignments(_ columns: [String]) -> String {
            columns.enumerated().map { "\(Database.quote($0.element)) = ?\($0.offset + 1)" }.joined(separator: ", ")
        }
        let statements: LinkStatements
        switch relationship.storage {
        case .column(let column, let entityColumn, let mirror):
            let sets = [column, entityColumn].compactMap { $0 }
            let mirrorSets = mirror.map { [$0.key, $0.entity].compactMap { $0 } } ?? []
            statements = LinkStatements(
                relationship: relationship,
                clear: try mirror.map {
                    try database.prepare(
                        "UPDATE \(table) SET \(Database.quote($0.key)) = NULL WHERE \(Database.quote($0.key)) = ?")
                },
                write: try database.prepare(
                    CoreDataNames.update(
                        Database.quote(entity.table), set: assignments(sets), byKey: "?\(sets.count + 1)")),
                mirror: mirror == nil
                    ? nil
                    : try database.prepare(
                        CoreDataNames.update(table, set: assignments(mirrorSets), byKey: "?\(mirrorSets.count + 1)")))
        case .destinationColumn(let column, let entityColumn, let order):
            let sets = [column, entityColumn, order].compactMap { $0 }
            let clear = sets.map { "\(Database.quote($0)) = NULL" }.joined(separator: ", ")
            statements = LinkStatements(
                relationship: relationship,
                clear: try database.prepare("UPDATE \(table) SET \(clear) WHERE \(Database.quote(column)) = ?"),
                write: try database.prepare(
                    CoreDataNames.update(table, set: assignments(sets), byKey: "?\(sets.count + 1)")),
                mirror: nil)
        case .joinTable(let direction):
            let join = Database.quote(direction.table)
            let columns = [direction.ownerColumn, direction.memberColumn] + (direction.orderColumn.map { [$0] } ?? [])
            let names = columns.map(Database.quote).joined(separator: ", ")
            let values = columns.map { _ in "?" }.joined(separator: ", ")
            // When both sides are ordered each side's records write the same rows, each its own positions.
            let owner = Database.quote(direction.ownerColumn)
            var write = "INSERT OR REPLACE INTO \(join) (\(names)) VALUES (\(values))"
            var clear = "DELETE FROM \(join) WHERE \(owner) = ?1"
            let bothOrdered =
                direction.orderColumn != nil && StoreRelationships.otherOrderColumn(of: direction, in: schema) != nil
            if bothOrdered, let order = direction.orderColumn.map(Database.quote) {
                let keys = columns[0...1].map(Database.quote).joined(separator: ", ")
                write =
                    "INSERT INTO \(join) (\(names)) VALUES (\(values)) "
                    + "ON CONFLICT (\(keys)) DO UPDATE SET \(order) = excluded.\(order)"
                clear +=
                    " AND \(Database.quote(direction.memberColumn)) NOT IN (SELECT value FROM json_each(?2))"
            }
            statements = LinkStatements(
                relationship: relationship, clear: try database.prepare(clear), write: try database.prepare(write),
                mirror: nil, clearKeepsListed: bothOrdered)
        }
        var queued = statements
        if case .joinTable = relationship.storage {
            queued.writeSlot = linkWriting.entityRows.register(statements.write, .insert)
        } else {
            queued.writeSlot = linkWriting.entityRows.register(statements.write, .update)
        }
        if let mirror = statements.mirror { queued.mirrorSlot = linkWriting.entityRows.register(mirror, .update) }
        linkWriting.entityStatements[cacheKey] = queued
        return queued
    }

    public func link(
        entity name: String, _ key: Int64, relationship property: String, _ declaration: EntityRelationship,
        to destinations: [Int64], positions: [Int64]?, replacing: Bool
    ) throws {
        try link(
            entity: name, key, relationship: property, declaration, to: destinations, positions: positions,
            replacing: replacing, derived: false)
    }

    /// Writes one relationship value; `derived`: a link the other side of the pair was given (`linkThroughInverse`),
    /// queued ahead of the writes of this side's own records to the same row, so a position the archive gave this
    /// side wins over one numbered here.
    private func link(
        entity name: String, _ key: Int64, relationship property: String, _ declaration: EntityRelationship,
        to destinations: [Int64], positions: [Int64]?, replacing: Bool, derived: Bool
    ) throws {
        guard let entity = genericLayout.entities[name],
            let relationship = entity.relationships.first(where: { $0.property == property })
        else {
            if archive.modelChanged, try linkThroughInverse(entity: name, key, declaration, to: destinations) { return }
            diagnostics.lackingEntityValues["\(name).\(property)", default: 0] += 1
            return
        }
        let statements = try linkStatements(entity, relationship)
        let kept = positions.flatMap { StoredPositions.areUsable($0, count: destinations.count) ? $0 : nil }
        // Links added to those a record already has (not replacing them) are numbered after its own.
        var after: Int64 = 0
        if !replacing, kept == nil, archive.keptOverDuplicates.contains(KeptRow(entity: name, key: key)),
            case .destinationColumn(let column, _, let order?) = relationship.storage
        {
            // It reads the positions queued writes set.
            try writeEntityLinks()
            after =
                try database.rows(
                    "SELECT coalesce(max(\(Database.quote(order))), 0) FROM "
                        + "\(Database.quote(relationship.destinationTable)) WHERE \(Database.quote(column)) = ?",
                    [.integer(key)]
                ).first?.first?.int64 ?? 0
            if after > 0 { after -= StoredPositions.fresh(at: -1) }
        }
        func position(_ offset: Int) -> Int64 { kept?[offset] ?? after + StoredPositions.fresh(at: offset) }
        // Both sides carried: this side's column alone is this record's to write.
        var mirrors = false
        if case .column(_, _, .some) = relationship.storage {
            mirrors = !archiveCarriesInverse(of: relationship.declaration)
        }
        if replacing, let clear = statements.clear, mirrors || statements.mirror == nil {
            // It changes rows by their keys' values, which queued writes set.
            try writeEntityLinks()
            try clear.execute(
                [.integer(key)]
                    + (statements.clearKeepsListed
                        ? [.text("[" + destinations.map(String.init).joined(separator: ",") + "]")] : []))
        }
        switch relationship.storage {
        case .column(_, let entityColumn, let mirror):
            if destinations.count > 1 { diagnostics.toOneOverflows["\(name).\(property)", default: 0] += 1 }
            guard let destination = destinations.first else {
                // Cleared: NULL is not a value the queue holds, so the write runs now, after those queued.
                try writeEntityLinks()
                try statements.write.execute(
                    [.null] + (entityColumn != nil ? [.null] : []) + [.integer(key)])
                noteChanged(key, in: entity.table)
                break
            }
            var values = RowWriteQueue.Values()
            values.append(destination)
            if entityColumn != nil {
                values.append(try entityNumber(of: destination, in: relationship.destinationTable))
            }
            try linkWriting.entityRows.add(statements.writeSlot, row: key, values: values, derived: derived)
            noteChanged(key, in: entity.table)
            if mirrors, let mirror, statements.mirror != nil {
                var values = RowWriteQueue.Values()
                values.append(key)
                if mirror.entity != nil { values.append(entity.number) }
                try linkWriting.entityRows.add(
                    statements.mirrorSlot, row: destination, values: values, derived: derived)
                noteChanged(destination, in: relationship.destinationTable)
            }
        case .destinationColumn(_, let entityColumn, let order):
            for (offset, destination) in destinations.enumerated() {
                var values = RowWriteQueue.Values()
                values.append(key)
                if entityColumn != nil { values.append(entity.number) }
                if order != nil { values.append(position(offset)) }
                try linkWriting.entityRows.add(statements.writeSlot, row: destination, values: values, derived: derived)
                noteChanged(destination, in: relationship.destinationTable)
            }
        case .joinTable(let direction):
            for (offset, destination) in destinations.enumerated() {
                var values = RowWriteQueue.Values()
                if direction.orderColumn != nil { values.append(position(offset)) }
                try linkWriting.entityRows.add(
                    statements.writeSlot, row: key, member: destination, values: values, derived: derived)
            }
            noteChanged(key, in: entity.table)
        }
    }

    /// Runs the generic relationships' queued row writes, in row order (`RowWriteQueue`).
    func writeEntityLinks() throws(SQLiteError) {
        guard !linkWriting.entityRows.isEmpty else { return }
        try linkWriting.entityRows.drain()
    }

    /// Whether links the archive declares (as the target names them; nil: unknown) may be written from the other
    /// side of their pair: one of its relationships is not the target's (`linkThroughInverse`).
    func linksThroughInverse(_ declarations: [String: EntityDeclaration]?) -> Bool {
        guard let declarations else { return true }
        return declarations.contains { name, declaration in
            let held = Set(genericLayout.entities[name]?.relationships.map(\.property) ?? [])
            return declaration.relationships.keys.contains { !held.contains($0) }
        }
    }

    /// A pair whose other side is the one this store carries (a model change turned an ordered to-many into an
    /// unordered one, or a one-to-many into a many-to-many): each link is written from the destination's side, an
    /// ordered side numbered in the order the links come. False when neither side is carried.
    private func linkThroughInverse(
        entity name: String, _ key: Int64, _ declaration: EntityRelationship, to destinations: [Int64]
    ) throws -> Bool {
        guard let inverse = declaration.inverse,
            genericLayout.entities[declaration.destination]?.relationships.contains(where: { $0.property == inverse })
                == true
        else { return false }
        let reverse = EntityRelationship(destination: name, toMany: true, inverse: nil)
        for destination in destinations {
            let counted = "\(declaration.destination).\(inverse).\(destination)"
            let position = StoredPositions.fresh(at: linkWriting.nextInverseIndex(of: counted))
            try link(
                entity: declaration.destination, destination, relationship: inverse, reverse, to: [key],
                positions: [position], replacing: false, derived: true)
        }
        return true
    }

    public func lackingProperties() -> [String: Int] { diagnostics.takeLackingEntityValues() }

    /// Runs `statement`; a constraint failure comes back as its message, any other failure is thrown.
    private func runCatchingConstraint(_ statement: Statement) throws(SQLiteError) -> SQLiteError? {
        let outcome = Result { () throws(SQLiteError) in try statement.run() }
        guard case .failure(let error) = outcome else { return nil }
        if error.isConstraintFailure { return error }
        throw error
    }

    /// The entity number of the row of key `?` in `table`, prepared once per table.
    func entityNumberStatement(in table: String) throws -> Statement {
        try rowWriting.prepared(
            CoreDataNames.select(CoreDataNames.entityNumber, from: Database.quote(table)), in: database)
    }

    /// The concrete entity number of row `key` in `table`, for a key's companion entity column.
    private func entityNumber(of key: Int64, in table: String) throws -> Int64 {
        let select = try entityNumberStatement(in: table)
        defer { select.reset() }
        select.bind(key, at: 1)
        guard try select.step() else {
            throw TaskInterchangeError(.invalidData, "\(path): no row \(key) in \(table) to link to")
        }
        return select.int64(at: 0)
    }

    /// An object that existed before the import and whose row changes.
    private func noteChanged(_ key: Int64, in table: String) {
        history?.noteChanged(key, in: table)
    }
}

extension StoreWriter {
    /// The rows of the generic entity `entity` (its own, not its sub-entities', which are asked for themselves) with
    /// the values of `properties` as the store holds them, for the duplicates a uniqueness constraint would meet; a
    /// property without a column, or a NULL, is left out.
    func constrainedRows(of entity: String, properties: [String]) throws -> [VersionMapping.TargetRow] {
        guard let laidOut = genericLayout.entities[entity], !laidOut.isAbstract else { return [] }
        let columns = properties.compactMap { property in
            laidOut.attributes.first { $0.property == property }.map { (property, $0.column) }
        }
        let select = try database.prepare(
            "SELECT \(CoreDataNames.primaryKey)\(columns.map { ", " + Database.quote($0.1) }.joined()) FROM "
                + "\(Database.quote(laidOut.table)) WHERE \(CoreDataNames.entityNumber) = ?")
        select.bind(laidOut.number, at: 1)
        let identity = DerivedIdentity(
            storeUUID: schema.storeUUID ?? "", entity: archive.identityNames[entity] ?? entity)
        var rows: [VersionMapping.TargetRow] = []
        while try select.step() {
            let key = select.int64(at: 0)
            var values: [String: ExtraValue] = [:]
            for (index, (property, _)) in columns.enumerated() {
                switch select.value(at: Int32(index + 1)) {
                case .null: break
                case .integer(let number): values[property] = .stored(.integer(number))
                case .real(let number): values[property] = .stored(.real(number))
                case .text(let text): values[property] = .stored(.text(text))
                case .blob(let bytes): values[property] = .stored(.blob(bytes))
                }
            }
            rows.append(
                VersionMapping.TargetRow(
                    key: key, id: identity.id(of: key),
                    values: values))
        }
        return rows
    }
}
