import Foundation

/// The generic `entities` section: every entity no kind reads, record by record, after the tasks.
extension StoreReader {
    /// Rows of a to-many relationship sorted by owner key, read alongside the owners (also sorted by key).
    final class LinkCursor {
        let relationship: GenericLayout.Relationship
        private let statement: Statement
        private var current: (owner: Int64, member: Int64?, position: Int64?)?
        /// How many link rows went to an owner that asked for its links.
        private(set) var handedOut = 0

        /// `owners` selects the owning entity's keys; the link rows come in the order of their owner keys as read.
        init(_ relationship: GenericLayout.Relationship, owners: String, reader: StoreReader) throws {
            self.relationship = relationship
            let sql: String
            switch relationship.storage {
            case .destinationColumn(let key, _, let order):
                let table = relationship.destinationTable
                let position = order.map(Database.quote) ?? "NULL"
                sql =
                    "SELECT \(Database.quote(key)), \(CoreDataNames.primaryKey), \(position) "
                    + "FROM \(Database.quote(table)) "
                    + "WHERE \(Database.quote(key)) IN (\(owners)) "
                    + "ORDER BY \(try reader.keyOrder(table, key)), 3, \(try reader.keyOrder(table))"
            case .joinTable(let direction):
                let position = direction.orderColumn.map(Database.quote) ?? "NULL"
                let owner = Database.quote(direction.ownerColumn)
                sql =
                    "SELECT \(owner), \(Database.quote(direction.memberColumn)), \(position) "
                    + "FROM \(Database.quote(direction.table)) "
                    + "WHERE \(owner) IN (\(owners)) "
                    + "ORDER BY \(try reader.keyOrder(direction.table, direction.ownerColumn)), 3, "
                    + "\(try reader.keyOrder(direction.table, direction.memberColumn))"
            case .column:
                preconditionFailure("to-one relationships are read with their row")
            }
            statement = try reader.database.prepare(sql)
            try advance()
        }

        /// The next link row whose owner is exactly a key (one that is not belongs to no owner row).
        private func advance() throws {
            while try statement.step() {
                guard let owner = statement.exactInteger(at: 0) else { continue }
                current = (owner, statement.exactInteger(at: 1), statement.isNull(at: 2) ? nil : statement.int64(at: 2))
                return
            }
            current = nil
        }

        /// The (member key, position) pairs of `owner`, in order; owners are asked for in ascending key order. A
        /// member key that is not exactly an integer is nil.
        func links(of owner: Int64) throws -> [(key: Int64?, position: Int64?)] {
            var result: [(Int64?, Int64?)] = []
            while let row = current, row.owner <= owner {
                if row.owner == owner { result.append((row.member, row.position)) }
                try advance()
            }
            handedOut += result.count
            return result
        }
    }

