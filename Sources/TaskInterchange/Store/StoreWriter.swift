import Foundation

/// Writes the interchange's records into a Core Data store under Core Data's invariants: keys handed out from the root
/// entity's `Z_MAX` (written back in the same transaction), the concrete `Z_ENT`, `Z_OPT` 1 on insert and +1 on update,
/// every relationship column, ordered position and join row filled, `Z_METADATA`/`Z_MODELCACHE` untouched, and the
/// import recorded in the store's persistent history when it tracks one (`StoreWriter+History.swift`).
///
/// Not `Sendable`: it owns a connection.
final class StoreWriter: ImportDestination {
    /// Primary keys (`Z_PK`) name objects in a store.
    typealias ObjectKey = Int64

    /// The target store's schema.
    var schema: StoreSchema
    /// Things the user should know about the target (history tables it cannot write, repaired `Z_MAX`, ids it cannot
    /// keep).
    package internal(set) var warnings: [String] = []

    let database: Database
    let path: String
    let resolved: ResolvedMapping
    let busyTimeout: Int32
    /// The store's `-wal` was there before this writer opened it (so closing without a checkpoint leaves nothing new).
    private var hadWAL = false
    /// Set when a transaction committed; until then, closing leaves the store's files as they were.
    private var committed = false
    var existing: [StoreMapping.Kind: [UUIDKey: Int64]] = [:]
    /// The keys this import hands out and keeps (`StoreWriter+Keys.swift`).
    var keyAllocator = KeyAllocator()
    var rowStatements: [StoreMapping.Kind: RowStatements] = [:]
    /// `kind.property` → where its extra values go (nil: nowhere in this target).
    var extraTargets: [String: ExtraTarget?] = [:]
    /// `Entity.property` → extra values that had no column in the target.
    var unplacedExtras: [String: Int] = [:]
    /// Interchange fields the target maps no property to, by `Entity.field`: values counted for a warning.
    var unplacedFields: [String: Int] = [:]
    /// True for a store this writer created: its indexes and WAL mode come at the end of the bulk load.
    private(set) var isNew = false
    /// A new store's indexes (and a template's triggers), created after the bulk load.
    private var laterStatements: [StoreTemplate.SchemaObject] = []
    /// The entity numbers written into `Z<n>_` columns beside references to projects, categories and tasks, worked
    /// out once, not per row.
    var referencedEntities: (project: Int64?, category: Int64?, task: Int64?) = (nil, nil, nil)
    var preparedStatements: [String: Statement] = [:]
    /// The task–tag join rows to write at the end of the import (`writeTagLinks`).
    var tagLinks = LinkQueue()
    /// `kind.relationship` → where its links go (nil: nowhere in this target).
    var linkTargets: [String: LinkTarget?] = [:]
    /// What the import changed, for the persistent history rows written at its end (nil when the target does not
    /// track history).
    var history: HistoryRecorder?
    /// The target's own model, from its model cache (nil without one, or when it cannot be decoded).
    let targetModel: ObjectModel?
    /// `Entity.relationship` → owners whose archive value had several ids for a to-one in the target.
    var toOneOverflows: [String: Int] = [:]
    /// `Entity.property` → references to external files the source lacked, which a target keeping the attribute in
    /// its rows has no place for (there is no value to write).
    var missingFileReferences: [String: Int] = [:]
    /// The target's entities no kind reads: where generic records go.
    lazy var genericLayout: GenericLayout = {
        let typed = Set(resolved.kinds.values.flatMap(\.entity.numbersIncludingSubentities))
        return GenericLayout(schema: schema, model: targetModel, excluded: typed)
    }()
    /// Prepared row statements per generic entity.
    var entityStatements: [String: EntityStatements] = [:]
    /// `SELECT Z_ENT … WHERE Z_PK = ?` per table, for the entity columns of generic links.
    var entityNumberStatements: [String: Statement] = [:]
    /// Prepared statements per generic relationship (`Entity.property`).
    var entityLinkStatements: [String: LinkStatements] = [:]
    /// Replace mode: the objects removed before the archive's records are written (`removeAll`).
    var replaced = ReplacedObjects()
    /// Generic objects already in the target, by entity then id (derived from the target's store UUID).
    var existingEntities: [String: [UUID: Int64]] = [:]
    /// `Entity.property` → generic values the target had no place for, since the last `lackingProperties()`.
    var lackingEntityValues: [String: Int] = [:]
    /// Links written so far to each object through its side of a pair the archive carried from the other side.
    var inverseLinkCounts: [String: Int] = [:]
    /// The archive is of another version of the target's model (see `VersionMapping`): a pair it carries from the
    /// side the target does not is written from the other side.
    var modelChanged = false
    /// Restore identity: a new store takes the archive's store UUID, and every generic record its key (`Z_PK`).
    public var keepIdentity = false
    /// The archive's declarations as the target names them (`source.model`, and the typed kinds' relationships as
    /// `Kind.property`): a one-to-one whose both sides the archive carries is written side by side, as the source
    /// held it; one carried from one side only (an older archive, another producer) sets both columns. Nil: unknown,
    /// both set.
    var archiveDeclarations: [String: EntityDeclaration]?
    var archiveRelationships: [String: [String: ExtraRelationship]]?
    /// `Entity.property` → dangling keys left out (an import that does not keep identity), since the last report.
    var droppedDanglingKeys: [String: Int] = [:]
    /// The store whose external data directory takes externally stored values: the store itself, or for a new store
    /// built in a temporary file, the path it will be placed at.
    var externalStore: String?
    /// Entity → the name its records' ids derive from, for entities a model change renamed: the archive's ids were
    /// derived from the old name (see `VersionMapping.identityNames`).
    var identityNames: [String: String] = [:]
    /// Rows the store held that an import's duplicates were merged into: the links they gain follow their own.
    var keptOverDuplicates: Set<KeptRow> = []

