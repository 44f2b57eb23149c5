import CSQLite
import Foundation

/// A connection to an SQLite database, opened defensively.
///
/// Not `Sendable`: SQLite connections are used from one thread at a time, and statements borrow the handle.
package final class Database {
    /// How to open a database file.
    package enum Mode: Sendable {
        /// Read-only; the file must exist. `immutable` tells SQLite the file cannot change (no locks, no sidecars).
        case readOnly(immutable: Bool)
        /// Read-write; the file must exist.
        case readWrite
        /// Read-write; the file is created when missing.
        case create
        /// A private database in memory, gone when closed; the path is only its name in messages.
        case memory
    }

    let handle: OpaquePointer
    /// The path this connection was opened on.
    package let path: String
    /// The busy timeout in milliseconds, read by the busy handler.
    private let busyTimeout: UnsafeMutablePointer<Int32>

    /// Opens the database at `path`.
    /// - Throws: `SQLiteError` when SQLite cannot open it.
    package init(path: String, mode: Mode, busyTimeout: Int32 = 5_000) throws(SQLiteError) {
        var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var uri = "file:" + Database.percentEncodedPath(path)
        switch mode {
        case .readOnly(let immutable):
            flags |= SQLITE_OPEN_READONLY
            uri += immutable ? "?mode=ro&immutable=1" : "?mode=ro"
        case .readWrite:
            flags |= SQLITE_OPEN_READWRITE
        case .create:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .memory:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY
            // SQLite's own name for it: a `file:` URI of the encoded path would name a file.
            uri = ":memory:"
        }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(uri, &db, flags, nil)
        self.busyTimeout = .allocate(capacity: 1)
        self.busyTimeout.initialize(to: busyTimeout)
        guard code == SQLITE_OK, let db else {
            self.busyTimeout.deallocate()
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(db)
            throw SQLiteError(code: code, message: message)
        }
        self.handle = db
        self.path = path
        if case .readOnly = mode { disableCheckpointOnClose() }
        sqlite3_extended_result_codes(db, 1)
        // A store file is untrusted input: its schema must not be able to run functions with side effects, its
        // triggers must not fire on our writes, and views never stand in for tables.
        tasks_sqlite3_enable_defensive(db)
        tasks_sqlite3_trusted_schema_off(db)
        tasks_sqlite3_disable_triggers(db)
        tasks_sqlite3_disable_views(db)
        // Waits for another process's lock in short sleeps, and stops waiting as soon as the work is cancelled.
        sqlite3_busy_handler(
            db,
            { context, count in
                guard let context, !Cancellation.isRequested else { return 0 }
                let timeout = context.assumingMemoryBound(to: Int32.self).pointee
                let waited = count < 10 ? count * (count + 1) / 2 : 55 + (count - 10) * 20
                guard waited < timeout else { return 0 }
                usleep(UInt32(count < 10 ? count + 1 : 20) * 1000)
                return 1
            }, self.busyTimeout)
        // Long statements (an index build, a backup step) stop with SQLITE_INTERRUPT once the work is cancelled.
        sqlite3_progress_handler(db, 10_000, { _ in Cancellation.isRequested ? 1 : 0 }, nil)
    }

    deinit {
        sqlite3_close_v2(handle)
        busyTimeout.deallocate()
    }

    /// Keeps this connection from checkpointing the WAL (and so writing the database file) when it closes.
    func disableCheckpointOnClose() {
        tasks_sqlite3_no_checkpoint_on_close(handle)
    }

    /// True while a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Prepares a statement.
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs one or more statements that take no parameters.
    package func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
    }

    /// Runs a query and returns every row as values (for small results: schema, counts).
    package func rows(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var result: [[SQLValue]] = []
        let count = statement.columnCount
        while try statement.step() {
            result.append((0..<count).map { statement.value(at: $0) })
        }
        return result
    }

    /// Runs a query and returns the first column of the first row, or nil when there is no row.
    package func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> SQLValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return statement.value(at: 0)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT` (joining a transaction already begun on this connection); any
    /// error rolls back and is rethrown.
    package func inTransaction<R>(_ body: () throws -> R) throws -> R {
        if !isInTransaction { try execute("BEGIN IMMEDIATE") }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // The first error is the one worth reporting; a failed rollback leaves SQLite to roll back on close.
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The number of rows changed by every statement since the connection opened.
    package var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// The number of rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Builds an error from a result code and the connection's current message.
    func error(code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(
            code: sqlite3_extended_errcode(handle) != 0 ? sqlite3_extended_errcode(handle) : code,
            message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// The 16 bytes every SQLite database file starts with.
    package static let fileHeader = Array("SQLite format 3\u{0}".utf8)

    /// True when `bytes` start with the SQLite header.
    package static func startsWithHeader(_ bytes: some Sequence<UInt8>) -> Bool {
        Array(bytes.prefix(fileHeader.count)) == fileHeader
    }

    /// True when `path` is a regular file that starts with the SQLite header (a FIFO or device is never opened).
    package static func isDatabaseFile(atPath path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            let handle = FileHandle(forReadingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        return startsWithHeader((try? handle.read(upToCount: fileHeader.count)) ?? Data())
    }

    /// Quotes an identifier that may come from a store file, so it can never change the SQL around it.
    package static func quote(_ identifier: String) -> String {
        // Names almost never hold a quote; skipping the replacement keeps per-row statement lookups cheap.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Percent-encodes the characters that have a meaning in an SQLite URI filename.
    static func percentEncodedPath(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x80...0xFF:
                result += String(format: "%%%02X", byte)
            default: result.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return result
    }
}

@available(*, unavailable, message: "An SQLite connection is used from one thread at a time.")
extension Database: Sendable {}
