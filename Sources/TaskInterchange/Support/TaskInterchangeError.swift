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
}
