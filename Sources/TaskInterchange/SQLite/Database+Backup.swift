import CSQLite

extension Database {
    /// Copies the whole database into a new file at `path` with SQLite's online backup API, in one step: the copy is
    /// the state this connection reads (its open read transaction's, when it has one).
    /// - Throws: `SQLiteError` when the file cannot be created, the source is locked, or the copy fails.
    func backup(to path: String) throws(SQLiteError) {
        let target = try Database(path: path, mode: .create)
        guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
            throw target.error(code: sqlite3_errcode(target.handle), sql: nil)
        }
        let code = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errstr(code)), sql: nil)
        }
    }
}
