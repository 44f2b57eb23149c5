import Foundation

/// A failed migration for people: the stage, what went wrong and where the backup is, in one line; what to do is the
/// underlying error's advice.
extension MigrationError: LocalizedError {
    public var errorDescription: String? { description }

    public var failureReason: String? {
        (underlying as? any LocalizedError)?.failureReason
    }

    public var recoverySuggestion: String? {
        (underlying as? any LocalizedError)?.recoverySuggestion
    }
}
