#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies what remains of an open descriptor to a sink, in 1 MB chunks, stopping when the work is cancelled.
enum DescriptorCopy {
    /// - Throws: `.io` naming `source` when reading fails; the sink's errors; `.cancelled`.
    static func copy(from descriptor: Int32, naming source: String, to sink: any ByteSink) throws {
        let size = 1 << 20
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = read(descriptor, chunk, size)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { try Cancellation.checkpoint(); continue }
                throw TaskInterchangeError(.io, "\(source): cannot read: \(String(cString: strerror(errno)))")
            }
            try sink.write(UnsafeRawBufferPointer(start: chunk, count: count))
            try Cancellation.checkpoint()
        }
    }
}
