/// A file or stdin read by `ArchiveReader`: the importer reads it once per pass, straight from the mapped bytes.
extension ArchiveInput: ArchiveSource {
    public func stream(kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor) throws {
        let reader = ArchiveReader(options: ArchiveReadingOptions(kinds: kinds ?? Set(RecordKind.allCases)))
        try withBytes { try reader.read($0, into: &visitor, consumed: { self.release(below: $0) }) }
    }
}
