import Foundation

/// A store writer's connection: opened for writing (an existing store locked before anything is read, a new one
/// created from a template), committed once, and backed up before anything changes. A refused or failed import leaves
/// an existing store's files byte for byte as they were.
///
/// Not `Sendable`: it owns a connection.
final class WriterSession {
    let database: Database
    let path: String
    let busyTimeout: Int32
    /// True for a store this session created, until its first commit: its indexes and WAL mode come at the end of the
    /// bulk load.
    private(set) var isNew: Bool
    /// The store's `-wal` was there before this session opened it (so closing without a checkpoint leaves nothing new).
    private let hadWAL: Bool
    /// Set when a transaction committed; until then, closing leaves the store's files as they were.
    private var committed = false
    /// A new store's indexes (and a template's triggers), created after the bulk load.
    private let laterStatements: [StoreTemplate.SchemaObject]

    /// Opens an existing store for writing and takes its write lock (`create: false`), or creates `template`'s (or the
    /// built-in task manager model's) schema in a new, empty file.
    /// - Throws: `TaskInterchangeError` (`.busy` when locked, `.cannotCreate` when the file cannot be created or an
    ///   existing store cannot be opened for writing).
    init(path: String, create: Bool, template: StoreTemplate? = nil, busyTimeout: Int32 = 5_000)
        throws(TaskInterchangeError)
    {
        self.path = path
        self.busyTimeout = busyTimeout
        isNew = create
        do {
            if create {
                let database = try Database(path: path, mode: .create, busyTimeout: busyTimeout)
                // A new store is a private temporary file until it is complete, and is deleted on any failure: a
                // journal and fsyncs would only slow the bulk load. The first commit switches it to WAL, as Core Data
                // has it.
                try database.execute(
                    "PRAGMA auto_vacuum = 2; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
                        + "PRAGMA cache_size = -65536"
                )
                let layout = template ?? TaskManagerModel.template
                try database.inTransaction { try layout.create(in: database) }
                self.database = database
                laterStatements = layout.laterStatements
                hadWAL = false
            } else {
                hadWAL = access(FileIdentity.resolved(path) + "-wal", F_OK) == 0
                database = try Database(path: path, mode: .readWrite, busyTimeout: busyTimeout)
                laterStatements = []
                // Locked before anything is read: the schema, ids and keys the import relies on cannot change until
                // it commits or rolls back (another import waits here, up to the busy timeout).
                try database.execute("BEGIN IMMEDIATE")
            }
        } catch {
            throw Self.openingFailure(error, path: path, create: create)
        }
    }

    /// What a failure while opening the store (or reading its schema) means for the user.
    static func openingFailure(_ error: any Error, path: String, create: Bool) -> TaskInterchangeError {
        if let error = error as? TaskInterchangeError { return error }
        guard let error = error as? SQLiteError else { return TaskInterchangeError(.internal, "\(path): \(error)") }
        if create && !error.isBusy {
            return TaskInterchangeError(.cannotCreate, "\(path): cannot create the store: \(error.message)")
        }
        // A store that exists but cannot be opened for writing (a read-only mount, say) is an output problem.
        let failure = TaskInterchangeError.sqlite(error, path: path, doing: "cannot open the store for writing")
        return failure.kind == .noInput ? failure.withKind(.cannotCreate) : failure
    }

    /// A new store's indexes and triggers, run inside its first transaction, after the rows: the triggers would not
    /// fire on this connection anyway, and Core Data's call functions only it registers
    /// (`NSCoreDataTriggerUpdateAffectedObjectValue`).
    func createLaterObjects() throws {
        guard isNew else { return }
        for object in laterStatements { try object.execute(in: database) }
    }

    /// Notes a committed transaction; a new store then becomes durable and switches to WAL, as Core Data has it.
    func didCommit() throws {
        committed = true
        guard isNew else { return }
        try database.execute("PRAGMA synchronous = FULL")
        _ = try database.rows("PRAGMA journal_mode = WAL")
        isNew = false
    }

    deinit {
        // A refused or failed import rolled back; without a checkpoint on close the store's files stay byte for byte
        // as they were (a checkpoint would move the WAL's committed pages into the main file). A `-wal` this session
        // created is empty, and SQLite removes it on close only with the checkpoint.
        if !committed && hadWAL { database.disableCheckpointOnClose() }
    }

    /// Copies the store, as it is before this session changes anything, to a new file at `destination` (through a
    /// second, read-only connection and SQLite's online backup API) with the external files in `external` beside it
    /// (`ExternalDataBackup`); the file and its files appear only when complete. The files an import replaces stay
    /// with the backup: they are linked there before anything is removed.
    /// - Throws: `.cannotCreate` (nothing is left at `destination`), `.cancelled`.
    func backup(to destination: String, external: ExternalData) throws(TaskInterchangeError) {
        let temporary = try TemporaryFile(beside: destination)
        temporary.restrictPermissions(to: path)
        do {
            try StoreCopy.copyLocked(path, to: temporary.path, busyTimeout: busyTimeout)
        } catch {
            let failure = TaskInterchangeError.sqlite(error, path: destination, doing: "cannot write the backup")
            throw failure.kind == .cancelled ? failure : failure.withKind(.cannotCreate)
        }
        try temporary.synchronize(naming: destination)
        let files = try ExternalDataBackup(of: external, for: destination)
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

@available(*, unavailable, message: "A session owns an SQLite connection.")
extension WriterSession: Sendable {}
