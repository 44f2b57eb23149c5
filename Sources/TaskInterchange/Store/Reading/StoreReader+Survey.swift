/// Before reading records: everything in the store that the mapping will not carry, counted.
extension StoreReader {
    func survey() throws {
        let mapped = resolved.kinds.values
        let mappedNumbers = Set(mapped.flatMap(\.entity.numbersIncludingSubentities))
        for entity in schema.entities where !mappedNumbers.contains(entity.number) && !entity.isInternal {
            if generic.entities[generic.name(of: entity)] != nil { continue }
            guard let table = entity.table else {
                let isView = schema.views.contains(entity.expectedTable)
                log.add(
                    .missingTable, entity: entity.name,
                    message: isView
                        ? """
                        \(entity.expectedTable) is a view, not a table; tasks \
                        never reads views, so this entity's rows were not exported
                        """
                        : "the store has no table \(entity.expectedTable) for this entity")
                continue
            }
            let rows =
                try database.scalar(
                    "SELECT count(*) FROM \(Database.quote(table)) WHERE \(CoreDataNames.entityNumber) = ?",
                    [.integer(entity.number)])?.int64
                ?? 0
            if rows > 0 {
                log.add(
                    .unmappedEntity, entity: entity.name,
                    message: "no interchange kind reads this entity; its rows were not exported", count: Int(rows))
            }
        }
        for table in Set(schema.entities.filter { !$0.isInternal }.compactMap(\.table)).sorted() {
            let numbers = schema.entities.filter { $0.table == table }.map(\.number)
            let entityNumber = CoreDataNames.entityNumber
            let stray =
                try database.scalar(
                    """
                    SELECT count(*) FROM \(Database.quote(table)) \
                    WHERE \(entityNumber) IS NULL OR \(entityNumber) NOT IN \
                    (\(numbers.map(String.init).joined(separator: ", ")))
                    """
                )?.int64 ?? 0
            if stray > 0 {
                log.add(
                    .strayRows, entity: table,
                    message: "rows with a NULL or unknown \(CoreDataNames.entityNumber) are invisible to the app; "
                        + "not exported",
                    count: Int(stray))
            }
        }
        for kind in mapped.sorted(by: { $0.kind < $1.kind }) {
            let carried = Set(extraColumns(kind.kind).map(\.column)).union(
                relationships.coveredColumns[kind.table] ?? [])
            for column in schema.columns(of: kind.table) ?? []
            where !CoreDataNames.rowColumns.contains(column.name)
                && !kind.usedColumns.contains(column.name) && !carried.contains(column.name)
            {
                let values =
                    try database.scalar(
                        """
                        SELECT count(\(Database.quote(column.name))) FROM \(Database.quote(kind.table)) \
                        WHERE \(kind.entityFilter)
                        """
                    )?.int64 ?? 0
                if values > 0 {
                    log.add(
                        .unmappedColumn, entity: kind.entity.name, property: column.name,
                        message: "the interchange has no field for this column; its values were not exported",
                        count: Int(values))
                }
            }
        }
        for (table, column) in relationships.uncarriedOrders {
            let rows =
                try database.scalar("SELECT count(\(Database.quote(column))) FROM \(Database.quote(table))")?.int64 ?? 0
            if rows > 0 {
                log.add(
                    .unmappedColumn, entity: table, property: column,
                    message:
                        """
                        both sides of this many-to-many are ordered and only one \
                        side's order travels; these positions were not exported
                        """,
                    count: Int(rows))
            }
        }
        for (table, columns) in schema.tables.sorted(by: { $0.key < $1.key })
        where schema.kind(of: table) == .join && table != resolved.tagJoin?.table
            && !relationships.coveredTables.contains(table) && !generic.joinTables.contains(table)
        {
            let numbers = columns.compactMap { CoreDataNames.splitJoinColumn($0.name)?.0 }
            guard numbers.contains(where: mappedNumbers.contains) else { continue }
            let rows = try database.scalar("SELECT count(*) FROM \(Database.quote(table))")?.int64 ?? 0
            if rows > 0 {
                log.add(
                    .unmappedRelationship, entity: table,
                    message: "many-to-many links the interchange has no field for; not exported", count: Int(rows))
            }
        }
    }
}
