import Foundation

/// Streams an archive to a `ByteSink`, record by record, keeping no record in memory.
///
/// Call `begin(header:)`, then write projects, categories, tags and tasks in that order (any kind may be empty), then
/// `finish()`. Output is deterministic byte for byte: fixed key order, sorted `entities`, UUIDs uppercase, dates as
/// `LosslessDate` text (version 2) or seconds since 2001 (version 1).
///
/// Version 1 is the `DataExporter` format (`version`, `exportDate`, `projects`, `tags`, `tasks`); what it cannot hold
/// (categories, subtasks, notes, due dates, category links, project creation dates) is dropped and counted in
/// `droppedFields`.
struct ArchiveWriter {
    /// Where the text goes.
    var output: JSONWriter
    /// The options given at creation.
    let options: ArchiveWritingOptions
    /// Records written so far (for version 1, only what the file holds: no categories or subtasks).
    package internal(set) var counts = ArchiveCounts()
    /// Version 1 only: how many values of each kind were left out (`categories`, `task.subtasks`, `task.notes`,
    /// `task.dueDate`, `task.categoryId`, `project.createdAt`), so a caller can warn.
    package internal(set) var droppedFields: [String: Int] = [:]

    /// Open objects and arrays, for separators and indentation (a few bits per level, see `Levels`).
    var levels = Levels()
    /// Where the writer is in the document.
    var stage = Stage.ready
    /// True while a section's array is open (version 1 never opens one for categories).
    var sectionIsOpen = false
    /// The entity whose records the generic section is writing (nil until the first one).
    var entityGroup: String?
    /// The table the `tables` section wrote last (nil until the first one).
    var tableGroup: String?

    /// Where the writer is in the document.
    enum Stage: Equatable {
        /// `begin(header:)` has not been called.
        case ready
        /// Header written; the sections up to and including `through` have been opened (nil: none yet).
        case writing(through: RecordKind?)
        /// `finish()` has been called.
        case finished
    }

    /// Creates a writer; nothing is written until `begin(header:)`.
    ///
    /// - Throws: `ArchiveWritingError.unsupportedVersion` or `.ndjsonRequiresVersion2` for options it cannot honour.
    init(sink: any ByteSink, options: ArchiveWritingOptions = ArchiveWritingOptions()) throws(ArchiveWritingError) {
        guard options.formatVersion == 1 || options.formatVersion == 2 else {
            throw .unsupportedVersion(options.formatVersion)
        }
        if options.layout == .ndjson && options.formatVersion != 2 { throw .ndjsonRequiresVersion2 }
        self.options = options
        output = JSONWriter(sink: sink)
    }

    /// Writes the header: `format`, `version`, `exportDate`, `generator`, `source` (version 2), or `version` and
    /// `exportDate` (version 1). The version written is the options' one, not `header.version`.
    ///
    /// - Throws: `ArchiveWritingError.outOfOrder` when called twice, `.missingExportDate` (version 1 without a date),
    ///   `.unrepresentable` for an export date that cannot be written.
    mutating func begin(header: ArchiveHeader) throws {
        guard stage == .ready else { throw ArchiveWritingError.outOfOrder("begin(header:) may be called only once") }
        if options.formatVersion == 1 {
            guard let exportDate = header.exportDate else { throw ArchiveWritingError.missingExportDate }
            try checkNumericDate(exportDate, "the export date")
            openObject(breaksLines: true)
            key("version")
            output.appendInteger(1)
            key("exportDate")
            try output.appendDouble(exportDate.timeIntervalSinceReferenceDate)
        } else {
            if let exportDate = header.exportDate { try checkLosslessDate(exportDate, "the export date") }
            try writeHeaderV2(header)
        }
        stage = .writing(through: nil)
        try output.flushIfNeeded()
    }

    /// Writes a project.
    ///
    /// - Throws: ``ArchiveWritingError`` (out of order, unrepresentable date) or the sink's error.
    mutating func write(project: ProjectRecord) throws {
        try checkFields(of: project)
        try enterSection(.project)
        counts.projects += 1
        if options.formatVersion == 1 { droppedFields["project.extra", default: 0] += project.extra?.count ?? 0 }
        try writeRecord(project)
        try endRecord()
    }

    /// Writes a category (version 1: counted in `droppedFields["categories"]`, not written).
    ///
    /// - Throws: ``ArchiveWritingError`` (out of order, a field it cannot represent) or the sink's error.
    mutating func write(category: CategoryRecord) throws {
        // Version 1 has no categories at all: they are counted whole, not field by field.
        if options.formatVersion >= 2 { try checkFields(of: category) }
        try enterSection(.category)
        if options.formatVersion == 1 {
            droppedFields["categories", default: 0] += 1
            return
        }
        counts.categories += 1
        try writeRecord(category)
        try endRecord()
    }

