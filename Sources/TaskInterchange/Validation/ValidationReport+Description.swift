extension ValidationReport: CustomStringConvertible {
    /// Issues of one code that are listed on one line once there are this many of them.
    static let groupThreshold = 3
    /// Ids (or paths) named on a grouped line besides the first issue's.
    static let groupExamples = 3

    /// The issues, then the verdict: `valid (format version 2): 5 projects, … tasks, 0 subtasks`.
    public var description: String { notices + verdict + "\n" }

    /// One line per issue, except that the issues of one code, when there are several, share one line: the first in
    /// full, then how many there are in all and the next few ids (or paths, for issues about no id); then how many
    /// were counted but not kept. Empty for a report without issues.
    public var notices: String {
        var listed: [ValidationIssue.Code: [ValidationIssue]] = [:]
        for issue in issues { listed[issue.code, default: []].append(issue) }
        var text = ""
        var grouped: Set<ValidationIssue.Code> = []
        var accounted = 0
        for issue in issues {
            let group = listed[issue.code] ?? []
            guard group.count >= Self.groupThreshold else {
                text += "\(issue.severity.rawValue): \(issue.description)\n"
                accounted += 1
                continue
            }
            guard grouped.insert(issue.code).inserted else { continue }
            let total = max(codeCounts[issue.code] ?? 0, group.count)
            accounted += total
            let others = group.dropFirst().prefix(Self.groupExamples).map { $0.subject ?? $0.path }
            let rest = total - 1 - others.count
            let plural = issue.severity == .error ? "errors" : "warnings"
            text +=
                "\(issue.severity.rawValue): \(issue.description) [\(total) \(issue.code.rawValue) \(plural); also "
                + others.joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "") + "]\n"
        }
        let omitted = errorCount + warningCount - accounted
        if omitted > 0 {
            text += "… and \(omitted) more issue\(omitted == 1 ? "" : "s") not listed\n"
        }
        return text
    }

    /// The verdict in one line (without its newline): `valid (format version 2): <counts>, 1 warning(s)`;
    /// `invalid: 2 error(s), 0 warning(s)`; for an archive whose only errors are ids the target already holds,
    /// how many (it is not broken, but meant for a mode that updates or skips them); for a file that is not an archive
    /// at all, or ends early, what is wrong with the whole file.
    public var verdict: String {
        if isValid {
            return "valid (format version \(version.map(String.init) ?? "?")): \(counts)"
                + (warningCount > 0 ? ", \(warningCount) warning(s)" : "")
        }
        if let whole = issues.first(where: \.concernsWholeFile) {
            return whole.message
        }
        if let existing = existingRecordCount {
            return "\(existing) of the archive's records already exist in the target store (by id)"
        }
        return "invalid: \(errorCount) error(s), \(warningCount) warning(s)"
    }

    /// For a report whose only errors are ids the target holds (``ValidationIssue/Code/idExistsInStore``): how many;
    /// nil for any other report.
    public var existingRecordCount: Int? {
        let count = codeCounts[.idExistsInStore] ?? 0
        return count > 0 && count == errorCount ? count : nil
    }
}