    /// Writes every generic entity's records to `visitor`, entity by entity (names sorted), each in key order.
    func emitEntities(into visitor: inout some ArchiveVisitor) throws {
        guard !generic.entities.isEmpty else { return }
        try loadEntityNumbers()
        for name in generic.names {
            let entity = generic.entities[name]!
            let toOne = entity.relationships.filter {
                if case .column = $0.storage { return true } else { return false }
            }
            let owners = CoreDataNames.selectKeys(from: Database.quote(entity.table), ofEntity: "\(entity.number)")
            let cursors = try entity.relationships.filter {
                if case .column = $0.storage { return false } else { return true }
            }
            .map { try LinkCursor($0, owners: owners, reader: self) }
            let columns = entity.attributes.map {
                StoreExtras.Column(column: $0.column, property: $0.property, kind: $0.value)
            }
            // Each to-one's key column, then its entity-number column (NULL when the store keeps none).
            let keyColumns: [String] = toOne.flatMap { relationship -> [String] in
                guard case .column(let key, let entityColumn, _) = relationship.storage else {
                    return ["NULL", "NULL"]
                }
                return [Database.quote(key), entityColumn.map(Database.quote) ?? "NULL"]
            }
            try reportOneToOneMismatches(of: entity)
            let select =
                ([CoreDataNames.primaryKey] + columns.map(\.column)).map(Database.quote).joined(separator: ", ")
                + keyColumns.map { ", " + $0 }.joined()
            let kept = selection?.condition(.entity(name)) ?? ""
            let statement = try database.prepare(
                "SELECT \(select) FROM \(Database.quote(entity.table)) "
                    + "WHERE \(CoreDataNames.entityNumber) = \(entity.number)\(kept) "
                    + "ORDER BY \(try keyOrder(entity.table))"
            )
            let identity = DerivedIdentity(storeUUID: genericIdentity ?? storeUUID, entity: identityNames[name] ?? name)
            // Each relationship's destination rows' entity numbers, looked up once per entity, not per link.
            let toOneNumbers = toOne.map { entityNumbers[$0.destinationTable] ?? [:] }
            let cursorNumbers = cursors.map { entityNumbers[$0.relationship.destinationTable] ?? [:] }
            var index = 0
            var previous: Int64?
            while try statement.step() {
                let key = try StoreIdentity.key(statement, at: 0, table: "\(snapshot.path): \(entity.table)")
                // Rows come in key order: a key not above the one before is a key two rows share.
                if let previous, key <= previous { throw repeatedKey(key, table: entity.table) }
                if previous == nil { try checkArchivable(key, table: entity.table) }
                previous = key
                var values =
                    extraValues(statement, from: 1, columns, entity: name, key: key, room: entity.relationships.count)
                    ?? [:]
                let external = externalFiles
                // A few large files can take longer than 1,024 small records.
                if !external.isEmpty { try Cancellation.checkpoint() }
                var positions: [String: [Int64]] = [:]
                var dangling: [String: EntityRecord.DanglingKey] = [:]
                for (offset, relationship) in toOne.enumerated() {
                    let numbers = toOneNumbers[offset]
                    let column = Int32(1 + columns.count + 2 * offset)
                    guard !statement.isNull(at: column) else { continue }
                    guard let destination = statement.exactInteger(at: column) else {
                        log.add(
                            .unexportedValues, entity: name, property: relationship.property,
                            message: "key is not an integer key; not exported", example: "p\(key)")
                        continue
                    }
                    if numbers[destination] == nil {
                        dangling[relationship.property] = danglingKey(
                            destination, entityColumn: statement, at: column + 1, of: relationship, from: name,
                            owner: key)
                    } else if let id = entityID(
                        numbers: numbers, key: destination, from: name, relationship.property, owner: key)
                    {
                        values[relationship.property] = .string(CanonicalUUID.string(id))
                    }
                }
                for (cursor, numbers) in zip(cursors, cursorNumbers) {
                    let links = try cursor.links(of: key)
                    guard !links.isEmpty else { continue }
                    let property = cursor.relationship.property
                    var ids: [String] = []
                    var kept: [Int64] = []
                    for link in links {
                        guard let member = link.key else {
                            log.add(
                                .danglingReference, entity: name, property: property,
                                message: "link's key is not an integer key; link not exported", example: "p\(key)")
                            continue
                        }
                        guard
                            let id = entityID(numbers: numbers, key: member, from: name, property, owner: key)
                        else { continue }
                        ids.append(CanonicalUUID.string(id))
                        if let position = link.position { kept.append(position) }
                    }
                    if !cursor.relationship.declaration.ordered { ids.sort() }
                    values[property] = .array(ids)
                    if cursor.relationship.declaration.ordered && kept.count == ids.count { positions[property] = kept }
                }
                try visitor.visitEntity(
                    EntityRecord(
                        id: identity.id(of: key),
                        entity: name,
                        key: key, values: values, positions: positions, external: external, dangling: dangling),
                    index: index)
                index += 1
                if index % 1_024 == 0 { try Cancellation.checkpoint() }
            }
            for cursor in cursors {
                if case .joinTable(let direction) = cursor.relationship.storage {
                    joinRowsHandedOut[[direction.table, direction.ownerColumn], default: 0] += cursor.handedOut
                }
            }
            genericCounts[name] = index
        }
    }

    /// A to-one key naming no row: carried as the store holds it, with the entity its entity-number column names.
    private func danglingKey(
        _ destination: Int64, entityColumn statement: Statement, at column: Int32,
        of relationship: GenericLayout.Relationship, from entity: String, owner: Int64
    ) -> EntityRecord.DanglingKey {
        var named: String?
        if !statement.isNull(at: column) {
            let number = statement.int64(at: column)
            if let found = schema.entity(number: number) {
                named = generic.name(of: found)
            } else {
                log.add(
                    .unexportedValues, entity: entity, property: relationship.property,
                    message: "the entity number beside a key that points at no row names no entity (\(number)); "
                        + "not exported",
                    example: "p\(owner)→p\(destination)")
            }
        }
        log.add(
            .danglingReference, entity: entity, property: relationship.property,
            message: "key points at no row; carried as a dangling key (only a restore that keeps identity writes it)",
            example: "p\(owner)→p\(destination)")
        return EntityRecord.DanglingKey(key: destination, entity: named)
    }

    /// Names the rows of `entity` whose one-to-one key points at a row whose inverse key column does not point back
    /// (it holds nothing, or another key): each side travels as its column holds it, and the store says which.
    private func reportOneToOneMismatches(of entity: GenericLayout.Entity) throws {
        for relationship in entity.relationships {
            guard case .column(let key, _, let mirror?) = relationship.storage,
                let inverse = relationship.declaration.inverse
            else { continue }
            let (owner, other) = (Database.quote(key), Database.quote(mirror.key))
            let primaryKey = CoreDataNames.primaryKey
            let row = try database.rows(
                "SELECT count(*) - count(d.\(other)), count(CASE WHEN d.\(other) <> o.\(primaryKey) THEN 1 END) "
                    + "FROM \(Database.quote(entity.table)) o JOIN \(Database.quote(relationship.destinationTable)) d "
                    + "ON d.\(primaryKey) = o.\(owner) WHERE o.\(CoreDataNames.entityNumber) = \(entity.number)"
            ).first
            let side = "\(relationship.declaration.destination).\(inverse)"
            for (offset, what) in ["holds no key", "holds another key"].enumerated() {
                let count = Int(row?[offset].int64 ?? 0)
                guard count > 0 else { continue }
                log.add(
                    .oneToOneMismatch, entity: entity.name, property: relationship.property,
                    message: "one-to-one keys whose destination's inverse (\(side)) \(what); both sides carried as "
                        + "stored",
                    count: count)
            }
        }
    }

