import Foundation

/// What a store file says about itself: its entities (from `Z_PRIMARYKEY`), their tables and columns, the join tables,
/// and its UUID (from `Z_METADATA`).
struct StoreSchema: Sendable, Hashable {
    /// One entity of the store's model.
    struct Entity: Sendable, Hashable {
        /// The entity name exactly as in the model (`CDTask`, `TodoItem`).
        var name: String
        /// `Z_ENT`.
        var number: Int64
        /// The parent entity's number, 0 for a root.
        var superNumber: Int64
        /// `Z_MAX` as stored.
        var maxKey: Int64
        /// The table holding its rows (`Z` + uppercased root entity name), when it exists.
        var table: String?
        /// The name its table should have, whether or not it exists.
        var expectedTable: String
        /// Numbers of this entity and all its sub-entities (the `Z_ENT` values its rows may carry).
        var numbersIncludingSubentities: [Int64]

        /// Core Data's own bookkeeping entities (persistent history, CloudKit mirroring), not the app's data.
        var isInternal: Bool { Self.isInternal(number) }

        /// Whether entity `number` is Core Data's own (persistent history 16001…, CloudKit 17001…).
        static func isInternal(_ number: Int64) -> Bool { number > 16_000 }
    }

    /// One column of a table.
    struct Column: Sendable, Hashable {
        /// Column name (`ZTITLE`).
        var name: String
        /// Declared type (`VARCHAR`, `INTEGER`, …).
        var declaredType: String
    }

    /// Entities in `Z_ENT` order.
    var entities: [Entity]
    /// Every user table's columns, by table name (system and join tables included).
    var tables: [String: [Column]]
    /// `Z_UUID` from `Z_METADATA`, when present.
    var storeUUID: String?
    /// Names of views in the store (never read).
    var views: [String]
    /// Names of triggers in the store (never run by `tasks`).
    var triggers: [String]
    /// Names of indexes (Core Data names a foreign key's index `<TABLE>_<COLUMN>_INDEX`).
    var indexes: Set<String> = []
    /// What each table is (`kind(of:)`).
    var tableKinds: [String: TableKind] = [:]
    /// Where each property is stored, when the store's model is known (`locate(with:)`).
    var layout: StoreLayout?

    /// The entity with this name, compared exactly.
    func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// The entity with this number.
    func entity(number: Int64) -> Entity? {
        entities.first { $0.number == number }
    }

    /// The columns of a table, or nil when the table does not exist.
    func columns(of table: String) -> [Column]? {
        tables[table]
    }
}

extension StoreSchema {
    /// Reads the schema through `database`. Every name from the store is passed as a bound parameter or quoted.
    /// - Throws: `TaskInterchangeError.invalidData` when this is not a Core Data store.
    init(reading database: Database, path: String) throws(TaskInterchangeError) {
        do {
            let master = try database.rows(
                "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view', 'trigger', 'index')")
            var tableNames: [String] = []
            var virtualTables: [String: String] = [:]
            var views: [String] = []
            var triggers: [String] = []
            var indexes: Set<String> = []
            for row in master {
                guard let type = row[0].string, let name = row[1].string else { continue }
                switch type {
                case "table" where !name.hasPrefix("sqlite_"):
                    tableNames.append(name)
                    if let sql = row[2].string, sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") {
                        virtualTables[name] = sql
                    }
                case "view": views.append(name)
                case "trigger": triggers.append(name)
                case "index": indexes.insert(name)
                default: break
                }
            }
            let primaryKeyTable = CoreDataNames.primaryKeyTable
            guard tableNames.contains(primaryKeyTable) else {
                throw TaskInterchangeError(.invalidData, "\(path): not a Core Data store (no \(primaryKeyTable) table)")
            }
            var tables: [String: [Column]] = [:]
            let tableInfo = try database.prepare("SELECT name, type FROM pragma_table_info(?)")
            for name in tableNames {
                tableInfo.reset()
                try tableInfo.bind([.text(name)])
                var columns: [Column] = []
                // A virtual table of a module this SQLite lacks: its columns cannot be read, nor its rows.
                let readable = virtualTables[name] == nil || (try? tableInfo.step()) != nil
                if readable {
                    tableInfo.reset()
                    try tableInfo.bind([.text(name)])
                    while try tableInfo.step() {
                        columns.append(
                            Column(
                                name: tableInfo.text(at: 0) ?? "",
                                declaredType: (tableInfo.text(at: 1) ?? "").uppercased()))
                    }
                }
                tables[name] = columns
            }
            let keyColumns = Set((tables[primaryKeyTable] ?? []).map(\.name))
            let entityColumns = CoreDataNames.primaryKeyColumns
            guard keyColumns.isSuperset(of: entityColumns) else {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(path): \(primaryKeyTable) lacks the columns \(entityColumns.joined(separator: ", "))")
            }
            var raw: [(number: Int64, name: String, superNumber: Int64, max: Int64)] = []
            for row in try database.rows(
                "SELECT \(entityColumns.joined(separator: ", ")) FROM \(primaryKeyTable) "
                    + "ORDER BY \(CoreDataNames.entityNumber)")
            {
                guard let number = row[0].int64, let name = row[1].string, !name.isEmpty else {
                    throw TaskInterchangeError(
                        .invalidData, "\(path): \(primaryKeyTable) has a row without an entity number or name")
                }
                raw.append((number, name, row[2].int64 ?? 0, row[3].int64 ?? 0))
            }
            let byNumber = Dictionary(raw.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
            func root(of number: Int64) -> Int64 {
                var current = number
                var seen: Set<Int64> = []
                while let parent = byNumber[current]?.superNumber, parent != 0, byNumber[parent] != nil,
                    seen.insert(current).inserted
                {
                    current = parent
                }
                return current
            }
            func descendants(of number: Int64) -> [Int64] {
                var result = [number]
                var index = 0
                while index < result.count {
                    let current = result[index]
                    result += raw.filter {
                        $0.superNumber == current && $0.number != current && !result.contains($0.number)
                    }.map(\.number)
                    index += 1
                }
                return result.sorted()
            }
            let entities = raw.map { entry -> Entity in
                let rootName = byNumber[root(of: entry.number)]?.name ?? entry.name
                let table = CoreDataNames.table(ofRoot: rootName, isInternal: Entity.isInternal(entry.number))
                return Entity(
                    name: entry.name, number: entry.number, superNumber: entry.superNumber, maxKey: entry.max,
                    table: tables[table] != nil ? table : nil, expectedTable: table,
                    numbersIncludingSubentities: descendants(of: entry.number))
            }
            var storeUUID: String?
            if tables[CoreDataNames.metadataTable] != nil {
                storeUUID = try database.scalar(
                    "SELECT \(CoreDataNames.storeUUIDColumn) FROM \(CoreDataNames.metadataTable) "
                        + "ORDER BY \(CoreDataNames.metadataVersionColumn) LIMIT 1")?.string
            }
            // SQLite names the shadow tables of the virtual-table modules it has (3.37 and later).
            let shadows = Set(
                ((try? database.rows("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'"))
                    ?? []).compactMap { $0[0].string })
            self.init(
                entities: entities, tables: tables, storeUUID: storeUUID, views: views.sorted(),
                triggers: triggers.sorted(), indexes: indexes,
                tableKinds: Self.classify(
                    tables: tables, entities: entities, virtualTables: virtualTables, shadowTables: shadows))
        } catch let error as SQLiteError {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read the store's schema")
        } catch let error as TaskInterchangeError {
            throw error
        } catch {
            throw TaskInterchangeError(.internal, "\(path): \(error)")
        }
    }
}
