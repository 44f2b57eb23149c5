import Foundation

/// An empty store made from a template: what `tasks model new-store` writes.
extension StoreTemplate {
    /// Creates an empty store at `path` with the template's schema, entities and metadata (a new store UUID), in WAL
    /// mode as Core Data leaves its stores. The store is built beside `path` and appears there only when complete;
    /// an existing file is never replaced.
    /// - Throws: `TaskInterchangeError.cannotCreate` when `path` exists, its directory does not, or the store cannot be
    ///   written.
    public func makeEmptyStore(at path: String) throws(TaskInterchangeError) {
        try makeEmptyStore(at: path, batchedAbove: 2_000)
    }

    /// `makeEmptyStore(at:)`, building a schema of more than `threshold` objects in batches (see
    /// `createInBatches`).
    func makeEmptyStore(at path: String, batchedAbove threshold: Int) throws(TaskInterchangeError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TaskInterchangeError(
                .cannotCreate, "\(path): cannot create the store: the directory \(directory) does not exist")
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw TaskInterchangeError(.cannotCreate, "\(path): already exists; choose a new path")
        }
        let temporary = try TemporaryFile(beside: path)
        do {
            // Scoped so the connection is closed (and its WAL checkpointed away) before the file is linked into place.
            if objects.count > threshold {
                try createInBatches(at: temporary.path)
                let database = try Database(path: temporary.path, mode: .readWrite)
                _ = try database.rows("PRAGMA journal_mode = WAL")
            } else {
                let database = try Database(path: temporary.path, mode: .create)
                try database.execute("PRAGMA auto_vacuum = 2")
                try database.inTransaction {
                    try create(in: database)
                    for object in laterStatements { try object.execute(in: database) }
                }
                _ = try database.rows("PRAGMA journal_mode = WAL")
            }
        } catch let error as TaskInterchangeError {
            throw error
        } catch let error as SQLiteError {
            throw TaskInterchangeError(.cannotCreate, "\(path): cannot create the store: \(error.message)")
        } catch {
            throw TaskInterchangeError(.cannotCreate, "\(path): cannot create the store: \(error)")
        }
        try temporary.synchronize(naming: path)
        try temporary.place(at: path, replacing: false)
    }
}