    /// A generic entity's row.
    struct KeptRow: Hashable {
        var entity: String
        var key: Int64
    }
    /// External files this import writes; a new store's wait for the store to be placed (`StoreImport`), an existing
    /// store's are placed just before its transaction commits.
    lazy var externalDataWriter = ExternalDataWriter(store: externalStore ?? path)

    /// Opens an existing store for writing (`create: false`), or creates the task manager's model in a new, empty file.
    /// - Throws: `TaskInterchangeError` (`.busy` when locked, `.invalidData` when not a Core Data store or the mapping
    ///   does not fit, `.cannotCreate` when the file cannot be created).
    /// - Parameter template: with `create`, take the new store's schema and metadata from this template instead of the
    ///   built-in task manager model's (`TaskManagerModel.template`).
    init(
        path: String, create: Bool, template: StoreTemplate? = nil, mapping: StoreMapping? = nil,
        mappingSource: String = "mapping", busyTimeout: Int32 = 5_000, model: ObjectModel? = nil
    ) throws(TaskInterchangeError) {
        self.path = path
        self.busyTimeout = busyTimeout
        do {
            if create {
                let database = try Database(path: path, mode: .create, busyTimeout: busyTimeout)
                // A new store is a private temporary file until it is complete, and is deleted on any failure: a
                // journal and fsyncs would only slow the bulk load. `finish()` switches it to WAL, as Core Data has it.
                try database.execute(
                    "PRAGMA auto_vacuum = 2; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
                        + "PRAGMA cache_size = -65536"
                )
                let layout = template ?? TaskManagerModel.template
                try database.inTransaction { try layout.create(in: database) }
                self.database = database
                laterStatements = layout.laterStatements
                isNew = true
            } else {
                hadWAL = access(FileIdentity.resolved(path) + "-wal", F_OK) == 0
                database = try Database(path: path, mode: .readWrite, busyTimeout: busyTimeout)
                // Locked before anything is read: the schema, ids and keys the import relies on cannot change until
                // it commits or rolls back (another import waits here, up to the busy timeout).
                try database.execute("BEGIN IMMEDIATE")
            }
            schema = try StoreSchema(reading: database, path: path)
        } catch let error as TaskInterchangeError {
            throw error
        } catch let error as SQLiteError {
            if create && !error.isBusy {
                throw TaskInterchangeError(.cannotCreate, "\(path): cannot create the store: \(error.message)")
            }
            // A store that exists but cannot be opened for writing (a read-only mount, say) is an output problem.
            let failure = TaskInterchangeError.sqlite(error, path: path, doing: "cannot open the store for writing")
            throw failure.kind == .noInput ? failure.withKind(.cannotCreate) : failure
        } catch {
            throw TaskInterchangeError(.internal, "\(path): \(error)")
        }
        // A store made from a model has no model cache; the model itself then names and types its properties.
        targetModel =
            (create ? (template ?? TaskManagerModel.template).model : model)
            ?? (try? ObjectModel(modelCacheIn: database, path: path)) ?? nil
        schema.locate(with: targetModel)
        resolved = try Self.resolve(
            mapping, schema: schema, model: targetModel, path: path, mappingSource: mappingSource)
        try prepare()
    }

