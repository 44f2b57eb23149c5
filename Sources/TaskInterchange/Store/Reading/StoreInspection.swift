import Foundation

/// A store audit: entities with tables, row counts and columns, join tables, the mapping `tasks` would use, and every
/// integrity finding (the export's own findings included).
public struct StoreInspection: Sendable, Codable {
    /// One entity.
    public struct Entity: Sendable, Codable, Hashable {
        /// Entity name.
        public var name: String
        /// `Z_ENT`.
        public var entityNumber: Int64
        /// Parent entity name, when it has one.
        public var superentity: String?
        /// Table holding its rows (nil when the table is missing).
        public var table: String?
        /// Rows of this entity and its sub-entities.
        public var count: Int
        /// `Z_MAX` as stored.
        public var maxKey: Int64
        /// Columns of its table (name and declared type).
        public var columns: [Column]
        /// The entity's version hash computed from the decoded model (base64, as in the metadata); nil without a
        /// model cache.
        public var versionHash: String?
        /// The hash recorded in `Z_METADATA` (`NSStoreModelVersionHashes`), base64.
        public var storedVersionHash: String?
    }

    /// One column.
    public struct Column: Sendable, Codable, Hashable {
        /// Column name.
        public var name: String
        /// Declared type.
        public var type: String
    }

    /// One many-to-many join table.
    public struct JoinTable: Sendable, Codable, Hashable {
        /// Table name.
        public var table: String
        /// Its two key columns.
        public var columns: [String]
        /// Its rows.
        public var count: Int
    }

    /// One table of the store file, whatever holds it.
    public struct Table: Sendable, Codable, Hashable {
        /// Table name.
        public var name: String
        /// What it is: `system`, `entity`, `internal` (persistent history, CloudKit), `join`, `rtree-index`,
        /// `virtual` (with `module`), `shadow` (with `owner`), or `app` (added by the app outside its model).
        public var kind: String
        /// A virtual table's module (`fts5`, `rtree`).
        public var module: String?
        /// The virtual table a shadow table stores.
        public var owner: String?
        /// Its rows; nil when SQLite cannot read them (a virtual table of a module it lacks).
        public var count: Int?
        /// What a whole-store export does with it: `records` (its rows are entity records or links), `raw` (carried
        /// in the archive's tables section), `derived` (rebuilt from other tables), `core-data` (Core Data's own),
        /// or `not carried` (named in an `uncarried-table` finding).
        public var export: String
    }

    /// The store path as given.
    public var store: String
    /// `Z_METADATA.Z_UUID`.
    public var storeUUID: String?
    /// Entities in `Z_ENT` order.
    public var entities: [Entity]
    /// Many-to-many join tables.
    public var joinTables: [JoinTable]
    /// Every table of the file by name, with its kind and rows.
    public var tables: [Table] = []
    /// The mapping detected (or given), as a mapping file holds it (``StoreMapping/init(contentsOf:)``).
    public var mapping: StoreMapping
    /// Kind → property → declaration: the relationships an export carries under `extra` with this mapping.
    public var extraRelationships: [String: [String: ExtraRelationship]]
    /// The app's model, decoded from `Z_MODELCACHE`; nil when the store has none (old frameworks).
    public var model: ObjectModel?
    /// Where the entity and property information comes from (the model cache, or the schema alone).
    public var modelSource: String
    /// Triggers that keep derived attributes up to date (`Z_DA_*`); they call a function only Core Data registers.
    public var derivedAttributeTriggers: [String]
    /// Integrity and export findings.
    public var findings: [StoreFinding]
    /// Where the layout computed from the model (the columns Core Data gives every property) and the store's tables
    /// disagree; empty when they agree or the store has no model cache.
    public var layoutDifferences: [String] = []

    /// Audits the store at `path`, read as one committed state through a private snapshot (the store's files are not
    /// changed, and it may be in use).
    /// - Throws: ``TaskInterchangeError`` when the store cannot be read (`.noInput`, `.invalidData` for a file that is
    ///   not an SQLite store, `.busy` when a writer holds it past `busyTimeout` milliseconds, `.cancelled`).
    public init(store path: String, mapping: StoreMapping? = nil, busyTimeout: Int32 = 5_000) throws {
        try self.init(snapshot: StoreSnapshot(path: path, busyTimeout: busyTimeout), mapping: mapping)
    }

