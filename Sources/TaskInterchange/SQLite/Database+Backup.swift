import CSQLite

extension Database {
    /// Copies the whole database to a new file at `path` with SQLite's online backup API.
    /// - Throws: `SQLiteError` when the file cannot be created or the copy fails.
    public func backup(to path: String) throws(SQLiteError) {
        let target = try Database(path: path, mode: .create)
        guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
            throw target.error(code: sqlite3_errcode(target.handle), sql: nil)
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, -1)
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else { throw target.error(code: code, sql: nil) }
    }
}
