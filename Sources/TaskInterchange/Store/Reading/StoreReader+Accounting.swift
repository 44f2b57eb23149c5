/// Cell accounting: after the records are written, the non-NULL values of every column that not every row's entity
/// reads are counted per table, entity and column, and set against what the export read. A value nothing read is a
/// warning naming the column, the entity and the count (`--strict` fails); a value in a column a sibling entity owns
/// (a lightweight migration's default written into a whole shared table) is a note: Core Data never reads it.
/// Column names are compared upper-cased, as SQLite compares them: a store may spell a column `ztext1`.
extension StoreReader {
    /// The columns the export read, upper-cased: per table for rows of given entities, and per table for rows of
    /// any entity (keys a relationship keeps in its destination's rows).
    struct ReadColumns {
        private var byEntity: [String: [Int64: Set<String>]] = [:]
        private var anyRow: [String: Set<String>] = [:]

        mutating func insert(_ columns: [String?], table: String, entity: Int64) {
            byEntity[table, default: [:]][entity, default: []].formUnion(columns.compactMap { $0?.uppercased() })
        }

        mutating func insert(_ columns: [String?], table: String) {
            anyRow[table, default: []].formUnion(columns.compactMap { $0?.uppercased() })
        }

        mutating func insert(_ direction: StoreLocator.JoinDirection) {
            insert([direction.ownerColumn, direction.memberColumn, direction.orderColumn], table: direction.table)
        }

        func contains(_ column: String, table: String, entity: Int64) -> Bool {
            let upper = column.uppercased()
            return anyRow[table]?.contains(upper) == true || byEntity[table]?[entity]?.contains(upper) == true
        }

        func containsForAnyRow(_ column: String, table: String) -> Bool {
            anyRow[table]?.contains(column.uppercased()) == true
        }
    }

    /// Counts every stored value and adds a finding for each column whose values did not all travel.
    func accountCells() throws -> CellAccount {
        let read = readColumns()
        let mappedNumbers = Set(resolved.kinds.values.flatMap(\.entity.numbersIncludingSubentities))
        let owners = (schema.layout?.ownedColumns ?? [:]).mapValues { byEntity in
            byEntity.mapValues { Set($0.map { $0.uppercased() }) }
        }
        var account = CellAccount()
        for table in Set(schema.entities.filter { !$0.isInternal }.compactMap(\.table)).sorted() {
            guard
                let columns = schema.columns(of: table)?.map(\.name).filter({
                    !CoreDataNames.rowColumns.contains($0)
                }),
                !columns.isEmpty
            else { continue }
            let numbers = schema.entities.filter { $0.table == table }.map(\.number)
            let unread = columns.filter { column in
                !numbers.allSatisfy { read.contains(column, table: table, entity: $0) }
            }
            guard !unread.isEmpty else { continue }
            let counts = unread.map { "count(\(Database.quote($0)))" }.joined(separator: ", ")
            let statement = try database.prepare(
                "SELECT \(CoreDataNames.entityNumber), \(counts) FROM \(Database.quote(table)) "
                    + "GROUP BY \(CoreDataNames.entityNumber)")
            while try statement.step() {
                guard !statement.isNull(at: 0), let entity = schema.entity(number: statement.int64(at: 0)),
                    entity.table == table
                else { continue }  // rows of no entity: `stray-rows`
                let owned = owners[table]?[entity.number]
                let ownedByAny = owners[table]?.values.reduce(into: Set<String>()) { $0.formUnion($1) } ?? []
                for (offset, column) in unread.enumerated() {
                    let values = Int(statement.int64(at: Int32(offset + 1)))
                    guard values > 0 else { continue }
                    // A migration's default in a sibling's column is not data; a column no entity owns may be.
                    if let owned, !owned.contains(column.uppercased()), ownedByAny.contains(column.uppercased()),
                        !read.contains(column, table: table, entity: entity.number)
                    {
                        account.outsideEntity += values
                        log.add(
                            .valuesOutsideEntity, entity: table, property: column,
                            message: "values in \(entity.name) rows, whose entity has no property stored here "
                                + "(left by a model migration; Core Data never reads them); not exported",
                            count: values)
                        continue
                    }
                    account.checked += values
                    guard !read.contains(column, table: table, entity: entity.number) else { continue }
                    account.notExported += values
                    if !mappedNumbers.contains(entity.number) {
                        // Rows of mapped kinds are surveyed before reading (`unmapped-column`).
                        log.add(
                            .unexportedValues, entity: table, property: column,
                            message: "values in \(entity.name) rows that no exported property read; not exported",
                            count: values)
                    }
                }
            }
        }
        for (table, columns) in schema.tables.sorted(by: { $0.key < $1.key })
        where schema.kind(of: table) == .join
            && columns.contains(where: { !read.containsForAnyRow($0.name, table: table) })
        {
            let counts = columns.map { "count(\(Database.quote($0.name)))" }.joined(separator: ", ")
            guard let row = try database.rows("SELECT \(counts) FROM \(Database.quote(table))").first else { continue }
            let reported = log.findings.contains { $0.entity == table }
            for (offset, column) in columns.enumerated() {
                let values = Int(row[offset].int64 ?? 0)
                guard values > 0 else { continue }
                account.checked += values
                guard !read.containsForAnyRow(column.name, table: table) else { continue }
                account.notExported += values
                if !reported {
                    log.add(
                        .unexportedValues, entity: table, property: column.name,
                        message: "join-table values that no exported relationship read; not exported", count: values)
                }
            }
        }
        try accountKeysOfNoOwner(into: &account)
        try accountCoreDataOwnTables(into: &account)
        return account
    }

