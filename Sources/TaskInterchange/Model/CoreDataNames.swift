/// Every storage name Core Data spells, and the rules that read a name alone: the name-derived half of the store
/// locator (`StoreLocator` answers from a store's model first and falls back to these). Code elsewhere asks here or
/// the locator instead of spelling a `Z…` name, so a rule of Core Data's naming is written once. The few names the
/// CLI and the model tools show their users, or name in generated code, are visible to them (`package`).
package enum CoreDataNames {
    /// Every entity table's key column.
    package static let primaryKey = "Z_PK"
    /// Every entity table's entity-number column (which entity of an inheritance tree the row is).
    package static let entityNumber = "Z_ENT"
    /// Every entity table's optimistic-locking version column.
    static let version = "Z_OPT"
    /// The three columns every entity table begins with: key, entity number, version.
    static let rowColumns = [primaryKey, entityNumber, version]
    /// `Z_PK, Z_ENT`: a row's key and entity number, as a select list.
    static let keyAndEntityList = "\(primaryKey), \(entityNumber)"
    /// The assignment that moves a row's version on when it is written (as Core Data does on every save).
    static let versionIncrement = "\(version) = coalesce(\(version), 0) + 1"

    /// `SELECT columns FROM table WHERE Z_PK = parameter`: the row of one key (`table` as it goes into SQL, quoted).
    static func select(_ columns: String, from table: String, byKey parameter: String = "?") -> String {
        "SELECT \(columns) FROM \(table) WHERE \(primaryKey) = \(parameter)"
    }

    /// `SELECT Z_PK FROM table`: the keys of a table's rows, before the condition that picks them.
    static func selectKeys(from table: String) -> String {
        "SELECT \(primaryKey) FROM \(table)"
    }

    /// `SELECT Z_PK FROM table WHERE Z_ENT = number`: the keys of one entity's own rows.
    static func selectKeys(from table: String, ofEntity number: String) -> String {
        "\(selectKeys(from: table)) WHERE \(entityNumber) = \(number)"
    }

    /// `UPDATE table SET assignments WHERE Z_PK = parameter`: writes the row of one key.
    static func update(_ table: String, set assignments: String, byKey parameter: String = "?") -> String {
        "UPDATE \(table) SET \(assignments) WHERE \(primaryKey) = \(parameter)"
    }

    /// The largest key in `table` (quoted here).
    static func largestKey(in table: String) -> String {
        "SELECT max(\(primaryKey)) FROM \(Database.quote(table))"
    }

    /// The table of entity numbers, names, parents and largest keys.
    static let primaryKeyTable = "Z_PRIMARYKEY"
    /// `Z_PRIMARYKEY`'s columns: entity number, name, parent's number, largest key handed out.
    static let entityNameColumn = "Z_NAME"
    static let superEntityColumn = "Z_SUPER"
    package static let maxKeyColumn = "Z_MAX"
    /// `Z_PRIMARYKEY`'s columns in their order.
    static let primaryKeyColumns = [entityNumber, entityNameColumn, superEntityColumn, maxKeyColumn]
    /// Every entity's number, name and parent's number, by number.
    static let readEntities =
        "SELECT \(entityNumber), \(entityNameColumn), \(superEntityColumn) FROM \(primaryKeyTable) "
        + "ORDER BY \(entityNumber)"
    /// Adds an entity (number, name, parent's number) that has handed out no key yet.
    static let insertEntity =
        "INSERT INTO \(primaryKeyTable) (\(primaryKeyColumns.joined(separator: ", "))) VALUES (?, ?, ?, 0)"
    /// The largest key handed out for the tree whose root is entity number `?`.
    static let readMaxKey = "SELECT \(maxKeyColumn) FROM \(primaryKeyTable) WHERE \(entityNumber) = ?"
    /// Raises the largest key of entity number `?2` to `?1`, never lowers it.
    static let raiseMaxKey =
        "UPDATE \(primaryKeyTable) SET \(maxKeyColumn) = ?1 WHERE \(entityNumber) = ?2 AND coalesce(\(maxKeyColumn), 0) < ?1"
    /// Raises the largest key of the root entity named `?2` to `?1`, never lowers it.
    static let raiseMaxKeyOfRootNamed =
        "UPDATE \(primaryKeyTable) SET \(maxKeyColumn) = ?1 WHERE \(entityNameColumn) = ?2 AND \(superEntityColumn) = 0 "
        + "AND coalesce(\(maxKeyColumn), 0) < ?1"
    /// The table of the store's metadata (its UUID and the property list of version hashes).
    package static let metadataTable = "Z_METADATA"
    /// `Z_METADATA`'s columns.
    static let metadataVersionColumn = "Z_VERSION"
    static let storeUUIDColumn = "Z_UUID"
    static let metadataPlistColumn = "Z_PLIST"
    /// The first metadata row's property list.
    static let readMetadataPlist =
        "SELECT \(metadataPlistColumn) FROM \(metadataTable) ORDER BY \(metadataVersionColumn) LIMIT 1"
    /// Adds the metadata row: version, UUID, property list.
    static let insertMetadata =
        "INSERT INTO \(metadataTable) (\(metadataVersionColumn), \(storeUUIDColumn), \(metadataPlistColumn)) "
        + "VALUES (?, ?, ?)"
    /// Gives the store a new UUID.
    static let writeStoreUUID = "UPDATE \(metadataTable) SET \(storeUUIDColumn) = ?"
    /// The table of the store's compiled model (absent from stores of older frameworks).
    static let modelCacheTable = "Z_MODELCACHE"
    /// `Z_MODELCACHE`'s one column.
    static let modelCacheColumn = "Z_CONTENT"
    /// Stores the compiled model.
    static let insertModelCache = "INSERT INTO \(modelCacheTable) (\(modelCacheColumn)) VALUES (?)"
    /// The compiled model.
    static let readModelCache = "SELECT \(modelCacheColumn) FROM \(modelCacheTable) LIMIT 1"
    /// Core Data's own tables, present in every store (the model cache in most).
    static let systemTables: Set<String> = [primaryKeyTable, metadataTable, modelCacheTable]

    /// The prefix of every name Core Data gives its own columns and tables (join tables, positions, fetch indexes).
    static let plumbingPrefix = "Z_"
    /// The prefix of an ordered relationship's position column.
    package static let orderPrefix = "Z_FOK_"
    /// The prefix of an R-tree fetch index's table (`Z_RT_<Entity>_<index>`).
    static let fetchIndexPrefix = "Z_RT_"
    /// The prefix of the triggers that keep derived attributes.
    static let derivedAttributeTriggerPrefix = "Z_DA_"
    /// The tables persistent history is stored in, with the entity each table's rows belong to and the columns
    /// written to them (the attributes of Core Data's own history model: `authorTS` is `ZAUTHORTS`).
    static let historyTables: [(table: String, entity: String, columns: [String])] = [
        (
            table(ofRoot: "TRANSACTION", isInternal: true), "TRANSACTION",
            rowColumns + ["authorTS", "bundleIDTS", "processIDTS"].map(column(of:)) + [transactionTimestampColumn]
        ),
        (
            table(ofRoot: "CHANGE", isInternal: true), "CHANGE",
            rowColumns + ["changeType", "entity", "entityPK", "transactionID"].map(column(of:)) + [changeColumnsColumn]
        ),
        (table(ofRoot: "TRANSACTIONSTRING", isInternal: true), "TRANSACTIONSTRING", rowColumns + [stringNameColumn]),
    ]
    /// The prefix of the tables of CloudKit mirroring's own entities (`ANSCKRECORDMETADATA`, …).
    static let cloudKitMirroringPrefix = "ANSCK"
    /// When a history transaction was saved, in seconds since 2001.
    static let transactionTimestampColumn = column(of: "timestamp")
    /// Which properties a history change updated (a bitmap; NULL for inserts and deletes).
    static let changeColumnsColumn = column(of: "columns")
    /// The text of an interned history string (authors, bundle identifiers, process names).
    static let stringNameColumn = column(of: "name")

    /// The column of a reflexive many-to-many's join table that marks which side a row was written from.
    static let reflexiveColumn = "REFLEXIVE"

    /// The table of an inheritance tree whose root is `root`: `Z` + its name uppercased, `A` for Core Data's own
    /// entities (persistent history 16001…, CloudKit 17001…).
    static func table(ofRoot root: String, isInternal: Bool) -> String {
        (isInternal ? "A" : "Z") + root.uppercased()
    }

    /// The column a property of this name gets when it is the only one of that name in its table.
    static func column(of property: String) -> String {
        "Z" + property.uppercased()
    }

    /// The position column of the ordered side opposite `relationship` (`Z_FOK_<NAME>`).
    static func orderColumn(of relationship: String) -> String {
        orderPrefix + relationship.uppercased()
    }

    /// The position column beside a join table's member column (`Z_4TAGS` → `Z_FOK_4TAGS`).
    static func orderColumn(ofJoinColumn column: String) -> String {
        orderPrefix + column.dropFirst(plumbingPrefix.count)
    }

    /// Whether `column` is a position column.
    static func isOrderColumn(_ column: String) -> Bool {
        column.hasPrefix(orderPrefix)
    }

    /// `Z_<number><RELATIONSHIP>`: a join table, or its column holding the keys of entity `number`.
    static func joinName(number: Int64, relationship: String) -> String {
        "\(plumbingPrefix)\(number)\(relationship.uppercased())"
    }

    /// `Z_4TAGS` → (4, "TAGS").
    static func splitJoinColumn(_ column: String) -> (Int64, String)? {
        guard column.hasPrefix(plumbingPrefix) else { return nil }
        let rest = column.dropFirst(plumbingPrefix.count)
        let digits = rest.prefix { $0.isNumber }
        guard !digits.isEmpty, let number = Int64(digits), digits.count < rest.count else { return nil }
        return (number, String(rest.dropFirst(digits.count)))
    }

    /// Whether `column` is `Z<n>_<NAME>`: the concrete entity number of the row a to-one `NAME` points at.
    static func isEntityColumn(_ column: String, of name: String) -> Bool {
        guard column.hasPrefix("Z"), column.hasSuffix("_" + name.uppercased()) else { return false }
        let digits = column.dropFirst().dropLast(name.count + 1)
        return !digits.isEmpty && digits.allSatisfy(\.isNumber)
    }

    /// Whether `column` is Core Data's bookkeeping rather than a property's own column: `Z_…` (keys, versions,
    /// positions) or `Z<n>_…` (entity numbers of to-one destinations).
    static func isPlumbing(_ column: String) -> Bool {
        column.hasPrefix(plumbingPrefix) || (column.dropFirst().first?.isNumber ?? false)
    }

    /// Whether `column` can be a property's own column (`Z<NAME>`, neither plumbing nor a bare `Z`).
    static func isPropertyColumn(_ column: String) -> Bool {
        column.hasPrefix("Z") && column.count > 1 && !isPlumbing(column)
    }

    /// The property name a column spells, lowercased (`ZTEXT1` → `text1`): all a store without a model says.
    static func property(ofColumn column: String) -> String {
        String(column.dropFirst()).lowercased()
    }

    /// The property name a column spells as it is written (`ZTEXT1` → `TEXT1`), for suggestions among columns.
    static func spelledProperty(ofColumn column: String) -> String {
        String(column.dropFirst())
    }

    /// The index Core Data puts on a to-one key column (`<TABLE>_<COLUMN>_INDEX`).
    static func keyIndex(of column: String, in table: String) -> String {
        "\(table)_\(column)_INDEX"
    }

    /// `Z_ENT IN (…)`: rows of these entity numbers (integers, so the SQL needs no binding).
    static func entityFilter(_ numbers: [Int64]) -> String {
        "\(entityNumber) IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }

    /// The SQLite index of fetch index `index` of `entity` (`Z_<Entity>_<index>`).
    package static func fetchIndexName(_ index: String, of entity: String) -> String {
        "\(plumbingPrefix)\(entity)_\(index)"
    }

    /// `Z_RT_<Entity>_`: the prefix of `entity`'s R-tree fetch indexes.
    static func fetchIndexPrefix(of entity: String) -> String {
        "\(fetchIndexPrefix)\(entity)_"
    }
}
