import Foundation

/// A read-only connection to a store that leaves the store's files byte-identical.
///
/// A plain read-only open rewrites `-shm` and creates sidecars that were absent, so: with a non-empty `-wal`, the three
/// files are copied to a private directory and the copy is read (committed rows that live only in the WAL are seen);
/// without one, the file is opened `immutable`, which takes no locks and creates nothing.
///
/// Not `Sendable`: it owns a connection.
public final class StoreSnapshot {
    /// The connection to read through.
    public let database: Database
    /// The path the user gave.
    public let path: String
    /// True when the store had committed data in its `-wal` (read through a private copy).
    public let readFromCopy: Bool
    private let temporaryDirectory: URL?

    /// Opens the store at `path` for reading.
    /// - Throws: `TaskInterchangeError` (`.noInput` when missing, `.invalidData` when not an SQLite database).
    public init(path: String) throws(TaskInterchangeError) {
        self.path = path
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TaskInterchangeError(.noInput, "\(path): no such store file")
        }
        guard !isDirectory.boolValue else { throw TaskInterchangeError(.noInput, "\(path): is a directory, not a store file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TaskInterchangeError(.noInput, "\(path): cannot be opened for reading (permission denied?)")
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard header.count == 16, header == Data("SQLite format 3\u{0}".utf8) else {
            throw TaskInterchangeError(.invalidData, header.isEmpty
                ? "\(path): the file is empty, not an SQLite store"
                : "\(path): not an SQLite database (the file does not start with the SQLite header; encrypted or another format?)")
        }
        let walSize = (try? manager.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        do {
            if walSize > 0 {
                let directory = manager.temporaryDirectory.appendingPathComponent("tasks-snapshot-\(UUID().uuidString)")
                do {
                    try manager.createDirectory(at: directory, withIntermediateDirectories: true)
                    let copy = directory.appendingPathComponent("store.sqlite").path
                    try manager.copyItem(atPath: path, toPath: copy)
                    try manager.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
                    if manager.fileExists(atPath: path + "-shm") { try manager.copyItem(atPath: path + "-shm", toPath: copy + "-shm") }
                    // A read-write open of the private copy lets SQLite rebuild the WAL index when `-shm` is absent.
                    self.database = try Database(path: copy, mode: .readWrite)
                    try database.execute("PRAGMA query_only = 1")
                } catch let error as SQLiteError {
                    try? manager.removeItem(at: directory)
                    throw error
                } catch {
                    try? manager.removeItem(at: directory)
                    throw TaskInterchangeError(.io, "\(path): cannot copy the store and its -wal to a private directory: \(error.localizedDescription)")
                }
                self.temporaryDirectory = directory
                self.readFromCopy = true
            } else {
                self.database = try Database(path: path, mode: .readOnly(immutable: true))
                self.temporaryDirectory = nil
                self.readFromCopy = false
            }
            // Force SQLite to read the header and schema now, so a garbage file fails here with a clear message.
            _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        } catch let error as SQLiteError {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read the store")
        } catch let error as TaskInterchangeError {
            throw error
        } catch {
            throw TaskInterchangeError(.internal, "\(path): \(error)")
        }
    }

    deinit {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }
}

@available(*, unavailable, message: "A snapshot owns an SQLite connection.")
extension StoreSnapshot: Sendable {}
