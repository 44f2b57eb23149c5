import Foundation

/// What an app shows its user: how many errors, and the first with its JSON path, in one line.
extension ArchiveDecodingError: LocalizedError {
    public var errorDescription: String? {
        let errors = errors
        let noun = errors.count == 1 ? "error" : "errors"
        return "the archive has \(errors.count) \(noun)" + (errors.first.map { "; first: \($0)" } ?? "")
    }
}