    /// The largest key each root entity's rows were ever given: its `Z_MAX`, or the largest key in its table when
    /// that is higher (`Z_MAX` of -1, or left behind by another tool), by root entity name; roots that never had a
    /// row are left out. What a new store made from the archive must never hand out again, whatever the model change.
    func handedOutKeys() throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for root in schema.entities where root.superNumber == 0 && !root.isInternal {
            var largest = root.maxKey
            if let table = root.table, schema.columns(of: table) != nil {
                largest = max(
                    largest, try database.scalar(CoreDataNames.largestKey(in: table))?.int64 ?? 0)
            }
            if largest > 0 { result[root.name] = largest }
        }
        return result
    }

    /// `Z_PK → Z_ENT` of every table a generic relationship points into, so a link's destination gets the id of its
    /// concrete entity (or of the typed record it is).
    private func loadEntityNumbers() throws {
        let tables = Set(generic.entities.values.flatMap { $0.relationships.map(\.destinationTable) })
        for table in tables.sorted() {
            var numbers: [Int64: Int64] = [:]
            let statement = try database.prepare(
                "SELECT \(CoreDataNames.keyAndEntityList) FROM \(Database.quote(table))")
            while try statement.step() {
                let key = try StoreIdentity.key(statement, at: 0, table: "\(snapshot.path): \(table)")
                // Sibling entities share the table: a key two of their rows hold would send links to either.
                if numbers.updateValue(statement.int64(at: 1), forKey: key) != nil {
                    throw repeatedKey(key, table: table)
                }
            }
            entityNumbers[table] = numbers
        }
    }

    /// Where a link to a row of one entity number goes, worked out once per number: every link to such a row goes
    /// the same way.
    enum LinkDestination {
        /// A row of a kind's entity (or a sub-entity): the kind's index names its id.
        case typed(StoreMapping.Kind)
        /// A generic row, its id derived from its key; `excluded` when the export leaves its entity out.
        case generic(name: String, identity: DerivedIdentity, excluded: Bool)
        /// An entity number the store does not declare.
        case unknown
    }

    private func linkDestination(_ number: Int64) -> LinkDestination {
        if let known = linkDestinations[number] { return known }
        let destination: LinkDestination
        if let entity = schema.entity(number: number) {
            if let kind = resolved.kinds.values.first(where: { $0.entity.numbersIncludingSubentities.contains(number) })
            {
                destination = .typed(kind.kind)
            } else {
                let name = generic.name(of: entity)
                destination = .generic(
                    name: name,
                    identity: DerivedIdentity(
                        storeUUID: genericIdentity ?? storeUUID, entity: identityNames[name] ?? name),
                    excluded: selection?.isExcluded(number: number) == true)
            }
        } else {
            destination = .unknown
        }
        linkDestinations[number] = destination
        return destination
    }

    /// The id of the row `key` of a table whose rows' entity numbers are `numbers`: a typed record's id when its
    /// entity is a kind's, else the generic id derived from its concrete entity; nil (reported) when no such row
    /// exists or the typed kind did not export it.
    private func entityID(
        numbers: [Int64: Int64], key: Int64, from entity: String, _ property: String, owner: Int64
    ) -> UUID? {
        let destination = numbers[key].map(linkDestination) ?? .unknown
        switch destination {
        case .unknown:
            log.add(
                .danglingReference, entity: entity, property: property,
                message: "key points at no row; link not exported", example: "p\(owner)→p\(key)")
            return nil
        case .typed(let kind):
            if let id = indexes[kind]?.id(of: key) { return id }
            if selection?.isExcluded(number: numbers[key]!) == true {
                log.add(
                    .excludedReference, entity: entity, property: property,
                    message: "points at an excluded entity; link not exported", example: "p\(owner)→p\(key)")
            } else {
                log.add(
                    .danglingReference, entity: entity, property: property,
                    message: "key points at no exported \(kind.rawValue); link not exported",
                    example: "p\(owner)→p\(key)")
            }
            return nil
        case .generic(let name, let identity, let excluded):
            if let selection, !selection.isKept(entity: name, key) {
                log.add(
                    excluded ? .excludedReference : .danglingReference, entity: entity, property: property,
                    message: excluded
                        ? "points at an excluded entity; link not exported"
                        : "key points at a row left out of the export; link not exported",
                    example: "p\(owner)→p\(key)")
                return nil
            }
            return identity.id(of: key)
        }
    }
}