    /// The given mapping, or one detected with property names spelled as the target's model has them.
    private static func resolve(
        _ mapping: StoreMapping?, schema: StoreSchema, model: ObjectModel?, path: String,
        mappingSource: String
    ) throws(TaskInterchangeError) -> ResolvedMapping {
        try ResolvedMapping(
            mapping ?? StoreMapping(detectingFrom: schema, model: model), schema: schema,
            source: mapping == nil ? "detected mapping of \(path)" : mappingSource)
    }

    /// Checks the target can take tasks, loads its ids, and notes what the user should know.
    private func prepare() throws(TaskInterchangeError) {
        for missing in resolved.missing {
            warnings.append(
                "\(missing.entity).\(missing.property): "
                    + missing.message("the target's", "the archive's values for it are not imported"))
        }
        referencedEntities = (
            resolved.kinds[.project]?.entity.number, resolved.kinds[.category]?.entity.number,
            resolved.kinds[.task]?.entity.number
        )
        do {
            try loadExistingIDs()
        } catch let error as SQLiteError {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read the target store")
        } catch {
            throw TaskInterchangeError(.internal, "\(path): \(error)")
        }
        // Warns when the history tables are not as Core Data writes them.
        if let entities = historyEntities() { history = HistoryRecorder(entities: entities) }
        // A store with no task entity takes generic records only; typed records fail when they reach it.
        for kind in StoreMapping.Kind.allCases where resolved.kinds[kind] == nil && resolved.kinds[.task] != nil {
            warnings.append(
                "the target store has no \(kind.rawValue) entity; \(kind.rawValue) records cannot be imported")
        }
        for (kind, resolvedKind) in resolved.kinds.sorted(by: { $0.key < $1.key })
        where resolvedKind.columns["id"] == nil {
            warnings.append(
                "the target's \(resolvedKind.entity.name) has no UUID attribute: \(kind.rawValue) ids derive from its "
                    + "keys, and are kept only where the archive's keys are (a store that never had such rows)"
            )
        }
    }

    /// Whether the store holds a record of a kind with an id, for the validator: looked up in this writer's maps as
    /// they are when this is called, not copied into sets.
    var existingLookup: @Sendable (RecordKind, UUID) -> Bool {
        let maps = existing
        return { maps[$0]?[UUIDKey($1)] != nil }
    }

