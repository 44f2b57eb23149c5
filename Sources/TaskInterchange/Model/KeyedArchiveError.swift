/// Why data could not be read as an `NSKeyedArchiver` archive, or an archived object not as expected.
enum KeyedArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is not a property list; the text is Foundation's reason.
    case notAPropertyList(String)
    /// A property list, but not a keyed archive (no `$objects` array, no `$top` dictionary, another archiver).
    case notAKeyedArchive(String)
    /// A `CF$UID` reference outside `$objects`.
    case badReference(index: Int, objectCount: Int)
    /// References that lead back to an object being resolved.
    case cyclicReference(index: Int)
    /// Nesting deeper than the reader's budget.
    case tooDeep(limit: Int)
    /// Expanding a value would produce more values than the budget.
    case tooLarge(limit: Int)
    /// An object does not have the shape its use requires; the text says which and where.
    case malformed(String)

    /// What is wrong, for people.
    var description: String {
        switch self {
        case .notAPropertyList(let reason):
            return "not a property list (\(reason))"
        case .notAKeyedArchive(let reason):
            return "not an NSKeyedArchiver archive: \(reason)"
        case .badReference(let index, let count):
            return "a reference to object \(index), but the archive has \(count) objects"
        case .cyclicReference(let index):
            return "object \(index) refers back to itself through its contents"
        case .tooDeep(let limit):
            return "values nest deeper than \(limit) levels"
        case .tooLarge(let limit):
            return "the value expands to more than \(limit) values"
        case .malformed(let reason):
            return reason
        }
    }
}
