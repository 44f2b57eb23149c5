import Foundation

/// Exports a Core Data store to an interchange archive, streaming: records are written as rows are read.
public enum Exporter {
    /// Exports the store at `store` to `sink`.
    ///
    /// With `options.strict`, the archive is written to a private file first and reaches `sink` only when nothing
    /// was lost; otherwise ``ExportStrictError`` is thrown and `sink` receives nothing.
    /// - Throws: ``TaskInterchangeError`` for store and mapping problems (`.cancelled` when stopped), ``ByteSinkError``
    ///   when the output fails, ``ExportStrictError``.
    package static func export(store: String, to sink: any ByteSink, options: ExportOptions = ExportOptions()) throws
        -> ExportSummary
    {
        guard options.strict else { return try stream(store: store, to: sink, options: options) }
        let directory = try PrivateDirectory(purpose: .export)
        let buffer = directory.file("archive")
        let descriptor = open(buffer, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TaskInterchangeError(
                .io, "\(buffer): cannot create a private file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let summary = try stream(store: store, to: FileDescriptorSink(fileDescriptor: descriptor), options: options)
        lseek(descriptor, 0, SEEK_SET)
        try DescriptorCopy.copy(from: descriptor, naming: buffer, to: sink)
        return summary
    }

    /// Exports to a file. A regular file (or a new path) is written atomically: to a temporary file beside it, renamed
    /// into place only when complete (and, with `strict`, only when nothing was lost), so an interrupted export never
    /// leaves a truncated file. A device, FIFO or socket is written into directly. A path naming the store or one
    /// of its sidecars is refused before anything is read.
    /// - Throws: as `export(store:to:options:)`; `.usage` when `path` names the store, `.cannotCreate` when the file
    ///   cannot be made.
    public static func export(store: String, toFile path: String, options: ExportOptions = ExportOptions()) throws
        -> ExportSummary
    {
        try FileIdentity.checkOutput(path, setting: .exportFile, store: store)
        if FileIdentity.isSpecialFile(path) {
            let descriptor = try SpecialFile.openForWriting(path)
            defer { close(descriptor) }
            return try export(store: store, to: FileDescriptorSink(fileDescriptor: descriptor), options: options)
        }
        let temporary = try TemporaryFile(beside: path)
        let summary = try stream(
            store: store, to: FileDescriptorSink(fileDescriptor: temporary.descriptor), options: options)
        try temporary.synchronize(naming: path)
        try temporary.place(at: path, replacing: true)
        return summary
    }

    /// Streams the store to `sink`, record by record; with `strict`, throws after writing when findings were warnings.
    private static func stream(store: String, to sink: any ByteSink, options: ExportOptions) throws -> ExportSummary {
        let started = Date()
        let (reader, header) = try prepare(store: store, options: options)
        var writing = WritingVisitor(writer: try ArchiveWriter(sink: sink, options: options.writing))
        try writing.writer.begin(header: header)
        // Reading the store and formatting JSON each get a core. The writer stays on the calling thread, the one a
        // signal interrupts, or a stalled reader of a pipe would keep a stopped export waiting in write(2).
        try RecordPipeline.run(&writing, placement: .producerOnSecondThread) {
            try reader.read(into: &$0, progress: options.progress)
        }
        let counts = try writing.writer.finish()
        let summary = summarize(
            store: store, reader: reader, counts: counts, droppedFields: writing.writer.droppedFields, options: options,
            started: started)
        if options.strict && summary.hasWarnings { throw ExportStrictError(summary: summary) }
        return summary
    }

    /// The reader of the store's snapshot and the header of its archive, before any record is read. With
    /// `inPlace`, the store is a private file nobody writes (see `StoreSnapshot(privateFile:)`), read without a copy.
    /// - Throws: ``TaskInterchangeError`` for store and mapping problems.
    static func prepare(store: String, options: ExportOptions, inPlace: Bool = false) throws
        -> (StoreReader, ArchiveHeader)
    {
        let snapshot =
            inPlace
            ? try StoreSnapshot(privateFile: store) : try StoreSnapshot(path: store, busyTimeout: options.busyTimeout)
        let reader = try StoreReader(
            snapshot: snapshot, mapping: options.mapping, mappingSource: options.mappingSource,
            carryExtras: options.writing.formatVersion >= 2, selection: options.selection,
            model: options.model)
        reader.writesArchive = true
        if let store = options.externalDataStore { reader.externalData = ExternalData(store: store) }
        let header = ArchiveHeader(
            format: options.writing.formatVersion >= 2 ? ArchiveHeader.formatName : nil,
            version: options.writing.formatVersion, exportDate: options.exportDate,
            generator: ArchiveHeader.Generator(name: ToolInfo.name, version: ToolInfo.version),
            source: ArchiveHeader.Source(
                store: options.sourceName ?? store, storeUUID: reader.schema.storeUUID, entities: reader.entityNames,
                relationships: reader.relationshipDeclarations,
                model: reader.entityDeclarations,
                maxKeys: try reader.handedOutKeys(),
                selection: options.selection.isEverything ? nil : options.selection))
        return (reader, header)
    }

    /// The summary of an export whose reader has read everything: the archive's `counts`, the reader's findings and
    /// the fields the format dropped.
    static func summarize(
        store: String, reader: StoreReader, counts: ArchiveCounts, droppedFields: [String: Int],
        options: ExportOptions, started: Date
    ) -> ExportSummary {
        var findings = reader.findings
        for (field, count) in droppedFields.sorted(by: { $0.key < $1.key }) where count > 0 {
            findings.append(
                StoreFinding(
                    .droppedByFormat, property: field, count: count,
                    message:
                        "format version \(options.writing.formatVersion) has no place for these values; not written"))
        }
        if !options.selection.isEverything {
            if options.writing.formatVersion < 2 {
                // Without its selection the file reads as a whole store, which `--mode replace` would enforce.
                findings.append(
                    StoreFinding(
                        .droppedByFormat, property: "source.selection", count: 1,
                        message: "format version 1 has no place for the selection "
                            + "(\(options.selection)); the file reads as a whole store, and an "
                            + "import with " + TaskInterchangeError.Setting.mode.name
                            + " .replace would delete what it does not hold"))
            }
            let total = counts.projects + counts.categories + counts.tags + counts.tasks + counts.entities
            if total == 0 {
                findings.append(
                    StoreFinding(
                        .emptySelection, count: 0,
                        message: "the selection (\(options.selection)) matches no record; "
                            + "the archive is empty"))
            }
        }
        var summary = ExportSummary(
            store: store, counts: counts, formatVersion: options.writing.formatVersion,
            entities: reader.entityNames,
            findings: findings, seconds: Date().timeIntervalSince(started))
        summary.generic = reader.genericCounts
        summary.cells = reader.cells
        return summary
    }
}

/// Forwards a reader's records to an archive writer.
struct WritingVisitor: ArchiveVisitor {
    var writer: ArchiveWriter
    mutating func visitProject(_ project: ProjectRecord, index: Int) throws { try writer.write(project: project) }
    mutating func visitCategory(_ category: CategoryRecord, index: Int) throws { try writer.write(category: category) }
    mutating func visitTag(_ tag: TagRecord, index: Int) throws { try writer.write(tag: tag) }
    mutating func visitTask(_ task: TaskRecord, index: Int) throws { try writer.write(task: task) }
    mutating func visitEntity(_ record: EntityRecord, index: Int) throws { try writer.write(entity: record) }
    mutating func visitTable(_ table: RawTable, index: Int) throws { try writer.write(table: table) }
    mutating func visitIssue(_ issue: ValidationIssue) {}
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}
}