    /// Audits a store.
    /// - Throws: ``TaskInterchangeError`` when the store cannot be read.
    /// - Parameter appModel: the app's model, for a store that keeps no model cache.
    package init(
        snapshot: StoreSnapshot, mapping: StoreMapping? = nil, mappingSource: String = "mapping",
        appModel: ObjectModel? = nil
    ) throws {
        let reader = try StoreReader(
            snapshot: snapshot, mapping: mapping, mappingSource: mappingSource, model: appModel)
        let database = snapshot.database
        let schema = reader.schema
        store = snapshot.path
        storeUUID = schema.storeUUID
        self.mapping = reader.mapping
        extraRelationships = reader.relationshipDeclarations
        layoutDifferences = schema.layout?.differences ?? []
        derivedAttributeTriggers = schema.triggers.filter { $0.hasPrefix(CoreDataNames.derivedAttributeTriggerPrefix) }
        var log = FindingLog()
        // A damaged cache is a finding, not a failure: the schema still describes the store.
        var model = appModel
        var damaged = false
        do {
            if model == nil { model = try ObjectModel(modelCacheOf: snapshot) }
        } catch {
            damaged = true
            log.add(.modelCache, entity: nil, message: StoreFinding.damagedModelCache(error))
        }
        self.model = model
        modelSource =
            appModel != nil
            ? "the app's model, as given"
            : damaged
                ? "model cache present but damaged; entities and columns read from the schema"
                : model == nil
                    ? "no model cache; entities and columns read from the schema"
                    : "decoded from \(CoreDataNames.modelCacheTable)"
        let computed = model?.versionHashes ?? [:]
        let stored = (try? StoreMetadata(of: snapshot))??.versionHashes ?? [:]
        func base64(_ bytes: [UInt8]?) -> String? { bytes.map { Data($0).base64EncodedString() } }
        do {
            entities = try schema.entities.map { entity in
                var count = 0
                if let table = entity.table {
                    count = Int(
                        try database.scalar(
                            """
                            SELECT count(*) FROM \(Database.quote(table)) WHERE \
                            \(CoreDataNames.entityFilter(entity.numbersIncludingSubentities))
                            """
                        )?.int64 ?? 0)
                }
                return Entity(
                    name: entity.name, entityNumber: entity.number,
                    superentity: entity.superNumber == 0 ? nil : schema.entity(number: entity.superNumber)?.name,
                    table: entity.table, count: count, maxKey: entity.maxKey,
                    columns: (entity.table.flatMap(schema.columns(of:)) ?? []).map {
                        Column(name: $0.name, type: $0.declaredType)
                    },
                    versionHash: base64(computed[entity.name]), storedVersionHash: base64(stored[entity.name]))
            }
            for entity in entities
            where entity.versionHash != nil && entity.storedVersionHash != nil
                && entity.versionHash != entity.storedVersionHash
            {
                log.add(
                    .versionHashMismatch, entity: entity.name,
                    message:
                        """
                        the version hash computed from the model cache differs from the one in \
                        \(CoreDataNames.metadataTable) (the cache and the store disagree, or the hash rules miss a \
                        model feature)
                        """
                )
            }
            joinTables = try schema.tables.keys.sorted().compactMap { table -> JoinTable? in
                guard schema.kind(of: table) == .join else { return nil }
                let count = Int(try database.scalar("SELECT count(*) FROM \(Database.quote(table))")?.int64 ?? 0)
                return JoinTable(table: table, columns: (schema.columns(of: table) ?? []).map(\.name), count: count)
            }
            for entity in schema.entities where entity.superNumber == 0 {
                guard let table = entity.table else { continue }
                let largest = try database.scalar(CoreDataNames.largestKey(in: table))?.int64 ?? 0
                if largest > entity.maxKey {
                    log.add(
                        .maxKeyBelowKeys, entity: entity.name,
                        message:
                            """
                            \(CoreDataNames.maxKeyColumn) is \(entity.maxKey) but \(table) holds key \(largest); \
                            the app's next insert would collide (an import into the store corrects it)
                            """
                    )
                }
                guard !entity.isInternal else { continue }
                let nullVersions =
                    try database.scalar(
                        "SELECT count(*) FROM \(Database.quote(table)) WHERE \(CoreDataNames.version) IS NULL")?.int64
                    ?? 0
                if nullVersions > 0 {
                    log.add(
                        .nullVersion, entity: entity.name, message: "rows with a NULL \(CoreDataNames.version)",
                        count: Int(nullVersions))
                }
            }
            if schema.tables["ATRANSACTION"] != nil || schema.tables["ACHANGE"] != nil {
                log.add(
                    .historyTracking, entity: nil,
                    message: "the store records persistent history (ATRANSACTION/ACHANGE)")
            }
            if schema.tables.keys.contains(where: { $0.hasPrefix(CoreDataNames.cloudKitMirroringPrefix) }) {
                log.add(.cloudKitMirroring, entity: nil, message: "the store holds CloudKit mirroring tables (ANSCK*)")
            }
            if snapshot.readFromCopy {
                log.add(
                    .walData, entity: nil,
                    message:
                        """
                        committed data lives in the -wal file (read as one \
                        committed state; the store's files were not changed)
                        """
                )
            }
            if !schema.triggers.isEmpty || !schema.views.isEmpty {
                let parts = [("triggers", schema.triggers), ("views", schema.views)].filter { !$0.1.isEmpty }
                    .map { "\($0.0): \($0.1.joined(separator: ", "))" }
                log.add(
                    .schemaObjects, entity: nil,
                    message: parts.joined(separator: "; ") + " (never run or read by tasks)")
            }
            let check = try database.rows("PRAGMA quick_check").compactMap { $0.first?.string }
            if check != ["ok"] {
                log.add(
                    .corruption, entity: nil, message: "PRAGMA quick_check: \(check.prefix(5).joined(separator: "; "))")
            }
        } catch let error as SQLiteError {
            throw TaskInterchangeError.sqlite(error, path: snapshot.path, doing: "cannot inspect the store")
        }
        var discard = DiscardingVisitor()
        try reader.read(into: &discard)
        findings = log.findings + reader.findings
        let uncarried = Set(reader.findings.filter { $0.code == .uncarriedTable }.compactMap(\.entity))
        tables = schema.tableKinds.keys.sorted().map { name in
            Self.table(name, schema: schema, uncarried: uncarried, database: database)
        }
    }

