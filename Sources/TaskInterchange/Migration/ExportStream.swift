import Foundation

/// The records an export of a store produces, handed to their reader as the store is read instead of through an
/// archive file: a migration imports its backup this way, the store read on one core while the import writes on the
/// other, and nothing is written between them.
///
/// The importer reads the referenced kinds first, then the tasks (with the generic records and tables): the store
/// lists them in that order, so both passes take their records from one read, each where the last stopped. A pass
/// that asks for records an earlier one has passed (a full validation after a failed import) reads the store again:
/// it is a private backup nobody writes, so every read delivers the same records.
///
/// Every record goes through the checks an archive writer makes (a date the format cannot hold fails as the export
/// would), and is counted as the archive would count it.
final class ExportStream: ArchiveSource {
    /// The header the archive would open with.
    let archiveHeader: ArchiveHeader
    private let store: String
    private let options: ExportOptions
    private let inPlace: Bool
    private let started = Date()
    private var reader: StoreReader
    private var read: Read?
    private var checker: ArchiveWriter
    /// The reads started; each after the first needs a new reader.
    private(set) var reads = 0
    /// The summary of the export, once one read has delivered every record.
    private(set) var summary: ExportSummary?
    /// Where the reads started from now on fingerprint every record they read, on the reading thread, which has time
    /// to spare while the import writes (a migration's verification compares the new store with them).
    var fingerprints: DigestLog?

    /// One read of the store: its channel and how far its consumer got.
    private struct Read {
        let channel: PipelineChannel
        var batch: [PipelineEvent] = []
        var next = 0
        /// The rank of the last record taken (see `rank`); -1 before the first.
        var position = -1
        var counts = ArchiveCounts(projects: 0, categories: 0, tags: 0, tasks: 0, subtasks: 0)
    }

    /// Opens the store (its snapshot, mapping and header) without reading a record. With `inPlace`, the store is a
    /// self-contained private file (a backup), read where it is.
    /// - Throws: as `Exporter.export(store:toFile:options:)` before it writes.
    init(store: String, options: ExportOptions, inPlace: Bool) throws {
        var options = options
        // Records go straight to the consumer: the format version is the current one, which carries everything.
        options.writing = ArchiveWritingOptions()
        self.store = store
        self.options = options
        self.inPlace = inPlace
        (reader, archiveHeader) = try Exporter.prepare(store: store, options: options, inPlace: inPlace)
        checker = try ArchiveWriter(sink: ByteBuffer(), options: options.writing)
    }

    deinit { stop() }

    /// Ends the current read, waiting for its thread.
    func stop() {
        guard let read else { return }
        read.channel.cancel()
        read.channel.waitForThread()
        self.read = nil
    }

    func header() throws -> ArchiveHeader? { archiveHeader }

    /// Streams the records of `kinds` (all when nil), continuing the current read when they all come after what it
    /// has handed out.
    /// - Throws: what the visitor throws; the store's reading errors; `.cancelled` when stopped.
    func stream(kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor) throws {
        let wanted = Self.ranks(of: kinds)
        // Records of these kinds were taken already: only a new read has them all.
        if let read, let first = wanted.min(), first <= read.position { stop() }
        if read == nil { try start() }
        try visitor.visitHeader(archiveHeader)
        let last = wanted.max() ?? -1
        do {
            while let event = try peek() {
                let rank = Self.rank(of: event)
                if let rank, rank > last {
                    // The next pass's first record: left for it.
                    try visitor.visitEnd(header: archiveHeader, counts: nil)
                    return
                }
                read!.next += 1
                if let rank {
                    read!.position = rank
                    if wanted.contains(rank) { try deliver(event, to: &visitor) }
                }
            }
        } catch {
            stop()
            throw error
        }
        let counts = read!.counts
        stop()
        if reads == 1 { options.progress?(counts.tasks, counts.tasks) }
        summary = Exporter.summarize(
            store: store, reader: reader, counts: counts, droppedFields: checker.droppedFields, options: options,
            started: started)
        try visitor.visitEnd(header: archiveHeader, counts: counts)
    }

    /// Starts a read; a second one opens the store again (the first reader has read to its end or was stopped).
    private func start() throws {
        if reads > 0 {
            (reader, _) = try Exporter.prepare(store: store, options: options, inPlace: inPlace)
            checker = try ArchiveWriter(sink: ByteBuffer(), options: options.writing)
        }
        // Progress is the first read's: a read again (to report every problem, or to verify) is not the export.
        let progress = reads == 0 ? options.progress : nil
        reads += 1
        summary = nil
        let box = ReaderBox(reader)
        let (fingerprints, header) = (fingerprints, archiveHeader)
        read = Read(
            channel: RecordPipeline.producing { pipeline in
                guard let fingerprints else { return try box.reader.read(into: &pipeline, progress: progress) }
                fingerprints.beginRead(header)
                var fingerprinting = Fingerprinting(inner: pipeline, log: fingerprints)
                try box.reader.read(into: &fingerprinting, progress: progress)
                // Every record was read: a record read again (a second read) makes the log conflicting.
                fingerprints.cover(Set(RecordKind.allCases))
            })
    }

