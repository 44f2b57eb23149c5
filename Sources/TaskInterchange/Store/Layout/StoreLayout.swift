/// The one layout of a store: where every stored property of every entity keeps its values, computed the way Core
/// Data computes it from the store's model (`SchemaLayout`, with the store's own entity numbers) and checked against
/// the store's DDL. The reader, the writer, detection and inspection find columns here; none guesses `Z` + NAME when
/// the store has a model (in a table shared by an inheritance tree `ZTEXT` may belong to a sibling entity and the
/// property read to `ZTEXT1`).
struct StoreLayout: Sendable, Hashable {
    typealias Key = SchemaLayout.PropertyKey
    typealias Placement = SchemaLayout.Placement

    /// Where each stored property lives, keyed by the declaring entity; only placements the store's DDL confirms.
    private(set) var placements: [Key: Placement] = [:]
    /// Where the computed layout and the store disagree, one sentence each. A join table found under another name
    /// (the one case public facts do not settle) is here too, with the name the store uses.
    private(set) var differences: [String] = []
    /// Per table, per entity number: the columns that entity's rows own (attribute, key, entity-number and position
    /// columns of the entity and its ancestors, and hidden keys other entities keep in its rows).
    private(set) var ownedColumns: [String: [Int64: Set<String>]] = [:]
    /// A property whose computed column the store does not have.
    struct MissingColumn: Sendable, Hashable {
        var entity: String
        var property: String
        /// `TABLE.COLUMN`.
        var column: String
    }

    /// Properties whose computed column the store does not have: read as absent, and reported.
    private(set) var missingColumns: [MissingColumn] = []
    /// The computed DDL's indexed column tuples per table (for the layout check; names vary with framework age).
    private(set) var indexedColumns: [String: Set<[String]>] = [:]

    /// Lays out `model` with the entity numbers of `schema` and keeps what the store's DDL has.
    init(model: ObjectModel, schema: StoreSchema) {
        let stored = Dictionary(
            schema.entities.filter { !$0.isInternal }.map { ($0.name, $0.number) },
            uniquingKeysWith: { first, _ in first })
        // A lightweight migration that renamed an entity keeps its old name in Z_PRIMARYKEY (SampleModel_V2's
        // LuxuryCar is still ExpensiveSportCar there): the model's entity is the store's by its renaming identifier.
        var storeName: [String: String] = [:]
        for entity in model.entities {
            if stored[entity.name] != nil {
                storeName[entity.name] = entity.name
            } else if let old = entity.renamingIdentifier, stored[old] != nil, model.entity(named: old) == nil {
                storeName[entity.name] = old
            }
        }
        let numbers = storeName.compactMapValues { stored[$0] }
        let computed = SchemaLayout(model: model, numbers: numbers)
        let missingEntities = model.entities.map(\.name).filter { numbers[$0] == nil }
        if !missingEntities.isEmpty {
            differences.append(
                "Z_PRIMARYKEY has no row for \(missingEntities.sorted().joined(separator: ", ")) of the model; "
                    + "entities numbered as a new store would number them")
        }
        for table in computed.tables where schema.columns(of: table.name) == nil {
            differences.append("the model's table \(table.name) (entity \(table.root)) is not in the store")
        }
        for table in computed.tables {
            var tuples: Set<[String]> = Set(table.keyColumns.map { [$0] })
            if table.hasSubentities { tuples.insert(["Z_ENT"]) }
            for index in table.indexes { tuples.insert(index.terms.map(\.column)) }
            indexedColumns[table.name, default: []].formUnion(tuples)
            for join in table.joinTables {
                indexedColumns[join.name, default: []].insert(join.index.terms.map(\.column))
            }
        }

        let joinTables = Self.joinTables(of: schema)
        var renamed: [String: String] = [:]
        for (key, placement) in computed.placements.sorted(by: {
            ($0.key.entity, $0.key.property) < ($1.key.entity, $1.key.property)
        }) {
            let what = "\(key.entity).\(key.property)"
            func has(_ column: String?, in table: String, _ declared: String = "INTEGER") -> Bool {
                guard let column else { return true }
                // SQLite compares column names ignoring ASCII case, and so does Core Data's SQL.
                guard
                    let found = schema.columns(of: table)?.first(where: { $0.name.uppercased() == column.uppercased() })
                else {
                    if schema.columns(of: table) != nil {
                        differences.append("\(what): the computed column \(table).\(column) is not in the store")
                        missingColumns.append(
                            MissingColumn(entity: key.entity, property: key.property, column: "\(table).\(column)"))
                    }
                    return false
                }
                if found.declaredType != declared {
                    differences.append(
                        "\(what): \(table).\(column) is declared \(found.declaredType), the model gives \(declared)")
                }
                return true
            }
            switch placement {
            case .attribute(let table, let column, let storage):
                guard has(column, in: table, storage.declaredType) else { continue }
            case .toOne(let table, let key, let entity, let order),
                .inverseKey(let table, let key, let entity, let order):
                guard has(key, in: table), has(entity, in: table), has(order, in: table) else { continue }
            case .hiddenKey(let table, let column):
                guard has(column, in: table) else { continue }
            case .join(var direction):
                let wanted = Set([direction.ownerColumn, direction.memberColumn])
                    .union([direction.orderColumn, direction.inverseOrderColumn].compactMap { $0 })
                if joinTables[direction.table] != wanted {
                    // Which of a pair on one entity names the table follows no public rule: the store's DDL decides
                    // by the table's columns.
                    guard let found = joinTables.first(where: { $0.value == wanted })?.key else {
                        differences.append(
                            "\(what): no join table with columns \(wanted.sorted().joined(separator: ", ")) "
                                + "(computed \(direction.table))")
                        continue
                    }
                    if renamed[direction.table] == nil {
                        renamed[direction.table] = found
                        differences.append(
                            "\(what): the join table is \(found) in the store, computed \(direction.table)")
                    }
                    direction.namesTable.toggle()
                    direction.table = found
                }
                placements[key] = .join(direction)
                continue
            }
            placements[key] = placement
        }
        placements = Dictionary(
            placements.map {
                (Key(entity: storeName[$0.key.entity] ?? $0.key.entity, property: $0.key.property), $0.value)
            },
            uniquingKeysWith: { first, _ in first })
        ownedColumns = Self.owned(placements, model: model, storeName: storeName, schema: schema)
        // A join table named after the other side is indexed on that side's member column first.
        for (table, name) in renamed {
            indexedColumns[name] = Set((indexedColumns.removeValue(forKey: table) ?? []).map { $0.reversed() })
        }
    }