    private static func table(_ name: String, schema: StoreSchema, uncarried: Set<String>, database: Database)
        -> Table
    {
        let count = (try? database.scalar("SELECT count(*) FROM \(Database.quote(name))"))??.int64.map { Int($0) }
        var table = Table(name: name, kind: "app", count: count, export: "raw")
        switch schema.kind(of: name) {
        case .system?: (table.kind, table.export) = ("system", "core-data")
        case .entity?: (table.kind, table.export) = ("entity", "records")
        case .internalEntity?: (table.kind, table.export) = ("internal", "core-data")
        case .join?: (table.kind, table.export) = ("join", "records")
        case .rtreeIndex?:
            table.kind = "rtree-index"
            table.export = schema.fetchIndexSource(of: name) == nil ? "raw" : "derived"
        case .virtual(let module)?: (table.kind, table.module) = ("virtual", module)
        case .shadow(let owner)?: (table.kind, table.owner, table.export) = ("shadow", owner, "derived")
        case .app?, nil: break
        }
        if uncarried.contains(name) { table.export = "not carried" }
        return table
    }
}

/// Reads and forgets; used where only a reader's findings matter.
struct DiscardingVisitor: ArchiveVisitor {
    mutating func visitProject(_ project: ProjectRecord, index: Int) {}
    mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
    mutating func visitTag(_ tag: TagRecord, index: Int) {}
    mutating func visitTask(_ task: TaskRecord, index: Int) {}
    mutating func visitIssue(_ issue: ValidationIssue) {}
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}
}
