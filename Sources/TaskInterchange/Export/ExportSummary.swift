/// What an export wrote and everything it noticed.
public struct ExportSummary: Sendable, Codable {
    /// The store read.
    public var store: String
    /// Records written per kind.
    public var counts: ArchiveCounts
    /// The format version written.
    public var formatVersion: Int
    /// Which entity was read for each kind.
    public var entities: [String: String]
    /// Records written per entity of the generic `entities` section (entities no kind reads).
    public var generic: [String: Int] = [:]
    /// Every value the store holds against what the archive carries (nil for a selection or format version 1).
    public var cells: CellAccount?
    /// Data that could not be carried exactly, repairs, and notes.
    public var findings: [StoreFinding]
    /// Wall-clock seconds.
    public var seconds: Double

    /// True when some finding is a warning (what ``ExportOptions/strict`` refuses).
    public var hasWarnings: Bool { findings.contains(where: \.isWarning) }
}

/// An export with ``ExportOptions/strict`` found data it could not carry exactly; nothing was written.
public struct ExportStrictError: Error, Sendable {
    /// The summary with the findings that caused the failure.
    public var summary: ExportSummary
}
