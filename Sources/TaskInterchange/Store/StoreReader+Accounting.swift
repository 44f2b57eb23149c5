/// Cell accounting: after the records are written, the non-NULL values of every column that not every row's entity
/// reads are counted per table, entity and column, and set against what the export read. A value in a column the row's entity owns that nothing read is
/// a warning naming the column, the entity and the count (`--strict` fails); a value in a column the row's entity does
/// not own (a lightweight migration's default written into a whole shared table) is a note: Core Data never reads it.
extension StoreReader {
    /// The columns the export read: per table for rows of given entities, and per table for rows of any entity
    /// (keys a relationship keeps in its destination's rows).
    struct ReadColumns {
        var byEntity: [String: [Int64: Set<String>]] = [:]
        var anyRow: [String: Set<String>] = [:]

        /// Names compare as SQLite compares them (ASCII case ignored): a store may spell a column `ztext1`.
        func contains(_ column: String, table: String, entity: Int64) -> Bool {
            let upper = column.uppercased()
            return anyRow[table]?.contains { $0.uppercased() == upper } == true
                || byEntity[table]?[entity]?.contains { $0.uppercased() == upper } == true
        }
    }

    /// Counts every stored value and adds a finding for each column whose values did not all travel.
    func accountCells() throws -> CellAccount {
        let read = readColumns()
        let mappedNumbers = Set(resolved.kinds.values.flatMap(\.entity.numbersIncludingSubentities))
        var account = CellAccount()
        for table in Set(schema.entities.filter { !$0.isInternal }.compactMap(\.table)).sorted() {
            guard
                let columns = schema.columns(of: table)?.map(\.name).filter({
                    !["Z_PK", "Z_ENT", "Z_OPT"].contains($0)
                }),
                !columns.isEmpty
            else { continue }
            let numbers = schema.entities.filter { $0.table == table }.map(\.number)
            let unread = columns.filter { column in
                !numbers.allSatisfy { read.contains(column, table: table, entity: $0) }
            }
            guard !unread.isEmpty else { continue }
            let counts = unread.map { "count(\(Database.quote($0)))" }.joined(separator: ", ")
            let statement = try database.prepare("SELECT Z_ENT, \(counts) FROM \(Database.quote(table)) GROUP BY Z_ENT")
            while try statement.step() {
                guard !statement.isNull(at: 0), let entity = schema.entity(number: statement.int64(at: 0)),
                    entity.table == table
                else { continue }  // rows of no entity: `stray-rows`
                let owned = schema.layout?.ownedColumns[table]?[entity.number]
                for (offset, column) in unread.enumerated() {
                    let values = Int(statement.int64(at: Int32(offset + 1)))
                    guard values > 0 else { continue }
                    // A migration's default in a sibling's column is not data; a column no entity owns may be.
                    if let owned, !owned.contains(where: { $0.uppercased() == column.uppercased() }),
                        ownedByAnother(column, in: table),
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
        where Self.isJoinTable(table)
            && columns.contains(where: { column in
                read.anyRow[table]?.contains { $0.uppercased() == column.name.uppercased() } != true
            })
        {
            let counts = columns.map { "count(\(Database.quote($0.name)))" }.joined(separator: ", ")
            guard let row = try database.rows("SELECT \(counts) FROM \(Database.quote(table))").first else { continue }
            let reported = log.findings.contains { $0.entity == table }
            for (offset, column) in columns.enumerated() {
                let values = Int(row[offset].int64 ?? 0)
                guard values > 0 else { continue }
                account.checked += values
                guard read.anyRow[table]?.contains(where: { $0.uppercased() == column.name.uppercased() }) != true
                else { continue }
                account.notExported += values
                if !reported {
                    log.add(
                        .unexportedValues, entity: table, property: column.name,
                        message: "join-table values that no exported relationship read; not exported", count: values)
                }
            }
        }
        return account
    }

    /// Whether some entity of `table` owns `column` (compared as SQLite compares names, ignoring ASCII case).
    private func ownedByAnother(_ column: String, in table: String) -> Bool {
        let upper = column.uppercased()
        return schema.layout?.ownedColumns[table]?.values.contains { $0.contains { $0.uppercased() == upper } } == true
    }

    private static func isJoinTable(_ table: String) -> Bool {
        table.hasPrefix("Z_") && !["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(table)
    }

    /// What the mapped kinds and the generic section read.
    private func readColumns() -> ReadColumns {
        var read = ReadColumns()
        for (kind, mapped) in resolved.kinds {
            let columns = mapped.usedColumns.union(extraColumns(kind).map(\.column))
            for number in mapped.entity.numbersIncludingSubentities {
                read.byEntity[mapped.table, default: [:]][number, default: []].formUnion(columns)
            }
        }
        for (table, columns) in relationships.coveredColumns { read.anyRow[table, default: []].formUnion(columns) }
        for carried in relationships.carried.values.joined() {
            if case .joinTable(let direction) = carried.storage { read.addJoin(direction) }
        }
        if let join = resolved.tagJoin {
            read.anyRow[join.table, default: []].formUnion([join.taskColumn, join.tagColumn])
        }
        for entity in generic.entities.values {
            var own = Set(entity.attributes.map(\.column))
            for relationship in entity.relationships {
                switch relationship.storage {
                case .column(let key, let entityColumn, let mirror):
                    own.formUnion([key, entityColumn].compactMap { $0 })
                    if let mirror {
                        read.anyRow[relationship.destinationTable, default: []].formUnion(
                            [mirror.key, mirror.entity].compactMap { $0 })
                    }
                case .destinationColumn(let key, let entityColumn, let order):
                    read.anyRow[relationship.destinationTable, default: []].formUnion(
                        [key, entityColumn, order].compactMap { $0 })
                case .joinTable(let direction):
                    read.addJoin(direction)
                }
            }
            read.byEntity[entity.table, default: [:]][entity.number, default: []].formUnion(own)
        }
        return read
    }
}

extension StoreReader.ReadColumns {
    mutating func addJoin(_ direction: StoreSchema.JoinDirection) {
        anyRow[direction.table, default: []].formUnion(
            [direction.ownerColumn, direction.memberColumn, direction.orderColumn].compactMap { $0 })
    }
}
