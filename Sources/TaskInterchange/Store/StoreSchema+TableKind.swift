/// What each table of a store file is. Every table has exactly one kind, so a reader can account for all of them:
/// what is data (entity and join tables, tables the app added), what Core Data keeps for itself, and what is derived
/// (an R-tree fetch index and the shadow tables SQLite keeps for a virtual table).
extension StoreSchema {
    enum TableKind: Sendable, Hashable {
        /// Core Data's bookkeeping: `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`.
        case system
        /// The table of an app entity (its root's `Z<NAME>`).
        case entity
        /// The table of Core Data's own entities: persistent history (`ACHANGE`, …) and CloudKit mirroring (`ANSCK…`).
        case internalEntity
        /// A many-to-many join table: `Z_` and key columns only (`Z_<n><REL>`, `Z_FOK_<n><REL>`, `REFLEXIVE`).
        case join
        /// An R-tree fetch index (`Z_RT_<Entity>_<index> USING RTREE`): derived from attributes, kept by triggers.
        case rtreeIndex
        /// Another virtual table — a full-text index the app keeps, say — with its module's name, lowercased.
        case virtual(module: String)
        /// Storage SQLite keeps for the virtual table named: written only through that table, never by hand.
        case shadow(of: String)
        /// A table the app created itself, outside its model.
        case app

        /// Whether the table's rows are data a whole-store export must account for: the app's own tables, join and
        /// entity tables. Derived tables (indexes, shadows) and Core Data's bookkeeping are not.
        var holdsData: Bool {
            switch self {
            case .entity, .join, .app, .virtual: return true
            case .system, .internalEntity, .rtreeIndex, .shadow: return false
            }
        }
    }

    /// The kind of `table`, or nil when the store has no such table.
    func kind(of table: String) -> TableKind? {
        tableKinds[table]
    }

    /// Every table of `kind`, sorted.
    func tables(of kind: TableKind) -> [String] {
        tableKinds.filter { $0.value == kind }.map(\.key).sorted()
    }

    /// Classifies every table. `virtualTables` maps each virtual table to its `CREATE VIRTUAL TABLE` statement;
    /// `shadowTables` are the ones SQLite itself reports as shadows (`pragma_table_list`), when it can tell.
    static func classify(
        tables: [String: [Column]], entities: [Entity], virtualTables: [String: String], shadowTables: Set<String>
    ) -> [String: TableKind] {
        var kinds: [String: TableKind] = [:]
        for entity in entities {
            guard let table = entity.table else { continue }
            kinds[table] = entity.isInternal ? .internalEntity : .entity
        }
        for (table, sql) in virtualTables {
            let module = Self.module(ofVirtualTable: sql)
            kinds[table] =
                module == "rtree" && table.hasPrefix(CoreDataNames.fetchIndexPrefix)
                ? .rtreeIndex : .virtual(module: module)
        }
        for table in tables.keys where kinds[table] == nil {
            if CoreDataNames.systemTables.contains(table) {
                kinds[table] = .system
            } else if let owner = Self.virtualTable(owning: table, virtualTables: virtualTables, shadows: shadowTables)
            {
                kinds[table] = .shadow(of: owner)
            } else if Self.looksLikeJoinTable(table, columns: tables[table] ?? []) {
                kinds[table] = .join
            } else {
                kinds[table] = .app
            }
        }
        return kinds
    }

