import Foundation

/// A strict export that found data it could not carry exactly, in one line for people; ``summary`` keeps every finding.
extension ExportStrictError: LocalizedError, CustomStringConvertible {
    /// `the store holds data the export cannot carry exactly (2 findings; first: Note.body: …); nothing was written`
    public var description: String {
        let warnings = summary.findings.filter(\.isWarning)
        let noun = warnings.count == 1 ? "finding" : "findings"
        return "the store holds data the export cannot carry exactly (\(warnings.count) \(noun)"
            + (warnings.first.map { "; first: \($0)" } ?? "") + "); nothing was written"
    }

    public var errorDescription: String? { description }

    public var recoverySuggestion: String? {
        "Export without the strict setting to write the archive with these findings in its summary."
    }
}
