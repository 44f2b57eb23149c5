import Foundation

/// A read-only view of one committed state of a store that may be in use: a private copy made by `StoreCopy`
/// (consistent under concurrent writers, a hot journal rolled back in the copy only), so reading it for as long as
/// an export takes holds no lock on the store and never changes its files.
///
/// Not `Sendable`: it owns a connection.
package final class StoreSnapshot {
    /// The connection to read through.
    package let database: Database
    /// The path the user gave.
    package let path: String
    /// True when the store had committed data in its `-wal`.
    package let readFromCopy: Bool
    /// True when a crashed writer had left a hot journal, whose transaction was rolled back in the private copy.
    package let recoveredHotJournal: Bool
    private let directory: PrivateDirectory?

    /// Takes a snapshot of the store at `path`.
    /// - Parameter busyTimeout: how long to wait for a writer's lock, in milliseconds.
    /// - Throws: `TaskInterchangeError` (`.noInput` when missing, `.invalidData` when not an SQLite database, `.busy`
    ///   when a writer held its lock past the timeout, `.cancelled`).
    package init(path: String, busyTimeout: Int32 = 5_000) throws(TaskInterchangeError) {
        self.path = path
        let directory = try PrivateDirectory(purpose: .snapshot)
        self.directory = directory
        let copy = try StoreCopy.copy(path, into: directory, busyTimeout: busyTimeout)
        readFromCopy = copy.hadWALData
        recoveredHotJournal = copy.recoveredHotJournal
        do {
            // Read-write, so SQLite can rebuild the copy's WAL index; query_only keeps this connection from writing.
            database = try Database(path: copy.path, mode: .readWrite)
            try database.execute("PRAGMA query_only = 1")
            // Read the header and schema now, so a damaged file fails here with a clear message.
            _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        } catch {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read the store")
        }
    }

    /// Reads a self-contained file that nobody else writes (a backup this process made, without sidecars) where it
    /// is, immutable: one committed state already, so no copy is needed.
    /// - Throws: `TaskInterchangeError` (`.noInput` when missing, `.invalidData` when not an SQLite database).
    package init(privateFile path: String) throws(TaskInterchangeError) {
        self.path = path
        directory = nil
        readFromCopy = false
        recoveredHotJournal = false
        do {
            database = try Database(path: path, mode: .readOnly(immutable: true))
            _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        } catch {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read the store")
        }
    }
}

@available(*, unavailable, message: "A snapshot owns an SQLite connection.")
extension StoreSnapshot: Sendable {}
