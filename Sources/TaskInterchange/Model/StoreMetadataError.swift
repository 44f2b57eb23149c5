/// Why a store's `Z_METADATA.Z_PLIST` could not be read.
package enum StoreMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is not a property list (or nests absurdly deep).
    case notAPropertyList(String)
    /// A property list whose root is not a dictionary.
    case notADictionary
    /// A known key holds a value of the wrong kind; the text says which.
    case malformed(String)

    /// What is wrong, for people.
    package var description: String {
        switch self {
        case .notAPropertyList(let reason): return "the store metadata is not a property list (\(reason))"
        case .notADictionary: return "the store metadata is not a dictionary"
        case .malformed(let reason): return "the store metadata is malformed: \(reason)"
        }
    }
}
