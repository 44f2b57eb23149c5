import Foundation

/// What an app shows its user: the same text as `description`.
extension ByteSinkError: LocalizedError {
    public var errorDescription: String? { description }
}