    /// Writes a tag.
    ///
    /// - Throws: ``ArchiveWritingError`` (out of order, a field it cannot represent) or the sink's error.
    mutating func write(tag: TagRecord) throws {
        try checkFields(of: tag)
        try enterSection(.tag)
        counts.tags += 1
        if options.formatVersion == 1 { droppedFields["tag.extra", default: 0] += tag.extra?.count ?? 0 }
        try writeRecord(tag)
        try endRecord()
    }

    /// Writes a task with its subtasks.
    ///
    /// - Throws: ``ArchiveWritingError`` (out of order, unrepresentable date, version 1 priority outside Int16) or the
    ///   sink's error.
    mutating func write(task: TaskRecord) throws {
        try checkFields(of: task)
        try enterSection(.task)
        counts.tasks += 1
        if options.formatVersion == 1 {
            if task.categoryId != nil { droppedFields["task.categoryId", default: 0] += 1 }
            if !task.subtasks.isEmpty { droppedFields["task.subtasks", default: 0] += task.subtasks.count }
            droppedFields["task.extra", default: 0] += task.extra?.count ?? 0
        } else {
            counts.subtasks += task.subtasks.count
        }
        try writeTask(task)
        try endRecord()
    }

    /// Ends the document: empty arrays for kinds never written, the counts (version 2), then flushes the sink.
    ///
    /// - Returns: the counts of what the file holds.
    /// - Throws: `ArchiveWritingError.outOfOrder` before `begin(header:)` or after `finish()`; the sink's error.
    @discardableResult
    mutating func finish() throws -> ArchiveCounts {
        guard case .writing = stage else {
            throw ArchiveWritingError.outOfOrder(
                stage == .ready
                    ? "finish() called before begin(header:)"
                    : "finish() called twice")
        }
        if options.layout == .ndjson {
            openObject(breaksLines: false)
            key("type")
            output.appendRaw("\"trailer\"")
            key("counts")
            writeCounts()
            close()
            output.appendByte(UInt8(ascii: "\n"))
        } else {
            if tableGroup == nil {
                try closeRecordSections()
            } else {
                close()
            }
            if options.formatVersion == 2 {
                key("counts")
                writeCounts()
            }
            close()
            output.appendByte(UInt8(ascii: "\n"))
        }
        stage = .finished
        try output.flush()
        return counts
    }

    /// Checks the call order and opens the sections up to `kind`, writing empty arrays for kinds that were skipped.
    mutating func enterSection(_ kind: RecordKind) throws {
        guard case .writing(let through) = stage else {
            throw ArchiveWritingError.outOfOrder(
                stage == .ready
                    ? "begin(header:) must be called before writing records"
                    : "no records can be written after finish()")
        }
        if entityGroup != nil || tableGroup != nil {
            throw ArchiveWritingError.outOfOrder(
                "\(kind.sectionName) cannot follow the \(tableGroup == nil ? "entities" : "tables") section")
        }
        if let through {
            if kind < through {
                throw ArchiveWritingError.outOfOrder(
                    "\(kind.sectionName) cannot follow \(through.sectionName): sections are written in the order "
                        + "projects, categories, tags, tasks")
            }
            if kind == through { return }
        }
        stage = .writing(through: kind)
        // NDJSON has no sections; the order is still enforced above.
        guard options.layout != .ndjson else { return }
        let first = through.map { $0.order + 1 } ?? 0
        if sectionIsOpen { close() }
        sectionIsOpen = false
        for section in RecordKind.sections where section.order >= first && section.order <= kind.order {
            // Version 1 has no categories array.
            if section == .category && options.formatVersion == 1 { continue }
            key(section.staticSectionName)
            openArray(breaksLines: true)
            if section == kind {
                sectionIsOpen = true
            } else {
                close()
            }
        }
    }

    /// Finishes a record: NDJSON ends its line; the buffer goes to the sink once it is large.
    private mutating func endRecord() throws {
        if options.layout == .ndjson { output.appendByte(UInt8(ascii: "\n")) }
        try output.flushIfNeeded()
    }

    func checkLosslessDate(_ date: Date, _ what: @autoclosure () -> String) throws(ArchiveWritingError) {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite && seconds.magnitude <= LosslessDate.maximumMagnitude else {
            let reason = seconds.isFinite ? LosslessDateError.outOfRange(seconds) : .notFinite(seconds)
            throw .unrepresentable("\(what()): \(reason)")
        }
    }

    func checkNumericDate(_ date: Date, _ what: @autoclosure () -> String) throws(ArchiveWritingError) {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite else {
            throw .unrepresentable("\(what()): \(LosslessDateError.notFinite(seconds))")
        }
    }
}

// The sink is an existential of unknown thread-safety, and a writer is one stream's state.
@available(*, unavailable)
extension ArchiveWriter: Sendable {}
