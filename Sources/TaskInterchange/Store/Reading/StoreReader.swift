import Foundation

/// Streams a Core Data store's records, sorted by id within each kind, to an `ArchiveVisitor`, and records everything
/// it
/// could not carry exactly as findings.
///
/// Not `Sendable`: it reads through one connection.
final class StoreReader {
    /// The store's schema as read from its system tables.
    let schema: StoreSchema
    /// The mapping in use (given or detected).
    var mapping: StoreMapping { resolved.mapping }
    /// What the reader noticed; complete once `read(into:)` returns.
    var findings: [StoreFinding] { log.findings }

    let snapshot: StoreSnapshot
    let resolved: ResolvedMapping
    /// Columns carried under `extra` (empty when the output format has no place for them).
    let extras: StoreExtras
    /// Relationships carried under `extra` (none when the output format has no place for them).
    let relationships: StoreRelationships
    /// Each kind's id index, built before any record is read (relationships may point at any kind).
    var indexes: [StoreMapping.Kind: KeyIndex] = [:]
    /// To-many relationships read ahead, by owner kind.
    var linkTables: [StoreMapping.Kind: [LinkTable]] = [:]
    var log = FindingLog()
    var database: Database { snapshot.database }
    /// The entities no kind reads, carried in the generic section (none for format version 1).
    let generic: GenericLayout
    /// Every stored value against what was read, once `read(into:)` returns (nil for a selection or format 1,
    /// which carry part of the store by design).
    var cells: CellAccount?
    /// Where the store keeps externally stored values.
    lazy var externalData = ExternalData(store: snapshot.path)
    /// The external files the last `extraValues` call read, by property.
    var externalFiles: [String: String] = [:]
    /// False for format version 1, which has no place for extras and generic entities.
    let carriesEverything: Bool
    /// Records written per generic entity, once `read(into:)` returns.
    public internal(set) var genericCounts: [String: Int] = [:]
    /// The store UUID generic ids are derived from, when not the store's own (`verify` names a target's records as
    /// the file's source store did).
    var genericIdentity: String?
    /// Entity → the name its generic ids derive from instead of its own (an entity a model change renamed, read to be
    /// compared with an archive of the old version).
    var identityNames: [String: String] = [:]
    /// `Z_PK → Z_ENT` of the tables generic links point into.
    var entityNumbers: [String: [Int64: Int64]] = [:]
    /// Where links to rows of each entity number go (worked out on first use: the store, names and selection are set
    /// by then).
    var linkDestinations: [Int64: LinkDestination] = [:]
    /// Set when the records become an archive, which holds only keys from 1 (see `checkArchivable`); a comparison or
    /// an inspection reads any key.
    var writesArchive = false
    /// Per join table and owner column, how many rows the generic records took their links from (the value
    /// accounting counts the rest as not exported).
    var joinRowsHandedOut: [[String]: Int] = [:]
    /// Per `table.column`, whether it has INTEGER affinity (see `hasIntegerAffinity`).
    private var integerAffinity: [String: Bool] = [:]
    /// What the export carries; `selection` holds its kept rows once `read(into:)` has started.
    let requested: ExportSelection
    var selection: StoreSelection?