    /// The attribute stored in `table`.`column`, with the entity that declares it.
    func attribute(at column: String, in table: String) -> (key: Key, storage: SchemaLayout.Storage)? {
        for (key, placement) in placements {
            if case .attribute(table, column, let storage) = placement { return (key, storage) }
        }
        return nil
    }

    /// Every join table of the store, with its column names.
    private static func joinTables(of schema: StoreSchema) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for (table, columns) in schema.tables where schema.kind(of: table) == .join {
            result[table] = Set(columns.map(\.name))
        }
        return result
    }

    /// The columns each entity's rows own: what its lineage declares in its table, and the hidden keys and inverse
    /// keys placed in its rows for relationships pointing at it or an ancestor.
    private static func owned(
        _ placements: [Key: Placement], model: ObjectModel, storeName: [String: String], schema: StoreSchema
    ) -> [String: [Int64: Set<String>]] {
        let modelName = Dictionary(storeName.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        // Columns per declaring entity (rows of that entity and its descendants hold them).
        var declared: [String: Set<String>] = [:]
        for (key, placement) in placements {
            switch placement {
            case .attribute(_, let column, _):
                declared[key.entity, default: []].insert(column)
            case .toOne(_, let column, let entity, let order):
                declared[key.entity, default: []].formUnion([column, entity, order].compactMap { $0 })
            case .hiddenKey(_, let column):
                guard
                    let relationship = model.entity(named: modelName[key.entity] ?? key.entity).flatMap({ entity in
                        model.relationship(named: key.property, in: entity)?.relationship
                    })
                else { continue }
                declared[storeName[relationship.destination] ?? relationship.destination, default: []].insert(column)
            case .inverseKey, .join:
                continue
            }
        }
        var result: [String: [Int64: Set<String>]] = [:]
        for entity in schema.entities where !entity.isInternal {
            guard let table = entity.table else { continue }
            var columns: Set<String> = []
            var current: StoreSchema.Entity? = entity
            var seen: Set<Int64> = []
            while let found = current, seen.insert(found.number).inserted {
                columns.formUnion(declared[found.name] ?? [])
                current = schema.entity(number: found.superNumber)
            }
            result[table, default: [:]][entity.number] = columns
        }
        return result
    }
}
