#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of an archive: a file mapped into memory, or standard input read whole.
///
/// Mapping keeps even a 300 MB archive out of the process's own memory, and the reader never copies it. A file that
/// another process truncates while it is mapped can crash the reader (`SIGBUS`); exports write to a new file and
/// rename it, which does not affect a mapping.
public final class ArchiveInput {
    /// The path read, or nil for standard input or bytes given in memory.
    public let path: String?
    private let base: UnsafeMutableRawPointer?
    /// The number of bytes.
    public let count: Int
    private let isMapped: Bool
    /// Told, on the reading thread, how far each streaming pass over the bytes got: the kinds the pass delivers (nil
    /// for all), the bytes read so far, and `count`. For a progress display; called at the start of a pass, every few
    /// megabytes, and at its end.
    package var readObserver: ((_ kinds: Set<RecordKind>?, _ bytesRead: Int, _ count: Int) -> Void)?

    /// Opens and maps the file at `path`.
    ///
    /// - Throws: ``TaskInterchangeError`` of kind `.noInput` when the file does not exist, is a directory or may not be
    ///   read, `.io` for other failures.
    public init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR:
                throw TaskInterchangeError(.noInput, "\(path): no such file\(Suggestion.nearPath(to: path))")
            case EACCES, EPERM:
                throw TaskInterchangeError(.noInput, "\(path): permission denied")
            default:
                throw TaskInterchangeError(.io, "\(path): cannot open: \(Self.describe(code))")
            }
        }
        defer { close(descriptor) }
        (base, count, isMapped) = try Self.load(descriptor, name: path)
    }

    /// Reads standard input whole (or maps it, when it is redirected from a regular file).
    ///
    /// - Throws: ``TaskInterchangeError`` of kind `.io` when reading fails.
    package static func standardInput() throws -> ArchiveInput {
        try reading(fileDescriptor: 0, name: "standard input")
    }

    /// Reads (or maps) an open descriptor whole; the caller keeps and closes it.
    static func reading(fileDescriptor descriptor: Int32, name: String) throws -> ArchiveInput {
        let (base, count, isMapped) = try load(descriptor, name: name)
        return ArchiveInput(base: base, count: count, isMapped: isMapped)
    }

    /// Copies `bytes`, for tests and for archives already in memory.
    public convenience init(bytes: some Collection<UInt8>) {
        let count = bytes.count
        let base = count == 0 ? nil : UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        if let base { UnsafeMutableRawBufferPointer(start: base, count: count).copyBytes(from: bytes) }
        self.init(base: base, count: count, isMapped: false)
    }

    private init(base: UnsafeMutableRawPointer?, count: Int, isMapped: Bool) {
        path = nil
        self.base = base
        self.count = count
        self.isMapped = isMapped
    }

    deinit {
        guard let base else { return }
        if isMapped {
            munmap(base, count)
        } else {
            base.deallocate()
        }
    }

    /// Lets the kernel take back the pages of a mapped file below `offset` (they are reloaded from the page cache if
    /// read again), so a streaming pass over a large archive does not keep all of it resident. No effect on input
    /// read into memory, whose bytes would be lost.
    package func release(below offset: Int) {
        guard isMapped, let base else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = min(offset, count) / page * page
        if length > 0 { _ = madvise(base, length, MADV_DONTNEED) }
    }

    /// Calls `body` with the bytes, which stay valid only during the call.
    /// - Throws: what `body` throws.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Maps a regular file, reads anything else (pipes, terminals) to its end.
    private static func load(_ descriptor: Int32, name: String) throws
        -> (base: UnsafeMutableRawPointer?, count: Int, isMapped: Bool)
    {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw TaskInterchangeError(.io, "\(name): cannot read: \(describe(errno))")
        }
        let fileType = status.st_mode & S_IFMT
        if fileType == S_IFDIR { throw TaskInterchangeError(.noInput, "\(name): is a directory, not a file") }
        guard fileType == S_IFREG else { return try readToEnd(descriptor, name: name) }
        let size = Int(status.st_size)
        if size == 0 { return (nil, 0, false) }
        // MAP_FAILED is (void *)-1, spelled out: not every platform's Swift overlay defines the constant.
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
            mapped != UnsafeMutableRawPointer(bitPattern: -1)
        else {
            // Some file systems cannot map; reading is slower but works.
            return try readToEnd(descriptor, name: name)
        }
        _ = madvise(mapped, size, MADV_SEQUENTIAL)
        return (mapped, size, true)
    }

    /// Reads until end of file into a buffer that doubles as it fills.
    private static func readToEnd(_ descriptor: Int32, name: String) throws
        -> (base: UnsafeMutableRawPointer?, count: Int, isMapped: Bool)
    {
        var capacity = 1 << 20
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var count = 0
        while true {
            if count == capacity {
                let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                larger.copyMemory(from: buffer, byteCount: count)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
            let received = read(descriptor, buffer + count, capacity - count)
            if received == 0 { break }
            if received < 0 {
                let code = errno
                if code == EINTR {
                    // A signal interrupted the read: go on, unless it asked the work to stop.
                    if Cancellation.isRequested {
                        buffer.deallocate()
                        throw Cancellation.cancelled
                    }
                    continue
                }
                buffer.deallocate()
                throw TaskInterchangeError(.io, "\(name): cannot read: \(describe(code))")
            }
            count += received
        }
        if count == 0 {
            buffer.deallocate()
            return (nil, 0, false)
        }
        return (buffer, count, false)
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

// The bytes never change after creation, but the class hands out raw pointers whose lifetime it alone controls.
@available(*, unavailable)
extension ArchiveInput: Sendable {}
