/// The SQLite layout Core Data gives a model in a new store: entity numbers, one table per root entity, join tables,
/// indexes, derived-attribute triggers and the system tables, with every name Core Data would choose. Built by
/// `init(model:)`; `statements` is the DDL.
struct SchemaLayout: Sendable {
    /// How a column stores its value. Core Data lists a table's columns in groups, in the order of `group`, and
    /// within a group in the order in which they were claimed: integers (with keys), then dates and floating point
    /// numbers together, decimals, strings, URIs, UUIDs, transformables, binary data. Checked on every table of the
    /// shared real stores (Notes interleaves dates and doubles; Wire, Notes and Photos put transformables before
    /// binary data); no table seen has both a URI and a UUID column, so their relative order is inferred.
    enum Storage: Sendable, Hashable {
        /// Integers, booleans, keys, entity numbers, order keys.
        case integer
        /// Dates.
        case timestamp
        /// Doubles and floats.
        case float
        /// Decimals.
        case decimal
        /// Strings.
        case text
        /// URIs: VARCHAR, after the strings.
        case uri
        /// UUIDs: BLOB, before the other BLOB columns (seen in SampleModel2's `ZBOOK`).
        case uuid
        /// Transformables: BLOB, before binary data.
        case transformable
        /// Binary data.
        case blob

        /// The declared SQL type.
        var declaredType: String {
            switch self {
            case .integer: return "INTEGER"
            case .timestamp: return "TIMESTAMP"
            case .float: return "FLOAT"
            case .decimal: return "DECIMAL"
            case .text, .uri: return "VARCHAR"
            case .uuid, .transformable, .blob: return "BLOB"
            }
        }

        /// The column group's place in a table's DDL.
        var group: Int {
            switch self {
            case .integer: return 0
            case .timestamp, .float: return 1
            case .decimal: return 2
            case .text: return 3
            case .uri: return 4
            case .uuid: return 5
            case .transformable: return 6
            case .blob: return 7
            }
        }
    }

    /// A property of an entity, as the model declares it (inherited properties under the declaring entity).
    struct PropertyKey: Sendable, Hashable {
        var entity: String
        var property: String
    }

    /// Where one stored property keeps its values. Every reader and writer finds columns here and nowhere else.
    enum Placement: Sendable, Hashable {
        /// An attribute's column in its entity's table.
        case attribute(table: String, column: String, storage: Storage)
        /// A to-one key in the owner's table; `entity` is `Z<n>_<NAME>` (the destination row's `Z_ENT`) when the
        /// destination has sub-entities, `order` is `Z_FOK_<NAME>` when the inverse is an ordered to-many.
        case toOne(table: String, key: String, entity: String?, order: String?)
        /// A to-many whose inverse is a to-one: the inverse's key (and order) columns on the destination's table.
        case inverseKey(table: String, key: String, entity: String?, order: String?)
        /// A to-many without an inverse: a hidden key column `Z<n><NAME>` on the destination's table.
        case hiddenKey(table: String, column: String)
        /// A many-to-many: one reading direction of its join table.
        case join(JoinDirection)
    }

    /// One reading direction of a join table: the owners' keys in `ownerColumn`, the members' in `memberColumn`.
    struct JoinDirection: Sendable, Hashable {
        var table: String
        var ownerColumn: String
        var memberColumn: String
        /// `Z_FOK_` + the member column without its `Z_`: the members' positions, for an ordered side.
        var orderColumn: String?
        /// The other direction's positions, when that side is ordered too.
        var inverseOrderColumn: String?
        /// True when the table bears this direction's relationship's name.
        var namesTable: Bool
    }

    /// One column of an entity table.
    struct Column: Sendable, Hashable {
        var name: String
        var storage: Storage
    }

    /// One table holding a root entity and all its sub-entities.
    struct EntityTable: Sendable {
        /// `Z` + the root entity's name, uppercased.
        var name: String
        /// The root entity's name.
        var root: String
        /// True when the root has sub-entities (the table then gets a `Z_ENT` index).
        var hasSubentities: Bool
        /// Columns after `Z_PK`, `Z_ENT`, `Z_OPT`, in claim order (`columns` gives the DDL order).
        var claimed: [Column] = []
        /// How many times each name has been claimed (`ZNAME`, `ZNAME1`, …).
        var claims: [String: Int] = [:]
        /// Key columns (to-one keys and hidden to-many keys), each indexed as `<TABLE>_<COLUMN>_INDEX`.
        var keyColumns: [String] = []
        /// Join tables named by this table's entities, in creation order.
        var joinTables: [JoinTable] = []
        /// Uniqueness constraint indexes and fetch indexes.
        var indexes: [Index] = []

