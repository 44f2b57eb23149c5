/// How `ArchiveWriter` lays out an archive.
public struct ArchiveWritingOptions: Sendable, Hashable {
    /// The shape of the text.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        /// No spaces, but each top-level member and each record on its own line, so diffs stay readable.
        case compact
        /// Two-space indentation everywhere.
        case pretty
        /// One JSON object per line: a header, the records, a trailer with the counts (version 2 only).
        case ndjson
    }

    /// The format version to write: 2 (default) or 1 (the `DataExporter` format).
    public var formatVersion: Int
    /// The text layout; `.compact` by default.
    public var layout: Layout

    /// Creates options.
    public init(formatVersion: Int = ArchiveHeader.currentVersion, layout: Layout = .compact) {
        self.formatVersion = formatVersion
        self.layout = layout
    }
}
