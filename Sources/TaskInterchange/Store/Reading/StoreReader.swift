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
    /// How generic ids are derived, by entity number (made on first use: the store and names above are set by then).
    var derivedIdentities: [Int64: DerivedIdentity] = [:]
    /// Per table, whether its keys are its rowids (see `keysAreRowids`).
    private var rowidKeys: [String: Bool] = [:]
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
        return KeyIndex(
            try StoreIdentity.read(
                resolvedKind, from: database, storeUUID: storeUUID, log: &log,
                selected: selected(kind)))
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
    /// keys are the table's rowids: a table whose `Z_PK` is not may hold text keys, which SQLite orders after every
    /// number.
    func idOrder(_ index: KeyIndex, rank: String, table: String) throws -> String {
        let key = CoreDataNames.primaryKey
        return try index.keysAscend && keysAreRowids(table) ? key : "\(rank)(\(key))"
    }

    /// The ORDER BY term that reads `table`'s rows in the order of their keys as `StoreIdentity.key` reads them.
    func keyOrder(_ table: String) throws -> String {
        let key = CoreDataNames.primaryKey
        return try keysAreRowids(table) ? key : "CAST(\(key) AS INTEGER)"
    }

    /// True when `table`'s `Z_PK` is its rowid, as in every table Core Data makes: every key is then an integer and
    /// the table is stored in key order. SQLite's own plan for a lookup by key says so.
    func keysAreRowids(_ table: String) throws -> Bool {
        if let known = rowidKeys[table] { return known }
        let plan = try database.rows(
            "EXPLAIN QUERY PLAN SELECT 1 FROM \(Database.quote(table)) WHERE \(CoreDataNames.primaryKey) = 1")
        let known = plan.contains { row in row.contains { $0.string?.contains("USING INTEGER PRIMARY KEY") == true } }
        rowidKeys[table] = known
        return known
    }

    /// Records are matched to their ids by position: a row that arrives out of id order would give its fields to
    /// another record's id, so it stops the export instead. Only a damaged table does that: one whose `Z_PK` is not
    /// its rowid and holds a repeated key or keys that read as the same integer (text `'7'` beside integer 7).
    func checkIdOrder(_ index: KeyIndex, key: Int64, position: Int, table: String) throws {
        guard index.rank(of: key) != position else { return }
        throw TaskInterchangeError(
            .invalidData,
            "\(table): its \(CoreDataNames.primaryKey) values are not distinct (two rows read as key \(key)), so its "
                + "rows cannot be told apart; nothing is exported from it")
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
