/// Appends JSON text to a byte buffer and hands full buffers to a `ByteSink`.
///
/// The writer knows tokens, not structure: callers place commas, colons and brackets themselves (see `ArchiveWriter`).
/// Nothing is written to the sink until the buffer passes `flushThreshold` or `flush()` is called, so callers must call
/// `flush()` at the end. Like a file handle, copies of a writer share one buffer and one sink.
struct JSONWriter {
    /// The buffer size after which `flushIfNeeded()` writes to the sink.
    static let defaultFlushThreshold = 256 * 1024

    /// The pending bytes.
    let storage: Storage
    /// Where full buffers go.
    let sink: any ByteSink
    /// The buffer size that triggers a write in `flushIfNeeded()`.
    let flushThreshold: Int

    /// Creates a writer that sends its output to `sink`.
    init(sink: any ByteSink, flushThreshold: Int = JSONWriter.defaultFlushThreshold) {
        self.sink = sink
        self.flushThreshold = max(1, flushThreshold)
        // A little slack above the threshold, so the record that crosses it rarely makes the buffer grow.
        storage = Storage(capacity: self.flushThreshold + self.flushThreshold / 4 + 64)
    }

    /// How many bytes are buffered and not yet written to the sink.
    var bufferedByteCount: Int { storage.count }

    /// Writes the buffer to the sink when it holds at least `flushThreshold` bytes.
    ///
    /// - Throws: whatever the sink throws, such as ``ByteSinkError``.
    mutating func flushIfNeeded() throws {
        if storage.count >= flushThreshold { try flush() }
    }

    /// Writes everything buffered to the sink.
    ///
    /// - Throws: whatever the sink throws, such as ``ByteSinkError``.
    mutating func flush() throws {
        guard storage.count > 0 else { return }
        try sink.write(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
        storage.count = 0
    }

    /// Appends one byte as is.
    mutating func appendByte(_ byte: UInt8) {
        storage.append(byte)
    }

    /// Appends fixed text (punctuation, keys, literals) as is, without escaping.
    mutating func appendRaw(_ text: StaticString) {
        storage.append(UnsafeRawPointer(text.utf8Start), count: text.utf8CodeUnitCount)
    }

    /// Appends bytes as is, without escaping; they must already be valid JSON text.
    mutating func appendRaw(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        storage.append(base, count: bytes.count)
    }

    /// Appends `count` spaces, for indentation.
    mutating func appendSpaces(_ count: Int) {
        storage.reserve(count)
        for _ in 0..<count { storage.appendReserved(UInt8(ascii: " ")) }
    }

    /// Appends `true` or `false`.
    mutating func appendBool(_ value: Bool) {
        appendRaw(value ? "true" : "false")
    }

    /// Appends `null`.
    mutating func appendNull() {
        appendRaw("null")
    }
}

extension JSONWriter {
    /// The buffer: raw memory, so that small appends are a bounds check and a store rather than an array append
    /// with its uniqueness check. Each writer's buffer is used from one thread at a time (`JSONWriter` is not
    /// `Sendable`), so the exclusivity checks the compiler would add to every access are turned off.
    final class Storage: ByteAppender {
        @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) private var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deallocate()
        }

        /// Makes room for `extra` more bytes.
        @inline(__always)
        func reserve(_ extra: Int) {
            if count + extra > capacity { grow(toHold: count + extra) }
        }

        /// Appends a byte after `reserve` made room for it.
        @inline(__always)
        func appendReserved(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        /// Appends one byte.
        @inline(__always)
        func append(_ byte: UInt8) {
            reserve(1)
            appendReserved(byte)
        }

        /// Appends `byteCount` bytes from `source`.
        @inline(__always)
        func append(_ source: UnsafeRawPointer, count byteCount: Int) {
            reserve(byteCount)
            UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: byteCount)
            count += byteCount
        }

        @inline(never)
        private func grow(toHold needed: Int) {
            let newCapacity = max(needed, capacity * 2)
            let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBase.initialize(from: base, count: count)
            base.deallocate()
            base = newBase
            capacity = newCapacity
        }
    }
}

// The sink is an existential of unknown thread-safety, and the buffer is meant for one producer.
@available(*, unavailable)
extension JSONWriter: Sendable {}