    /// Persistent history (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`) and CloudKit mirroring (`ANSCK…`) describe
    /// the source store's past and sync state in its own entity numbers and keys, which an import does not keep; the
    /// target records its own. Each table with rows is named with its row count, and every value in it (each column,
    /// keys included) is counted, so a summary never calls such a store's export whole without saying so.
    private func accountCoreDataOwnTables(into account: inout CellAccount) throws {
        for table in schema.tables(of: .internalEntity) {
            let columns = (schema.columns(of: table) ?? []).map { "count(\(Database.quote($0.name)))" }
            let select = "SELECT count(*)" + columns.map { ", " + $0 }.joined() + " FROM \(Database.quote(table))"
            guard let row = try database.rows(select).first, let rows = row[0].int64, rows > 0 else { continue }
            let values = row.dropFirst().reduce(0) { $0 + Int($1.int64 ?? 0) }
            account.coreDataOwn += values
            let mirroring = table.hasPrefix(CoreDataNames.cloudKitMirroringPrefix)
            log.add(
                mirroring ? .cloudKitMirroring : .historyTracking, entity: table,
                message:
                    "\(rows) row\(rows == 1 ? "" : "s") of Core Data's \(mirroring ? "CloudKit mirroring state" : "persistent history") "
                    + "(\(values) values); not exported: an import records its own",
                count: values)
        }
    }

    /// A to-many carried from its owner's side reads the keys its destination rows (or its join table's rows) hold
    /// for the owners it exports; a key that names no row of an entity carrying the relationship (a deleted owner's,
    /// or one that is not an integer key) is in no record. Such cells are counted as not exported and named, so the
    /// column is never taken as carried whole.
    private func accountKeysOfNoOwner(into account: inout CellAccount) throws {
        // [table, key column] → the relationship's owners.
        var owners: [[String]: (entity: String, property: String, table: String, numbers: [Int64])] = [:]
        var joinColumns: Set<[String]> = []
        for name in generic.names {
            let entity = generic.entities[name]!
            for relationship in entity.relationships {
                let column: [String]
                switch relationship.storage {
                case .destinationColumn(let key, _, _): column = [relationship.destinationTable, key]
                case .joinTable(let direction):
                    column = [direction.table, direction.ownerColumn]
                    joinColumns.insert(column)
                case .column: continue
                }
                owners[column, default: (name, relationship.property, entity.table, [])].numbers.append(entity.number)
            }
        }
        for (column, owner) in owners.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let (table, key) = (column[0], column[1])
            // A join table's rows are all read in owner order (`LinkCursor`): those no owner took are the rest.
            let count =
                joinColumns.contains(column)
                ? max(
                    0,
                    Int(
                        try database.scalar("SELECT count(\(Database.quote(key))) FROM \(Database.quote(table))")?.int64
                            ?? 0)
                        - (joinRowsHandedOut[column] ?? 0))
                : Int(
                    try database.scalar(
                        "SELECT count(*) FROM \(Database.quote(table)) d WHERE d.\(Database.quote(key)) IS NOT NULL "
                            + "AND NOT EXISTS (SELECT 1 FROM \(Database.quote(owner.table)) o "
                            + "WHERE o.\(CoreDataNames.primaryKey) = d.\(Database.quote(key)) "
                            + "AND o.\(CoreDataNames.entityFilter(owner.numbers)))")?.int64 ?? 0)
            guard count > 0 else { continue }
            account.checked += count
            account.notExported += count
            log.add(
                .danglingReference, entity: owner.entity, property: owner.property,
                message: "keys in \(table).\(key) that point at no \(owner.entity) row; not exported", count: count)
        }
    }

    /// What the mapped kinds and the generic section read.
    private func readColumns() -> ReadColumns {
        var read = ReadColumns()
        for (kind, mapped) in resolved.kinds {
            let columns = Array(mapped.usedColumns) + extraColumns(kind).map(\.column)
            for number in mapped.entity.numbersIncludingSubentities {
                read.insert(columns, table: mapped.table, entity: number)
            }
        }
        for (table, columns) in relationships.coveredColumns { read.insert(Array(columns), table: table) }
        for carried in relationships.carried.values.joined() {
            if case .joinTable(let direction) = carried.storage { read.insert(direction) }
        }
        if let join = resolved.tagJoin { read.insert([join.taskColumn, join.tagColumn], table: join.table) }
        for entity in generic.entities.values {
            read.insert(entity.attributes.map(\.column), table: entity.table, entity: entity.number)
            for relationship in entity.relationships {
                switch relationship.storage {
                case .column(let key, let entityColumn, _):
                    // A one-to-one's other column is read by the other side's own relationship, never counted here.
                    read.insert([key, entityColumn], table: entity.table, entity: entity.number)
                case .destinationColumn(let key, let entityColumn, let order):
                    read.insert([key, entityColumn, order], table: relationship.destinationTable)
                case .joinTable(let direction):
                    read.insert(direction)
                }
            }
        }
        return read
    }
}