        /// The DDL column order: grouped by storage, claim order within a group.
        var columns: [Column] {
            claimed.enumerated().sorted { a, b in
                let (groupA, groupB) = (a.element.storage.group, b.element.storage.group)
                return groupA == groupB ? a.offset < b.offset : groupA < groupB
            }.map(\.element)
        }

        /// Claims `base` in this table: the first claimant keeps it, later ones get `1`, `2`, … appended.
        mutating func claim(_ base: String, storage: Storage) -> String {
            let count = claims[base, default: 0]
            claims[base] = count + 1
            let name = count == 0 ? base : base + String(count)
            claimed.append(Column(name: name, storage: storage))
            return name
        }

        /// Adds a column whose name cannot collide (entity-number and order-key columns).
        mutating func append(_ name: String, storage: Storage) {
            claimed.append(Column(name: name, storage: storage))
        }

        /// Claims `base` for a join-table column holding this table's keys: join columns share the table's name
        /// generator (`Z_17USERS`, then `Z_17USERS1`), though the column lives in the join table.
        mutating func reserve(_ base: String) -> String {
            let count = claims[base, default: 0]
            claims[base] = count + 1
            return count == 0 ? base : base + String(count)
        }
    }

    /// A many-to-many join table.
    struct JoinTable: Sendable, Hashable {
        /// `Z_<e><RELATIONSHIP>`.
        var name: String
        /// The first key column: the keys of the naming side's rows.
        var first: String
        /// The second key column (`REFLEXIVE` for a relationship that is its own inverse).
        var second: String
        /// `Z_FOK_` order columns of ordered sides.
        var orderColumns: [String]

        /// Its index: `<table>_<second>_INDEX` on (second, first).
        var index: Index {
            Index(name: "\(name)_\(second)_INDEX", table: name, columns: [second, first])
        }
    }

    /// An index.
    struct Index: Sendable, Hashable {
        /// One indexed column: bare for key indexes, `<column> COLLATE BINARY ASC|DESC` for the model's indexes.
        struct Term: Sendable, Hashable {
            var column: String
            /// Nil for a bare column; true/false for `COLLATE BINARY ASC`/`DESC`.
            var ascending: Bool?
        }

        var name: String
        var table: String
        var terms: [Term]
        var isUnique = false
        /// The `WHERE` condition of a partial index, in SQL.
        var condition: String?

        /// An index on bare columns.
        init(name: String, table: String, columns: [String]) {
            self.init(name: name, table: table, terms: columns.map { Term(column: $0) })
        }

        init(name: String, table: String, terms: [Term], isUnique: Bool = false, condition: String? = nil) {
            self.name = name
            self.table = table
            self.terms = terms
            self.isUnique = isUnique
            self.condition = condition
        }
    }

    /// An R-tree fetch index: a virtual table `Z_RT_<Entity>_<index>` holding each row's key and a minimum and a
    /// maximum per indexed column, kept current by three triggers on the entity's table.
    struct RTree: Sendable, Hashable {
        var name: String
        /// The entity table whose rows it indexes.
        var table: String
        /// The indexed columns of `table`.
        var columns: [String]

        /// The virtual table's columns after `Z_PK`: `<COLUMN>_MIN`, `<COLUMN>_MAX` per indexed column.
        var rangeColumns: [String] { columns.flatMap { [$0 + "_MIN", $0 + "_MAX"] } }

