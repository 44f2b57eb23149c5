import Foundation

/// What an app shows its user: the same text as `description`.
extension ArchiveWritingError: LocalizedError {
    public var errorDescription: String? { description }
}
