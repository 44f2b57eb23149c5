import Foundation

extension Archive {
    /// Reads a whole archive (version 1, version 2 or NDJSON) into memory.
    ///
    /// - Throws: ``ArchiveDecodingError`` listing the issues when the JSON is malformed or any error-severity issue was
    ///   found; warnings alone do not throw.
    public init(json bytes: some Collection<UInt8>, options: ArchiveReadingOptions = ArchiveReadingOptions()) throws {
        var collector = ArchiveCollector()
        let reader = ArchiveReader(options: options)
        let reached: Void? = try bytes.withContiguousStorageIfAvailable { buffer in
            try reader.read(UnsafeRawBufferPointer(buffer), into: &collector)
        }
        if reached == nil {
            try Array(bytes).withUnsafeBytes { try reader.read($0, into: &collector) }
        }
        guard collector.isComplete, !collector.hasErrors else { throw ArchiveDecodingError(issues: collector.issues) }
        self = collector.archive
    }

    /// The archive as JSON text, records in their current order.
    ///
    /// - Throws: ``ArchiveWritingError`` for unrepresentable values or options (version 1 drops what it cannot hold
    ///   without error; use `ArchiveWriter` to learn what was dropped).
    public func jsonData(options: ArchiveWritingOptions = ArchiveWritingOptions()) throws -> Data {
        let buffer = ByteBuffer()
        try write(to: buffer, options: options)
        return Data(buffer.bytes)
    }

    /// Streams the archive to `sink`.
    ///
    /// - Returns: the counts of what was written.
    /// - Throws: ``ArchiveWritingError``, or the sink's error.
    @discardableResult
    package func write(to sink: any ByteSink, options: ArchiveWritingOptions = ArchiveWritingOptions()) throws
        -> ArchiveCounts
    {
        var writer = try ArchiveWriter(sink: sink, options: options)
        try writer.begin(header: header)
        for project in projects { try writer.write(project: project) }
        for category in categories { try writer.write(category: category) }
        for tag in tags { try writer.write(tag: tag) }
        for task in tasks { try writer.write(task: task) }
        // The writer takes the generic section one entity at a time, names sorted.
        let grouped = entities.enumerated().sorted { ($0.element.entity, $0.offset) < ($1.element.entity, $1.offset) }
        for (_, record) in grouped { try writer.write(entity: record) }
        for table in tables.sorted(by: { $0.name < $1.name }) { try writer.write(table: table) }
        return try writer.finish()
    }
}
