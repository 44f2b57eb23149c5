/// A file or stdin read by `ArchiveReader`, straight from the mapped bytes: the importer reads it once, or once per
/// pass when its sections are in another order.
extension ArchiveInput: ArchiveSource {
    /// Streams the records of `kinds` (all when nil) to `visitor`, reading the bytes once per call.
    /// - Throws: what the visitor throws; `.cancelled` when stopped.
    public func stream(kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor) throws {
        readObserver?(kinds, 0, count)
        // Parsing and what the visitor does with the records (validating, writing a store) each get a core.
        try RecordPipeline.run(&visitor) { try read(kinds, into: &$0) }
        readObserver?(kinds, count, count)
    }

    /// Streams as `stream(kinds:into:)` does, `checker`'s calls made on the parsing thread: validating beside an
    /// import costs the parser's core, which has time to spare, instead of the writer's.
    /// - Throws: what either visitor throws; `.cancelled` when stopped.
    public func stream(
        kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor, checking checker: inout some ArchiveVisitor
    ) throws {
        readObserver?(kinds, 0, count)
        try RecordPipeline.run(&visitor, checking: &checker) { try read(kinds, into: &$0) }
        readObserver?(kinds, count, count)
    }

    private func read(_ kinds: Set<RecordKind>?, into pipeline: inout RecordPipeline) throws {
        let reader = ArchiveReader(options: ArchiveReadingOptions(kinds: kinds ?? Set(RecordKind.sections)))
        try withBytes {
            try reader.read(
                $0, into: &pipeline,
                consumed: {
                    self.release(below: $0)
                    self.readObserver?(kinds, $0, self.count)
                })
        }
    }

    /// True for a document that lists its sections as exports do (projects, categories and tags before the rest):
    /// only its members ahead of the tasks are read to tell.
    public func listsReferencedKindsFirst() -> Bool {
        withBytes { ArchiveReader.listsReferencedSectionsFirst($0) }
    }

    /// The header, read up to where the reader has it (a document's `source` comes before its sections): the rest of
    /// the file is not read.
    /// - Throws: never for problems in the input (nil when it has no usable header).
    public func header() throws -> ArchiveHeader? {
        var reader = HeaderReader(stopsAtHeader: true)
        do {
            try withBytes { try ArchiveReader(options: ArchiveReadingOptions(kinds: [])).read($0, into: &reader) }
        } catch is HeaderReader.Stop {
            // Stopped at the header, as asked.
        }
        return reader.sawError ? nil : reader.header
    }
}