    private func loadExistingIDs() throws {
        var log = FindingLog()
        for (kind, resolvedKind) in resolved.kinds {
            let entries = try StoreIdentity.read(
                resolvedKind, from: database, storeUUID: schema.storeUUID ?? "", log: &log)
            existing[kind] = Dictionary(
                entries.map { (UUIDKey($0.id), $0.key) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Gives a new store the source's store UUID (`Z_METADATA.Z_UUID`), so object URIs and the ids derived from
    /// them are the source's, and its root entities the keys the source handed out (`maxKeys`, by target root: see
    /// `targetMaxKeys(of:mapping:)`), so none of them, deleted objects' too, is handed out again.
    /// - Throws: `TaskInterchangeError.usage` for an existing store.
    func adoptIdentity(storeUUID uuid: String, maxKeys: [String: Int64]) throws {
        guard isNew else {
            throw TaskInterchangeError(.usage, "\(path): \(setting: .keepIdentity) restores into a new store only")
        }
        try database.prepare(CoreDataNames.writeStoreUUID).execute([.text(uuid)])
        schema.storeUUID = uuid
        let raise = try database.prepare(
            CoreDataNames.raiseMaxKeyOfRootNamed)
        for (entity, maxKey) in maxKeys.sorted(by: { $0.key < $1.key }) {
            try raise.execute([.integer(maxKey), .text(entity)])
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, records what it changed in the store's persistent history
    /// when the store tracks it, and writes the new `Z_MAX` values before committing; any error rolls everything back.
    /// - Throws: `TaskInterchangeError.busy` when another process holds the store; `body`'s errors.
    func transaction<R>(_ body: () throws -> R) throws -> R {
        // What a rolled-back body recorded must not reach the next transaction's history.
        defer {
            history?.clear()
            tagLinks.removeAll()
            replaced = ReplacedObjects()
        }
        do {
            let external = isNew ? [] : externalColumns
            let (result, released) = try database.inTransaction {
                let before = try referencedExternalFiles(in: external)
                let changesBefore = database.totalChanges
                let result = try body()
                // Triggers never fire on this connection: the fetch indexes they would keep are rebuilt instead.
                if isNew || database.totalChanges != changesBefore { try rebuildFetchIndexes() }
                try writeTagLinks()
                noteReplacedDeletions()
                try writeHistory()
                try writeMaxKeys()
                reportUnplacedExtras()
                reportDroppedDanglingKeys()
                // A template's triggers come last, after the rows: they would not fire on this connection anyway,
                // and Core Data's call functions only it registers (`NSCoreDataTriggerUpdateAffectedObjectValue`).
                if isNew { for object in laterStatements { try object.execute(in: database) } }
                if !isNew { try externalDataWriter.place() }
                let released = before.isEmpty ? [] : before.subtracting(try referencedExternalFiles(in: external))
                // A signal that arrived after the last record's checkpoint still stops the import before it commits.
                try Cancellation.checkpoint()
                return (result, released)
            }
            if !isNew {
                externalDataWriter.keep()
                externalDataWriter.remove(released)
            }
            committed = true
            if isNew {
                try database.execute("PRAGMA synchronous = FULL")
                _ = try database.rows("PRAGMA journal_mode = WAL")
                isNew = false
            }
            return result
        } catch {
            externalDataWriter.discard()
            throw Self.classify(error, path: path, doing: "import failed, nothing was written")
        }
    }

    deinit {
        // A refused or failed import rolled back; without a checkpoint on close the store's files stay byte for byte
        // as they were (a checkpoint would move the WAL's committed pages into the main file). A `-wal` this writer
        // created is empty, and SQLite removes it on close only with the checkpoint.
        if !committed && hadWAL { database.disableCheckpointOnClose() }
    }

    static func classify(_ error: any Error, path: String, doing action: String) -> any Error {
        if let error = error as? SQLiteError { return TaskInterchangeError.sqlite(error, path: path, doing: action) }
        return error
    }

    /// Copies the store, as it is before this writer changes anything, to a new file at `destination` (through a
    /// second, read-only connection and SQLite's online backup API) with its external files beside it
    /// (`ExternalDataBackup`); the file and its files appear only when complete. The files this import replaces stay
    /// with the backup: they are linked there before anything is removed.
    /// - Throws: `.cannotCreate` (nothing is left at `destination`), `.cancelled`.
    func backup(to destination: String) throws(TaskInterchangeError) {
        let temporary = try TemporaryFile(beside: destination)
        do {
            try StoreCopy.copyLocked(path, to: temporary.path, busyTimeout: busyTimeout)
        } catch {
            let failure = TaskInterchangeError.sqlite(error, path: destination, doing: "cannot write the backup")
            throw failure.kind == .cancelled ? failure : failure.withKind(.cannotCreate)
        }
        try temporary.synchronize(naming: destination)
        let files = try ExternalDataBackup(of: externalDataWriter.existing, for: destination)
        try files?.place(for: destination)
        do {
            try temporary.place(at: destination, replacing: false)
        } catch {
            files?.discard()
            throw error
        }
        files?.keep()
    }
}

@available(*, unavailable, message: "A writer owns an SQLite connection.")
extension StoreWriter: Sendable {}
