import CSQLite

extension TaskInterchangeError {
    /// Classifies an SQLite failure on `path`, keeping SQLite's own words in the message.
    static func sqlite(_ error: SQLiteError, path: String, doing action: String) -> TaskInterchangeError {
        let kind: Kind
        switch error.primaryCode {
        case _ where error.isBusy: kind = .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: kind = .invalidData
        case SQLITE_INTERRUPT: kind = .cancelled  // the progress handler saw a cancellation
        case SQLITE_CANTOPEN: kind = .noInput
        case SQLITE_READONLY: kind = .cannotCreate
        case SQLITE_IOERR, SQLITE_FULL: kind = .io
        default: kind = .invalidData
        }
        if kind == .cancelled { return Cancellation.cancelled }
        var message = "\(path): \(action): \(error.message)"
        if kind == .busy {
            message =
                "\(path): the store is locked by another process (\(error.message)); close the app using it and retry"
        }
        return TaskInterchangeError(kind, message)
    }
}