    /// The module a `CREATE VIRTUAL TABLE … USING module(…)` statement names, lowercased ("" when unreadable).
    static func module(ofVirtualTable sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "(" })
        guard let using = words.firstIndex(where: { $0.uppercased() == "USING" }), using + 1 < words.count else {
            return ""
        }
        return words[using + 1].lowercased()
    }

    /// The virtual table whose shadow `table` is: SQLite's own answer, else the table's name is the virtual table's
    /// followed by `_` and one of its module's shadow suffixes.
    private static func virtualTable(owning table: String, virtualTables: [String: String], shadows: Set<String>)
        -> String?
    {
        let candidates = virtualTables.keys.filter { table.hasPrefix($0 + "_") }.sorted { $0.count > $1.count }
        for owner in candidates {
            let suffix = String(table.dropFirst(owner.count + 1))
            let module = Self.module(ofVirtualTable: virtualTables[owner] ?? "")
            if shadows.contains(table) || Self.shadowSuffixes[module]?.contains(suffix) == true { return owner }
        }
        return nil
    }

    /// Shadow tables of SQLite's own virtual-table modules, by module.
    private static let shadowSuffixes: [String: Set<String>] = [
        "rtree": ["node", "parent", "rowid"],
        "geopoly": ["node", "parent", "rowid"],
        "fts3": ["content", "segments", "segdir", "docsize", "stat"],
        "fts4": ["content", "segments", "segdir", "docsize", "stat"],
        "fts5": ["data", "idx", "content", "docsize", "config"],
    ]

    /// A `Z_` table whose every column is a join key (`Z_<n><REL>`), a position (`Z_FOK_…`) or `REFLEXIVE`.
    private static func looksLikeJoinTable(_ table: String, columns: [Column]) -> Bool {
        guard table.hasPrefix(CoreDataNames.plumbingPrefix), !columns.isEmpty else { return false }
        return columns.allSatisfy {
            $0.name == CoreDataNames.reflexiveColumn || CoreDataNames.isOrderColumn($0.name)
                || CoreDataNames.splitJoinColumn($0.name) != nil
        }
    }
}

extension StoreSchema {
    /// Where an R-tree fetch index's rows come from: Core Data's triggers insert, for every row of the entity's
    /// table, its `Z_PK` and each indexed attribute twice (`<COLUMN>_MIN`, `<COLUMN>_MAX`: a point).
    struct FetchIndexSource: Sendable, Hashable {
        /// The R-tree table.
        var index: String
        /// The entity table its rows come from.
        var table: String
        /// The R-tree's columns, in order, the first one its key.
        var columns: [String]
        /// The entity table's column each R-tree column is filled from (`Z_PK` first).
        var sources: [String]
    }

    /// How `index`, an R-tree fetch index (`Z_RT_<Entity>_<name>`), is derived from its entity's table, or nil when
    /// its columns are not Core Data's pattern (then it travels raw, as a table the app added would).
    func fetchIndexSource(of index: String) -> FetchIndexSource? {
        guard kind(of: index) == .rtreeIndex, let columns = columns(of: index)?.map(\.name), columns.count >= 3,
            columns[0].uppercased() == CoreDataNames.primaryKey
        else { return nil }
        let owners = entities.filter { index.hasPrefix(CoreDataNames.fetchIndexPrefix(of: $0.name)) && $0.table != nil }
        guard let owner = owners.max(by: { $0.name.count < $1.name.count }), let table = owner.table else {
            return nil
        }
        let available = Set((self.columns(of: table) ?? []).map { $0.name.uppercased() })
        var sources = [CoreDataNames.primaryKey]
        for column in columns.dropFirst() {
            let upper = column.uppercased()
            guard upper.hasSuffix("_MIN") || upper.hasSuffix("_MAX") else { return nil }
            let base = String(column.dropLast(4))
            guard available.contains(base.uppercased()) else { return nil }
            sources.append(base)
        }
        return FetchIndexSource(index: index, table: table, columns: columns, sources: sources)
    }

    /// Tables a whole-store export carries raw (their statement and rows): the app's own, its virtual tables, and an
    /// R-tree index whose rows cannot be derived from its entity's attributes.
    var rawTables: [String] {
        tableKinds.compactMap { table, kind -> String? in
            switch kind {
            case .app, .virtual: return table
            case .rtreeIndex: return fetchIndexSource(of: table) == nil ? table : nil
            case .system, .entity, .internalEntity, .join, .shadow: return nil
            }
        }.sorted()
    }
}
