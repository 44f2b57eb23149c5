#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed write to a file descriptor, with the `errno` the system reported.
public struct ByteSinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value, such as `EPIPE` when the reader of a pipe went away.
    public var code: Int32
    /// The system's text for `code` (`strerror`).
    public var message: String

    /// Creates an error from an `errno` value, taking the message from the system.
    public init(code: Int32) {
        self.code = code
        self.message = String(cString: strerror(code))
    }

    /// Creates an error from its parts.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// True when the other end of a pipe or socket was closed (`EPIPE`), which a CLI usually treats as a quiet stop.
    public var isBrokenPipe: Bool { code == EPIPE }

    /// `write failed: Broken pipe (errno 32)`
    public var description: String { "write failed: \(message) (errno \(code))" }
}
