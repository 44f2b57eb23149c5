/// Why `ArchiveWriter` refused to write something; all of them are checked before any byte of the record is written.
public enum ArchiveWritingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The options ask for a format version this library cannot write.
    case unsupportedVersion(Int)
    /// NDJSON was asked for with format version 1, which has no NDJSON form.
    case ndjsonRequiresVersion2
    /// A call came out of order (a record before `begin`, projects after tasks, anything after `finish`).
    case outOfOrder(String)
    /// Format version 1 needs an export date and the header has none.
    case missingExportDate
    /// A value cannot be written in this format (a NaN date, a version 1 priority outside Int16); says which.
    case unrepresentable(String)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .unsupportedVersion(let version):
            return "cannot write format version \(version); this tool writes versions 1 and 2"
        case .ndjsonRequiresVersion2:
            return "NDJSON output needs format version 2"
        case .outOfOrder(let message):
            return message
        case .missingExportDate:
            return "format version 1 needs an export date"
        case .unrepresentable(let message):
            return message
        }
    }
}
