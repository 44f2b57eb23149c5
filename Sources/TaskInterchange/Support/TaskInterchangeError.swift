import CSQLite

/// An error from the library, with a category that callers (the CLI) map to exit codes, and a message for people.
public struct TaskInterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; each maps to one sysexits-style exit code in the CLI.
    public enum Kind: Sendable, Equatable {
        /// The input data is wrong (bad JSON, invalid archive, not a store, bad mapping). Exit 65.
        case invalidData
        /// An input file does not exist or cannot be opened. Exit 66.
        case noInput
        /// An output file or store cannot be created. Exit 73.
        case cannotCreate
        /// Reading or writing failed. Exit 74.
        case io
        /// Another process holds the store locked. Exit 75.
        case busy
        /// The request contradicts itself (an output naming the store it reads, say). Exit 64.
        case usage
        /// Stopped on request (a signal, task cancellation); everything was rolled back. Exit 128 + the signal.
        case cancelled
        /// A bug in `tasks`. Exit 70.
        case `internal`
    }

    /// The category.
    public var kind: Kind
    /// What went wrong and where.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }

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
        if kind == .busy { message = "\(path): the store is locked by another process (\(error.message)); close the app using it and retry" }
        return TaskInterchangeError(kind, message)
    }
}