    /// Prepares to read `snapshot` with `mapping`, or with a mapping detected from entity and column names when nil.
    /// - Parameter mappingSource: how to name the mapping in errors (its file path).
    /// - Throws: `TaskInterchangeError.invalidData` when the store is not a Core Data store or the mapping does not fit
    /// it.
    /// - Parameter carryExtras: read the properties the interchange has no field for into each record's `extra`
    ///   (false for format version 1, which has no place for them: they are reported instead).
    /// - Parameter selection: which records to carry (all by default).
    /// - Parameter model: the app's model, for a store without a model cache (its cache is used when nil).
    /// - Parameter carrying: relationships (`Entity.property`) to read from their side of each pair, whichever side
    ///   the store's own rule would carry (an archive of an older version, compared after a model change).
    init(
        snapshot: StoreSnapshot, mapping: StoreMapping? = nil, mappingSource: String = "mapping",
        carryExtras: Bool = true, selection: ExportSelection = ExportSelection(),
        model given: ObjectModel? = nil, carrying preferredSides: Set<String> = []
    ) throws(TaskInterchangeError) {
        self.snapshot = snapshot
        self.requested = selection
        self.carriesEverything = carryExtras
        if snapshot.recoveredHotJournal { log.add(.hotJournal, entity: nil, message: StoreFinding.hotJournalMessage) }
        var schema = try StoreSchema(reading: snapshot.database, path: snapshot.path)
        // A damaged model cache only costs exact names, types and relationships: a warning, then read as without one.
        var model = given
        if model == nil {
            do {
                model = try ObjectModel(modelCacheOf: snapshot)
            } catch {
                log.add(.modelCache, entity: nil, message: StoreFinding.damagedModelCache(error))
            }
        }
        schema.locate(with: model)
        self.schema = schema
        let chosen = mapping ?? StoreMapping(detectingFrom: schema, model: model)
        let resolved = try ResolvedMapping(
            chosen, schema: schema, source: mapping == nil ? "detected mapping" : mappingSource)
        self.resolved = resolved
        for missing in schema.layout?.missingColumns ?? [] {
            log.add(
                .missingProperty, entity: missing.entity, property: missing.property,
                message: "the model keeps this property in \(missing.column), which the store does not have; "
                    + "read as absent")
        }
        for missing in resolved.missing {
            log.add(
                .missingProperty, entity: missing.entity, property: missing.property,
                message: missing.message("this store's", "read as absent"))
        }
        relationships =
            carryExtras ? StoreRelationships(resolved: resolved, schema: schema, model: model) : StoreRelationships()
        extras =
            carryExtras
            ? StoreExtras(resolved: resolved, schema: schema, model: model, relationships: relationships)
            : StoreExtras()
        let mapped = Set(resolved.kinds.values.flatMap(\.entity.numbersIncludingSubentities))
        generic =
            carryExtras
            ? GenericLayout(schema: schema, model: model, excluded: mapped, preferredSides: preferredSides)
            : GenericLayout()
        for note in generic.notes {
            log.add(
                note.message.contains("untyped") ? .untypedColumn : .unmappedRelationship, entity: note.entity,
                property: note.property, message: note.message)
        }
    }

    /// The `source.model` declarations of the entities the generic section carries.
    public var entityDeclarations: [String: EntityDeclaration] {
        generic.declarations
    }

    /// The `source.relationships` declarations of the relationships carried under `extra`.
    var relationshipDeclarations: [String: [String: ExtraRelationship]] {
        relationships.declarations
    }

    /// The store UUID used in derived ids (`Z_METADATA.Z_UUID`, or the empty string for stores without one).
    var storeUUID: String { schema.storeUUID ?? "" }

    /// The entity name read for each mapped kind, for the archive's `source`.
    var entityNames: [String: String] {
        Dictionary(uniqueKeysWithValues: resolved.kinds.map { ($0.key.rawValue, $0.value.entity.name) })
    }

    /// Reads every mapped kind and hands the records to `visitor` in export order: projects, categories, tags, tasks
    /// (each sorted by id, subtasks nested in their task's order).
    /// - Throws: `TaskInterchangeError` for store failures; the visitor's own errors unchanged.
    /// - Parameter progress: called every 10,000 tasks with (tasks done, tasks in the store).
    func read(into visitor: inout some ArchiveVisitor, progress: (@Sendable (Int, Int) -> Void)? = nil) throws {
        do {
            try survey()
            if !requested.isEverything { try select() }
            for kind in StoreMapping.Kind.allCases { indexes[kind] = try index(kind) }
            reportBroughtAlong()
            try readLinks()
            try emitRecords(ProjectRecord.self, indexes[.project]!, into: &visitor)
            try emitRecords(CategoryRecord.self, indexes[.category]!, into: &visitor)
            try emitRecords(TagRecord.self, indexes[.tag]!, into: &visitor)
            try emitTasks(
                projects: indexes[.project]!, categories: indexes[.category]!, tags: indexes[.tag]!, into: &visitor,
                progress: progress)
            reportUnreadLinks()
            try emitEntities(into: &visitor)
            try emitTables(into: &visitor)
            if requested.isEverything && carriesEverything { cells = try accountCells() }
            indexes = [:]
            entityNumbers = [:]
        } catch let error as SQLiteError {
            throw TaskInterchangeError.sqlite(error, path: snapshot.path, doing: "reading failed")
        }
    }

    /// Builds the id index of one kind.
    func index(_ kind: StoreMapping.Kind) throws -> KeyIndex {
        guard let resolvedKind = resolved.kinds[kind] else { return KeyIndex([]) }
        let entries = try StoreIdentity.read(
            resolvedKind, from: database, storeUUID: storeUUID, log: &log, selected: selected(kind),
            store: snapshot.path)
        if let lowest = entries.lazy.map(\.key).min() { try checkArchivable(lowest, table: resolvedKind.table) }
        return KeyIndex(entries)
    }

