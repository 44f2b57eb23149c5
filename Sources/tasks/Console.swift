import Foundation
import TaskInterchange

/// stdout for data, stderr for diagnostics and progress.
///
/// Both are written with `write(2)`, not `FileHandle.write`, which traps when the descriptor is closed, broken or
/// full: a failed stdout is an error to report (exit 74), a failed stderr is left unsaid.
enum Console {
    private static let standardError = FileDescriptorSink(fileDescriptor: STDERR_FILENO)

    /// Writes data or a report to stdout.
    /// - Throws: `ByteSinkError` when stdout does not take it (`EPIPE`, `ENOSPC`, …), or `TaskInterchangeError`
    ///   `.cancelled` when a signal stopped a blocked write.
    static func output(_ text: String) throws {
        try write(text, to: FileDescriptorSink.standardOutput)
    }

    /// Writes a diagnostic to stderr. A stderr that does not take it is ignored: there is nowhere left to say so,
    /// and the exit status still tells the outcome.
    static func error(_ text: String) {
        try? write(text, to: standardError)
    }

    /// True when the parent left stdout closed: `main` then holds its place with /dev/null open for reading only.
    static var standardOutputIsClosed: Bool {
        var output = stat()
        var null = stat()
        guard fcntl(STDOUT_FILENO, F_GETFL) & O_ACCMODE == O_RDONLY, fstat(STDOUT_FILENO, &output) == 0,
            stat("/dev/null", &null) == 0
        else { return false }
        return output.st_rdev == null.st_rdev && output.st_ino == null.st_ino
    }

    /// Progress lines only when a person is watching stderr (never in pipes, files or CI logs).
    static var showsProgress: Bool {
        isatty(2) == 1 && ProcessInfo.processInfo.environment["CI"] == nil
    }

    /// Overwrites the current stderr line.
    static func progress(_ text: String) {
        error("\r\u{1B}[K" + text)
    }

    static func endProgress() {
        error("\r\u{1B}[K")
    }

    /// Pretty JSON of a Codable value, keys sorted, with a final newline.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Writes every byte of `text`. The signal check is in force here too, so a signal gives up a write blocked on a
    /// stalled reader even outside a command's work (the final error message), instead of waiting on it for ever.
    private static func write(_ text: String, to sink: FileDescriptorSink) throws {
        var text = text
        try Cancellation.$current.withValue(SignalTrap.cancellation) {
            try text.withUTF8 { try sink.write(UnsafeRawBufferPointer($0)) }
        }
    }
}
