/// An archive that `Archive(json:)` could not accept: malformed, or with error-severity issues.
public struct ArchiveDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every issue the reader reported, warnings included.
    public var issues: [ValidationIssue]

    /// Creates an error from the reader's issues.
    public init(issues: [ValidationIssue]) {
        self.issues = issues
    }

    /// The errors only.
    public var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }

    /// `the archive has 2 errors:` followed by one indented line per error.
    public var description: String {
        let errors = errors
        let noun = errors.count == 1 ? "error" : "errors"
        return (["the archive has \(errors.count) \(noun):"] + errors.map { "  \($0)" }).joined(separator: "\n")
    }
}
