import Foundation

/// Outputs that are not regular files: devices, FIFOs and sockets are written into, never replaced.
enum SpecialFile {
    /// Opens `path` for writing. A FIFO without a reader is waited for in short steps (a non-blocking open fails
    /// with ENXIO until a reader opens it), checking for cancellation between them: a blocking open would wait on
    /// through a signal that arrived just before it, or a cancelled task.
    /// - Throws: `.cannotCreate` when it cannot be opened, `.cancelled` when stopped while waiting for a reader.
    static func openForWriting(_ path: String) throws -> Int32 {
        var status = stat()
        let isFIFO = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
        while true {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC | (isFIFO ? O_NONBLOCK : 0))
            if descriptor >= 0 {
                if isFIFO { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
                return descriptor
            }
            let code = errno
            guard isFIFO && (code == ENXIO || code == EINTR) else {
                if code == EINTR { try Cancellation.checkpoint() }
                throw TaskInterchangeError(
                    .cannotCreate, "\(path): cannot open for writing: \(String(cString: strerror(code)))")
            }
            try Cancellation.checkpoint()
            usleep(20_000)
        }
    }
}