    /// Core Data's keys start at 1, and an archive holds no other: a lower one is a damaged table's, which an export
    /// cannot carry.
    func checkArchivable(_ key: Int64, table: String) throws {
        guard writesArchive, key < 1 else { return }
        throw TaskInterchangeError(
            .invalidData,
            "\(snapshot.path): \(table): a row's \(CoreDataNames.primaryKey) is \(key), not a key Core Data gives "
                + "(they start at 1), and an archive holds no other (the table is damaged)")
    }

    /// The condition that keeps only the selected rows of `kind` (by `column`, a key of that kind); empty when
    /// everything is exported.
    func selected(_ kind: StoreMapping.Kind, _ column: String = CoreDataNames.primaryKey) -> String {
        selection?.condition(kind, column) ?? ""
    }

    /// Whether references to `kind` are dropped because the selection excludes its entity.
    func isExcluded(_ kind: StoreMapping.Kind) -> Bool {
        selection?.excluded.contains(kind) ?? false
    }

    /// Registers `name(Z_PK)` → rank for ORDER BY, and returns the name.
    func rankFunction(_ name: String, _ index: KeyIndex) throws -> String {
        try database.createFunction(name) { key in index.rank(of: key).map(Int64.init) }
        return name
    }

    /// The ORDER BY term that reads a kind's rows in id order: the table's own key order when keys rise with ids
    /// (SQLite then streams rows without sorting them first), else `rank(Z_PK)`. Key order is taken only when the
    /// keys are stored as integers (see `keyOrder`).
    func idOrder(_ index: KeyIndex, rank: String, table: String) throws -> String {
        let key = CoreDataNames.primaryKey
        return try index.keysAscend && hasIntegerAffinity(table, key) ? key : "\(rank)(\(key))"
    }

    /// The ORDER BY term that reads `table`'s rows in the order of the keys `column` holds, as they are read
    /// (`Statement.exactInteger`): the column itself when SQLite stores every such key in it as an integer (a column
    /// of INTEGER affinity, as Core Data declares every key column), else its values cast to integers, since SQLite
    /// orders text after every number.
    func keyOrder(_ table: String, _ column: String = CoreDataNames.primaryKey) throws -> String {
        let quoted = Database.quote(column)
        return try hasIntegerAffinity(table, column) ? quoted : "CAST(\(quoted) AS INTEGER)"
    }

    /// True when `table`'s `column` has INTEGER affinity (its declared type contains `INT`): SQLite then stores any
    /// value that is exactly an integer as one.
    func hasIntegerAffinity(_ table: String, _ column: String) throws -> Bool {
        let name = table + "." + column
        if let known = integerAffinity[name] { return known }
        let type = try database.scalar(
            "SELECT type FROM pragma_table_info(?1) WHERE name = ?2 COLLATE NOCASE", [.text(table), .text(column)])
        let known = type?.string?.uppercased().contains("INT") ?? false
        integerAffinity[name] = known
        return known
    }

    /// Records are matched to their ids by position: a row that arrives out of id order would give its fields to
    /// another record's id, so it stops the export instead. Only a damaged table does that: one whose `Z_PK` is not
    /// its rowid and holds a repeated key or keys that read as the same integer (text `'7'` beside integer 7).
    func checkIdOrder(_ index: KeyIndex, key: Int64, position: Int, table: String) throws {
        guard index.rank(of: key) != position else { return }
        throw repeatedKey(key, table: table)
    }

    /// A damaged table's rows that read as one key.
    func repeatedKey(_ key: Int64, table: String) -> TaskInterchangeError {
        TaskInterchangeError(
            .invalidData,
            "\(snapshot.path): \(table): its \(CoreDataNames.primaryKey) values are not distinct (two rows read as key \(key)), so its "
                + "rows cannot be told apart (the table is damaged)")
    }

    /// A kind's field select list (`FieldColumns.selectList`) followed by its extra columns.
    func selectList(_ fields: String, _ kind: RecordKind) -> String {
        ([fields] + extraColumns(kind).map { Database.quote($0.column) }).joined(separator: ", ")
    }

    func extraColumns(_ kind: StoreMapping.Kind) -> [StoreExtras.Column] {
        extras.columns[kind] ?? []
    }
}

@available(*, unavailable, message: "A reader owns an SQLite connection.")
extension StoreReader: Sendable {}