    /// The next event of the current read without taking it; nil at its end.
    private func peek() throws -> PipelineEvent? {
        guard var current = read else { return nil }
        if current.next == current.batch.count {
            guard let batch = current.channel.receive() else {
                if let failure = current.channel.producerFailure { throw failure }
                return nil
            }
            current.batch = batch
            current.next = 0
            read = current
        }
        return current.batch[current.next]
    }

    /// Checks and counts a record as an archive writer would, then hands it to `visitor`.
    private func deliver(_ event: PipelineEvent, to visitor: inout some ArchiveVisitor) throws {
        switch event {
        case .project(let record, _):
            try checker.checkFields(of: record)
            read!.counts.projects += 1
        case .category(let record, _):
            try checker.checkFields(of: record)
            read!.counts.categories += 1
        case .tag(let record, _):
            try checker.checkFields(of: record)
            read!.counts.tags += 1
        case .task(let record, _):
            try checker.checkFields(of: record)
            read!.counts.tasks += 1
            read!.counts.subtasks += record.subtasks.count
        case .entity:
            read!.counts.entities += 1
        case .table, .issue, .header, .end:
            break
        }
        try event.deliver(to: &visitor)
    }

    /// Where a record comes in the store's order: projects, categories, tags, then tasks with the generic records
    /// and tables (delivered whenever tasks are). Nil for what is not a record: an export writes no issues.
    private static func rank(of event: PipelineEvent) -> Int? {
        switch event {
        case .project: return 0
        case .category: return 1
        case .tag: return 2
        case .task, .entity, .table: return 3
        case .issue, .header, .end: return nil
        }
    }

    /// The ranks of `kinds` (all when nil).
    private static func ranks(of kinds: Set<RecordKind>?) -> Set<Int> {
        guard let kinds else { return [0, 1, 2, 3] }
        var ranks = Set<Int>()
        if kinds.contains(.project) { ranks.insert(0) }
        if kinds.contains(.category) { ranks.insert(1) }
        if kinds.contains(.tag) { ranks.insert(2) }
        if kinds.contains(.task) || RecordKind.deliversEntities(kinds) { ranks.insert(3) }
        return ranks
    }
}

extension ExportStream: ModelChangeFollower {
    /// Fingerprints from now on through `change`: the read under way (a pass that looked for duplicates) ends, and
    /// the next starts over with an empty log.
    func follow(_ change: ModelChange) {
        guard let fingerprints else { return }
        stop()
        fingerprints.readThrough(change)
    }
}

/// Fingerprints each record into `log`, then hands it on.
private struct Fingerprinting<Inner: ArchiveVisitor>: ArchiveVisitor {
    var inner: Inner
    let log: DigestLog

    mutating func visitProject(_ project: ProjectRecord, index: Int) throws {
        try take(.project(project)) { try $0.visitProject(project, index: index) }
    }
    mutating func visitCategory(_ category: CategoryRecord, index: Int) throws {
        try take(.category(category)) { try $0.visitCategory(category, index: index) }
    }
    mutating func visitTag(_ tag: TagRecord, index: Int) throws {
        try take(.tag(tag)) { try $0.visitTag(tag, index: index) }
    }
    mutating func visitTask(_ task: TaskRecord, index: Int) throws {
        try take(.task(task)) { try $0.visitTask(task, index: index) }
    }
    mutating func visitEntity(_ record: EntityRecord, index: Int) throws {
        try take(.entity(record)) { try $0.visitEntity(record, index: index) }
    }

    private mutating func take(_ item: GraphItem, then visit: (inout Inner) throws -> Void) throws {
        log.add(item)
        try visit(&inner)
    }

    mutating func visitHeader(_ header: ArchiveHeader) throws { try inner.visitHeader(header) }
    mutating func visitTable(_ table: RawTable, index: Int) throws { try inner.visitTable(table, index: index) }
    mutating func visitIssue(_ issue: ValidationIssue) throws { try inner.visitIssue(issue) }
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws {
        try inner.visitEnd(header: header, counts: counts)
    }
}

/// The reader handed to the reading thread; only that thread touches it until the read has ended.
private final class ReaderBox: @unchecked Sendable {
    let reader: StoreReader
    init(_ reader: StoreReader) { self.reader = reader }
}

// A read owns a thread and a connection, used from one caller at a time.
@available(*, unavailable)
extension ExportStream: Sendable {}
