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
    /// Warnings and the counts of values with nowhere to go.
    var diagnostics = WriterDiagnostics()

    /// The connection, its transaction and backup.
    let session: WriterSession
    var database: Database { session.database }
    var path: String { session.path }
    /// True for a store this writer created, until its first commit.
    var isNew: Bool { session.isNew }
    let resolved: ResolvedMapping
    /// Row statements and keys.
    var rowWriting = RowWriting()
    /// Where links go, and those waiting for the end of the transaction.
    var linkWriting = LinkWriting()
    var existing: [StoreMapping.Kind: [UUIDKey: Int64]] = [:]
    /// `kind.property` → where its extra values go (nil: nowhere in this target).
    var extraTargets: [String: ExtraTarget?] = [:]
    /// The entity numbers written into `Z<n>_` columns beside references to projects, categories and tasks, worked
    /// out once, not per row.
    var referencedEntities: (project: Int64?, category: Int64?, task: Int64?) = (nil, nil, nil)
    /// What the import changed, for the persistent history rows written at its end (nil when the target does not
    /// track history).
    var history: HistoryRecorder?
    /// The target's own model, from its model cache (nil without one, or when it cannot be decoded).
    let targetModel: ObjectModel?
    /// The target's entities no kind reads: where generic records go.
    let genericLayout: GenericLayout
    /// Replace mode: the objects removed before the archive's records are written (`removeAll`).
    var replaced = ReplacedObjects()
    /// Generic objects already in the target, by entity then id (derived from the target's store UUID).
    var existingEntities: [String: [UUID: Int64]] = [:]
    /// Fixed at `init`.
    let configuration: Configuration
    /// Settled at most once, before writing (`settle(_:)`).
    private(set) var archive = ArchiveSettings()
    private(set) var phase = Phase.opened
    /// `adoptIdentity` ran: a writer configured to keep identity may write.
    private var identityAdopted = false
    /// External files this import writes; a new store's wait for the store to be placed (`StoreImport`), an existing
    /// store's are placed just before its transaction commits.
    let externalDataWriter: ExternalDataWriter

    /// Opens an existing store for writing (`create: false`), or creates the task manager's model in a new, empty file.
    /// - Throws: `TaskInterchangeError` (`.busy` when locked, `.invalidData` when not a Core Data store or the mapping
    ///   does not fit, `.cannotCreate` when the file cannot be created).
    /// - Parameter template: with `create`, take the new store's schema and metadata from this template instead of the
    ///   built-in task manager model's (`TaskManagerModel.template`).
    init(
        path: String, create: Bool, template: StoreTemplate? = nil, mapping: StoreMapping? = nil,
        mappingSource: String = "mapping", busyTimeout: Int32 = 5_000, model: ObjectModel? = nil,
        configuration: Configuration = Configuration()
    ) throws(TaskInterchangeError) {
        self.configuration = configuration
        externalDataWriter = ExternalDataWriter(store: configuration.externalStore ?? path)
        if let store = configuration.existingExternalData { externalDataWriter.existing = ExternalData(store: store) }
        session = try WriterSession(path: path, create: create, template: template, busyTimeout: busyTimeout)
        do {
            schema = try StoreSchema(reading: session.database, path: path)
        } catch {
            throw WriterSession.openingFailure(error, path: path, create: create)
        }
        // A store made from a model has no model cache; the model itself then names and types its properties.
        targetModel =
            (create ? (template ?? TaskManagerModel.template).model : model)
            ?? (try? ObjectModel(modelCacheIn: session.database, path: path)) ?? nil
        schema.locate(with: targetModel)
        resolved = try Self.resolve(
            mapping, schema: schema, model: targetModel, path: path, mappingSource: mappingSource)
        let typed = Set(resolved.kinds.values.flatMap(\.entity.numbersIncludingSubentities))
        genericLayout = GenericLayout(schema: schema, model: targetModel, excluded: typed)
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
            diagnostics.warnings.append(
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
            diagnostics.warnings.append(
                "the target store has no \(kind.rawValue) entity; \(kind.rawValue) records cannot be imported")
        }
        for (kind, resolvedKind) in resolved.kinds.sorted(by: { $0.key < $1.key })
        where resolvedKind.columns["id"] == nil {
            diagnostics.warnings.append(
                "the target's \(resolvedKind.entity.name) has no UUID attribute: \(kind.rawValue) ids derive from its "
                    + "keys, and are kept only where the archive's keys are (a store that never had such rows)"
            )
        }
    }

    /// Things the user should know about the target.
    package var warnings: [String] { diagnostics.warnings }

    /// What had nowhere to go so far in this transaction, with counts: what a strict import refuses.
    var unplaced: [String: Int] { diagnostics.unplaced }

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
                resolvedKind, from: database, storeUUID: schema.storeUUID ?? "", log: &log, store: path)
            existing[kind] = Dictionary(
                entries.map { (UUIDKey($0.id), $0.key) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Gives a new store the source's store UUID (`Z_METADATA.Z_UUID`), so object URIs and the ids derived from
    /// them are the source's, and its root entities the keys the source handed out (`maxKeys`, by target root: see
    /// `targetMaxKeys(of:mapping:)`), so none of them, deleted objects' too, is handed out again.
    /// - Throws: `TaskInterchangeError.usage` for an existing store.
    /// - Throws: `TaskInterchangeError.internal` for a writer not configured to keep identity, or once it adopted one
    ///   or began writing.
    func adoptIdentity(storeUUID uuid: String, maxKeys: [String: Int64]) throws {
        guard isNew else {
            throw TaskInterchangeError(.usage, "\(path): \(setting: .keepIdentity) restores into a new store only")
        }
        guard configuration.keepIdentity, !identityAdopted, phase != .writing else {
            throw TaskInterchangeError(
                .internal, "\(path): the writer adopts an identity only when configured to, once, before writing")
        }
        identityAdopted = true
        try database.prepare(CoreDataNames.writeStoreUUID).execute([.text(uuid)])
        schema.storeUUID = uuid
        let raise = try database.prepare(
            CoreDataNames.raiseMaxKeyOfRootNamed)
        for (entity, maxKey) in maxKeys.sorted(by: { $0.key < $1.key }) {
            try raise.execute([.integer(maxKey), .text(entity)])
        }
    }

    /// Takes the archive's settings for this import.
    /// - Throws: `TaskInterchangeError.internal` when they were settled already or writing has begun: a setting that
    ///   changed under the writer would leave what it already worked out from the old one in place.
    func settle(_ settings: ArchiveSettings) throws(TaskInterchangeError) {
        guard phase == .opened else {
            throw TaskInterchangeError(
                .internal,
                "\(path): the writer's archive settings are settled "
                    + (phase == .settled ? "already" : "after writing began"))
        }
        archive = settings
        // Only a model change writes links from the other side of a pair (`linkThroughInverse`), which must go first
        // within their rows: then the queue must not run in parts.
        linkWriting.entityRows.runsWhole = settings.modelChanged && linksThroughInverse(settings.declarations)
        phase = .settled
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, records what it changed in the store's persistent history
    /// when the store tracks it, and writes the new `Z_MAX` values before committing; any error rolls everything back.
    /// - Throws: `TaskInterchangeError.busy` when another process holds the store; `body`'s errors.
    func transaction<R>(_ body: () throws -> R) throws -> R {
        // What a rolled-back body recorded must not reach the next transaction's history.
        if configuration.keepIdentity && !identityAdopted {
            throw TaskInterchangeError(.internal, "\(path): a writer that keeps identity writes only after adopting it")
        }
        phase = .writing
        defer {
            history?.clear()
            linkWriting.tagLinks.removeAll()
            linkWriting.entityRows.removeAll()
            replaced = ReplacedObjects()
        }
        do {
            let external = isNew ? [] : externalColumns
            let (result, released) = try database.inTransaction {
                let before = try referencedExternalFiles(in: external)
                let changesBefore = database.totalChanges
                let result = try body()
                try writeEntityLinks()
                // Triggers never fire on this connection: the fetch indexes they would keep are rebuilt instead.
                if isNew || database.totalChanges != changesBefore { try rebuildFetchIndexes() }
                try writeTagLinks()
                noteReplacedDeletions()
                try writeHistory()
                try writeMaxKeys()
                diagnostics.reportCounts()
                try session.createLaterObjects()
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
            try session.didCommit()
            return result
        } catch {
            externalDataWriter.discard()
            throw Self.classify(error, path: path, doing: "import failed, nothing was written")
        }
    }

    static func classify(_ error: any Error, path: String, doing action: String) -> any Error {
        if let error = error as? SQLiteError { return TaskInterchangeError.sqlite(error, path: path, doing: action) }
        return error
    }

    /// Copies the store, as it is before this writer changes anything, to a new file at `destination`, with the
    /// external files the target already has beside it (`WriterSession.backup(to:external:)`).
    /// - Throws: `.cannotCreate` (nothing is left at `destination`), `.cancelled`.
    func backup(to destination: String) throws(TaskInterchangeError) {
        try session.backup(to: destination, external: externalDataWriter.existing)
    }
}

@available(*, unavailable, message: "A writer owns an SQLite connection.")
extension StoreWriter: Sendable {}