        /// `CREATE VIRTUAL TABLE … USING RTREE` and its `_INSERT`, `_UPDATE` and `_DELETE` triggers, as Photos' store
        /// has them (spacing included).
        var statements: [String] {
            let (t, r) = (identifier(table), identifier(name))
            let names = (["Z_PK"] + rangeColumns.map(identifier)).joined(separator: ", ")
            // Photos' store spaces the first range oddly: `(NEW.Z_PK, NEW.ZLATITUDE ,NEW.ZLATITUDE, NEW.ZLONGITUDE, …)`.
            let ranges = columns.flatMap { ["NEW.\(identifier($0))", "NEW.\(identifier($0))"] }
            let values = "NEW.Z_PK, " + ranges.prefix(1).joined() + " ," + ranges.dropFirst().joined(separator: ", ")
            let insert = "INTO \(r) (\(names)) VALUES (\(values)) ;"
            let declared = (["Z_PK INTEGER PRIMARY KEY"] + rangeColumns.map { "\(identifier($0)) FLOAT" })
            return [
                "CREATE VIRTUAL TABLE \(r) USING RTREE (\(declared.joined(separator: ", ")))",
                "CREATE TRIGGER \(identifier(name + "_INSERT")) AFTER INSERT ON \(t) FOR EACH ROW BEGIN "
                    + "INSERT OR REPLACE \(insert) END",
                "CREATE TRIGGER \(identifier(name + "_UPDATE")) AFTER UPDATE ON \(t) FOR EACH ROW BEGIN "
                    + "DELETE FROM \(r) WHERE Z_PK = NEW.Z_PK ; INSERT \(insert) END",
                "CREATE TRIGGER \(identifier(name + "_DELETE")) AFTER DELETE ON \(t) FOR EACH ROW BEGIN "
                    + "DELETE FROM \(r) WHERE Z_PK = OLD.Z_PK ; END",
            ]
        }
    }

    /// A trigger, complete.
    struct Trigger: Sendable, Hashable {
        var name: String
        var sql: String
    }

    /// Entity name → `Z_ENT`.
    var entityNumbers: [String: Int64] = [:]
    /// Where each stored property of each entity lives, keyed by the declaring entity.
    var placements: [PropertyKey: Placement] = [:]
    /// Entity names in `Z_ENT` order.
    var entityOrder: [String] = []
    /// Entity tables in the order of their roots' numbers.
    var tables: [EntityTable] = []
    /// R-tree fetch indexes.
    var rTrees: [RTree] = []
    /// Derived-attribute triggers.
    var triggers: [Trigger] = []
    /// What the layout could not reproduce with confidence, one sentence each.
    var caveats: [String] = []

    /// The system tables' DDL, identical in every real store seen.
    static let systemTables = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    /// The DDL in the order real stores list it: each entity table followed by the join tables its entities name;
    /// then per table its key indexes, its `Z_ENT` index, its join tables' indexes, its uniqueness and fetch
    /// indexes; then each R-tree index with its triggers; then the derived-attribute triggers; then the system
    /// tables.
    var statements: [String] {
        var result: [String] = []
        for table in tables {
            let columns =
                ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + table.columns.map { "\(Self.identifier($0.name)) \($0.storage.declaredType)" }
            result.append("CREATE TABLE \(Self.identifier(table.name)) ( \(columns.joined(separator: ", ")) )")
            for join in table.joinTables {
                let keys = [join.first, join.second].map(Self.identifier)
                let columns =
                    (keys + join.orderColumns.map(Self.identifier)).map { "\($0) INTEGER" }
                    + ["PRIMARY KEY (\(keys.joined(separator: ", ")))"]
                result.append("CREATE TABLE \(Self.identifier(join.name)) ( \(columns.joined(separator: ", ")) )")
            }
        }
        for table in tables {
            var indexes = table.keyColumns.map {
                Index(name: "\(table.name)_\($0)_INDEX", table: table.name, columns: [$0])
            }
            if table.hasSubentities {
                indexes.append(Index(name: "\(table.name)_Z_ENT_INDEX", table: table.name, columns: ["Z_ENT"]))
            }
            indexes += table.joinTables.map(\.index) + table.indexes
            result += indexes.map(Self.statement)
        }
        return result + rTrees.flatMap(\.statements) + triggers.map(\.sql) + Self.systemTables
    }

    private static func statement(_ index: Index) -> String {
        let terms = index.terms.map { term in
            identifier(term.column) + (term.ascending.map { $0 ? " COLLATE BINARY ASC" : " COLLATE BINARY DESC" } ?? "")
        }
        return
            """
            CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(identifier(index.name)) \
            ON \(identifier(index.table)) (\(terms.joined(separator: ", ")))
            """ + (index.condition.map { " WHERE " + $0 } ?? "")
    }

    /// A name as Core Data writes it (bare), quoted when it is not a plain SQL identifier, so that names read from a
    /// store file can never change the statement around them. Bytes from 0x80 up count as letters, as in SQLite;
    /// every generated name starts with `Z` or is `REFLEXIVE`, so none is a keyword.
    static func identifier(_ name: String) -> String {
        let plain = name.utf8.enumerated().allSatisfy { offset, byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"),
                0x80...0xFF:
                return true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return offset > 0
            default: return false
            }
        }
        return plain && !name.isEmpty ? name : Database.quote(name)
    }
}
