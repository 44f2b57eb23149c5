import Foundation

/// Exports a Core Data store to an interchange archive, streaming: records are written as rows are read.
public enum Exporter {
    /// Streams the store at `store` to `sink`.
    ///
    /// With `options.strict`, an `ExportStrictError` is thrown after writing when findings were warnings; use the
    /// file variant (or write to a temporary sink) when nothing may be written in that case.
    /// - Throws: `TaskInterchangeError` for store and mapping problems, `ByteSinkError` when the output fails.
    public static func export(store: String, to sink: any ByteSink, options: ExportOptions = ExportOptions()) throws -> ExportSummary {
        let started = Date()
        let snapshot = try StoreSnapshot(path: store)
        let reader = try StoreReader(snapshot: snapshot, mapping: options.mapping, mappingSource: options.mappingSource,
                                     carryExtras: options.writing.formatVersion >= 2)
        let header = ArchiveHeader(
            format: options.writing.formatVersion >= 2 ? ArchiveHeader.formatName : nil,
            version: options.writing.formatVersion, exportDate: options.exportDate,
            generator: ArchiveHeader.Generator(name: ToolInfo.name, version: ToolInfo.version),
            source: ArchiveHeader.Source(store: options.sourceName ?? store, storeUUID: reader.schema.storeUUID, entities: reader.entityNames,
                                         relationships: reader.relationshipDeclarations))
        var visitor = WritingVisitor(writer: try ArchiveWriter(sink: sink, options: options.writing))
        try visitor.writer.begin(header: header)
        try reader.read(into: &visitor, progress: options.progress)
        let counts = try visitor.writer.finish()
        var findings = reader.findings
        for (field, count) in visitor.writer.droppedFields.sorted(by: { $0.key < $1.key }) where count > 0 {
            findings.append(StoreFinding(.droppedByFormat, property: field, count: count,
                                         message: "format version \(options.writing.formatVersion) has no place for these values; not written"))
        }
        let summary = ExportSummary(store: store, counts: counts, formatVersion: options.writing.formatVersion, entities: reader.entityNames,
                                    findings: findings, seconds: Date().timeIntervalSince(started))
        if options.strict && summary.hasWarnings { throw ExportStrictError(summary: summary) }
        return summary
    }

    /// Exports to a file, atomically: written to a temporary file beside it and renamed into place only when complete
    /// (and, with `strict`, only when nothing was lost). An interrupted export never leaves a truncated file.
    /// - Throws: as `export(store:to:options:)`, and `TaskInterchangeError.cannotCreate` when the file cannot be made.
    public static func export(store: String, toFile path: String, options: ExportOptions = ExportOptions()) throws -> ExportSummary {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tasks-\(UUID().uuidString)").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TaskInterchangeError(.cannotCreate, "\(path): cannot create the output file: \(String(cString: strerror(errno)))")
        }
        var closed = false
        defer {
            if !closed { close(descriptor) }
            unlink(temporary)
        }
        let summary = try export(store: store, to: FileDescriptorSink(fileDescriptor: descriptor), options: options)
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            throw TaskInterchangeError(.io, "\(path): cannot write the output file: \(String(cString: strerror(errno)))")
        }
        closed = true
        guard rename(temporary, path) == 0 else {
            throw TaskInterchangeError(.cannotCreate, "\(path): cannot move the finished output into place: \(String(cString: strerror(errno)))")
        }
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
    mutating func visitIssue(_ issue: ValidationIssue) {}
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}
}
