/// A sink that keeps everything written to it in memory, for tests and for `Archive.jsonData(options:)`.
package final class ByteBuffer: ByteSink {
    /// Everything written so far.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty buffer.
    package init() {}

    /// Appends `bytes`; never fails.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    /// The bytes as a string, decoded as UTF-8 (invalid sequences repaired), for test messages.
    package var string: String { String(decoding: bytes, as: UTF8.self) }
}

// Shared mutable state with no locking: one buffer belongs to one writer at a time.
@available(*, unavailable)
extension ByteBuffer: Sendable {}
