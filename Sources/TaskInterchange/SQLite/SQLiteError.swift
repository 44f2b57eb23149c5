import CSQLite

/// An error reported by SQLite, with the result code, SQLite's message and the SQL that failed.
package struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code.
    package var code: Int32
    /// SQLite's own message.
    package var message: String
    /// The statement that failed, when there was one.
    package var sql: String?

    /// Creates an error from its parts.
    package init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended code).
    package var primaryCode: Int32 { code & 0xFF }

    /// True when the database was locked by another connection (`SQLITE_BUSY` or `SQLITE_LOCKED`).
    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// True for `SQLITE_CONSTRAINT_PRIMARYKEY` (19 | 6 << 8; the C macro is not imported): the row's key is taken.
    package var isPrimaryKeyConflict: Bool { code == SQLITE_CONSTRAINT | 6 << 8 }

    /// True when any constraint failed: a key, a unique index, NOT NULL, CHECK, a trigger's `RAISE`.
    package var isConstraintFailure: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// `SQLite error 19: UNIQUE constraint failed: … - while executing INSERT …`
    package var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
