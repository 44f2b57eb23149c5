import Foundation

/// An invalid archive in one line for people — how many errors of which codes, and the first one with its JSON path —
/// while ``report`` still carries every issue as data.
extension ArchiveValidationError: LocalizedError, CustomStringConvertible {
    /// `the archive is invalid: 3 errors (2 missing-reference, 1 duplicate-id); first: $.tasks[17].projectId: …;
    /// nothing was written`, or, when the only errors are records the store already holds, how many.
    public var description: String {
        let existing = report.codeCounts[.idExistsInStore] ?? 0
        if existing > 0 && existing == report.errorCount {
            return "\(existing) of the archive's records already exist in the target store (by id); nothing was written"
        }
        let errors = report.issues.filter { $0.severity == .error }
        // No archive at all, or one cut off: the rest of its issues follow from that one.
        if let whole = errors.first(where: \.concernsWholeFile) {
            var location = whole.path
            if let line = whole.line, let column = whole.column { location += " (\(line):\(column))" }
            return "\(whole.message), at \(location); nothing was written"
        }
        let counts =
            report.codeCounts.isEmpty
            ? Dictionary(grouping: errors, by: \.code).mapValues(\.count) : report.codeCounts
        let byCode = counts.filter { code, _ in errors.contains { $0.code == code } || errors.isEmpty }
            .sorted { ($1.value, $0.key.rawValue) < ($0.value, $1.key.rawValue) }
            .map { "\($0.value) \($0.key.rawValue)" }
        let noun = report.errorCount == 1 ? "error" : "errors"
        var text = "the archive is invalid: \(report.errorCount) \(noun)"
        if !byCode.isEmpty { text += " (\(byCode.joined(separator: ", ")))" }
        if let first = errors.first { text += "; first: \(first)" }
        return text + "; nothing was written"
    }

    public var errorDescription: String? { description }

    public var failureReason: String? {
        "The archive does not pass validation: its structure, its references or its ids are not what an import needs."
    }

    public var recoverySuggestion: String? {
        let existing = report.codeCounts[.idExistsInStore] ?? 0
        if existing > 0 && existing == report.errorCount {
            return "Import in the upsert, merge or skip mode to write into a store that already holds these records."
        }
        return "Correct the archive at the JSON paths its issues name, or export it again from its store."
    }
}
