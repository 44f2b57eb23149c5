import Foundation

/// What an app shows its user: the message says what happened and where; the failure reason and the recovery
/// suggestion follow from the kind, in words about the data, not about the library's API.
extension TaskInterchangeError: LocalizedError {
    public var errorDescription: String? { message }

    public var failureReason: String? {
        switch kind {
        case .invalidData: return "The data read is not what was expected."
        case .noInput: return "A file that was to be read does not exist or cannot be opened."
        case .cannotCreate: return "A file that was to be written cannot be created."
        case .io: return "Reading or writing a file failed."
        case .busy: return "Another process is writing the store."
        case .usage: return "The settings given do not fit together or name something that does not exist."
        case .cancelled: return "The work was stopped before it finished; nothing of it was kept."
        case .internal: return "The library met a state it does not expect."
        }
    }

    public var recoverySuggestion: String? {
        switch kind {
        case .invalidData: return "Correct the file at the place the message names, or make it again."
        case .noInput: return "Check that the file exists and can be read."
        case .cannotCreate: return "Choose another place, or remove what is in the way."
        case .io: return "Check free space and permissions, then try again."
        case .busy: return "Try again when the other process has finished."
        case .usage: return "Change the settings the message names."
        case .cancelled: return "Run it again to finish."
        case .internal: return "Report the message as a bug."
        }
    }
}
