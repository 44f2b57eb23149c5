/// What `ArchiveReader` delivers.
public struct ArchiveReadingOptions: Sendable, Hashable {
    /// The kinds of record delivered to the visitor; the others are skipped quickly (still counted for the `counts`
    /// check, but their fields are not checked). All kinds by default.
    public var kinds: Set<RecordKind>
    /// How deeply arrays and objects may nest before the input is rejected as malformed.
    public var maximumDepth: Int

    /// Creates options.
    public init(kinds: Set<RecordKind> = Set(RecordKind.sections), maximumDepth: Int = 64) {
        self.kinds = kinds
        self.maximumDepth = maximumDepth
    }
}
