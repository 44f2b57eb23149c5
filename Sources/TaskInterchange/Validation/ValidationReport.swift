/// The outcome of validating an archive: the problems found (capped) and what the archive holds.
public struct ValidationReport: Sendable, Hashable, Codable {
    /// Problems in document order, at most `ValidationOptions.maxIssues` of them.
    public var issues: [ValidationIssue]
    /// All errors found, including those past the cap.
    public var errorCount: Int
    /// All warnings found, including those past the cap.
    public var warningCount: Int
    /// The format version read, when the file had a usable one.
    public var version: Int?
    /// How many records of each kind the archive holds.
    public var counts: ArchiveCounts
    /// The export options that chose part of a store (`source.selection`); nil for a whole store.
    public var selection: String?

    /// True when nothing blocks an import.
    public var isValid: Bool { errorCount == 0 }

    /// How many issues were found but not listed because of the cap.
    public var omittedCount: Int { errorCount + warningCount - issues.count }
}
