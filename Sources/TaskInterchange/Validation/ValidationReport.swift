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
    /// The selection that chose part of a store (`source.selection`); nil for a whole store.
    public var selection: ExportSelection?
    /// All issues found per code, including those past the cap (empty in a report decoded from JSON, which does not
    /// carry it).
    public var codeCounts: [ValidationIssue.Code: Int] = [:]

    private enum CodingKeys: String, CodingKey { case issues, errorCount, warningCount, version, counts, selection }

    /// Creates a report.
    public init(
        issues: [ValidationIssue], errorCount: Int, warningCount: Int, version: Int?, counts: ArchiveCounts,
        selection: ExportSelection? = nil, codeCounts: [ValidationIssue.Code: Int] = [:]
    ) {
        self.issues = issues
        self.errorCount = errorCount
        self.warningCount = warningCount
        self.version = version
        self.counts = counts
        self.selection = selection
        self.codeCounts = codeCounts
    }

    /// True when nothing blocks an import.
    public var isValid: Bool { errorCount == 0 }

    /// How many issues were found but not listed because of the cap.
    public var omittedCount: Int { errorCount + warningCount - issues.count }
}
