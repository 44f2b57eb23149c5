/// Appends JSON text to a byte buffer and hands full buffers to a `ByteSink`.
///
/// The writer knows tokens, not structure: callers place commas, colons and brackets themselves (see `ArchiveWriter`).
/// Nothing is written to the sink until the buffer passes `flushThreshold` or `flush()` is called, so callers must call
/// `flush()` at the end.
public struct JSONWriter {
    /// The buffer size after which `flushIfNeeded()` writes to the sink.
    public static let defaultFlushThreshold = 256 * 1024

    /// Bytes not yet given to the sink.
    var buffer: [UInt8]
    /// Where full buffers go.
    let sink: any ByteSink
    /// The buffer size that triggers a write in `flushIfNeeded()`.
    public let flushThreshold: Int

    /// Creates a writer that sends its output to `sink`.
    public init(sink: any ByteSink, flushThreshold: Int = JSONWriter.defaultFlushThreshold) {
        self.sink = sink
        self.flushThreshold = max(1, flushThreshold)
        // A little slack above the threshold, so the record that crosses it rarely makes the array grow.
        buffer = []
        buffer.reserveCapacity(self.flushThreshold + self.flushThreshold / 4)
    }

    /// How many bytes are buffered and not yet written to the sink.
    public var bufferedByteCount: Int { buffer.count }

    /// Writes the buffer to the sink when it holds at least `flushThreshold` bytes.
    ///
    /// - Throws: whatever the sink throws, such as `ByteSinkError`.
    public mutating func flushIfNeeded() throws {
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Writes everything buffered to the sink.
    ///
    /// - Throws: whatever the sink throws, such as `ByteSinkError`.
    public mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends one byte as is.
    public mutating func appendByte(_ byte: UInt8) {
        buffer.append(byte)
    }

    /// Appends fixed text (punctuation, keys, literals) as is, without escaping.
    public mutating func appendRaw(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends bytes as is, without escaping; they must already be valid JSON text.
    public mutating func appendRaw(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Appends `count` spaces, for indentation.
    public mutating func appendSpaces(_ count: Int) {
        for _ in 0..<count { buffer.append(UInt8(ascii: " ")) }
    }

    /// Appends `true` or `false`.
    public mutating func appendBool(_ value: Bool) {
        appendRaw(value ? "true" : "false")
    }

    /// Appends `null`.
    public mutating func appendNull() {
        appendRaw("null")
    }

    /// Gives direct access to the buffer, for formatters (dates, UUIDs) that write their own ASCII bytes.
    mutating func withBuffer<Result, Failure: Error>(
        _ body: (inout [UInt8]) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(&buffer)
    }
}

// The sink is an existential of unknown thread-safety, and the buffer is meant for one producer.
@available(*, unavailable)
extension JSONWriter: Sendable {}
