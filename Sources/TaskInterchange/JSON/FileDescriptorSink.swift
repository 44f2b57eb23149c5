#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to an open file descriptor with `write(2)`; the caller keeps ownership of the descriptor.
///
/// Writing to a pipe whose reader has gone raises `SIGPIPE`, which ends the process unless the program ignores that
/// signal; a program that does gets ``ByteSinkError`` with `EPIPE` instead. The library leaves that choice to the
/// program.
package struct FileDescriptorSink: ByteSink, Sendable {
    /// Standard output (descriptor 1).
    package static let standardOutput = FileDescriptorSink(fileDescriptor: 1)

    /// The descriptor written to.
    package let fileDescriptor: Int32

    /// Creates a sink for `fileDescriptor`, which must stay open while the sink is used.
    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Writes every byte, retrying after interrupted and partial writes (unless the work was asked to stop).
    ///
    /// - Throws: ``ByteSinkError`` with the `errno` of the first failing `write(2)`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(fileDescriptor, base + offset, bytes.count - offset)
            if written < 0 {
                let code = errno
                // A signal interrupted the write: go on, unless it asked the work to stop.
                if code == EINTR { try Cancellation.checkpoint(); continue }
                throw ByteSinkError(code: code)
            }
            // A zero-byte write of a non-empty buffer would repeat forever; report it like a device error.
            if written == 0 { throw ByteSinkError(code: EIO, message: "write(2) accepted no bytes") }
            offset += written
            // A signal that lands after some bytes went makes write(2) return short, not EINTR: ask here too, or a
            // stopped run would block again on a reader that has stalled.
            if offset < bytes.count { try Cancellation.checkpoint() }
        }
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
#endif
