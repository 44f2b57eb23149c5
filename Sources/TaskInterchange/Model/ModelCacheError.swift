/// Why a store's model cache (`Z_MODELCACHE`) could not be read as an `ObjectModel`.
enum ModelCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The blob is not valid raw DEFLATE.
    case inflate(RawInflateError)
    /// The inflated data is not a keyed archive, or an archived object is not shaped as expected.
    case archive(KeyedArchiveError)
    /// The archive holds something that is not a consistent managed object model; the text says what and where.
    case malformed(String)
    /// A valid model that uses something this reader cannot represent (an unknown attribute type, an expression
    /// form without a known text format); the text says what and where.
    case unsupported(String)

    /// What is wrong, for people.
    var description: String {
        switch self {
        case .inflate(let error): return "the model cache cannot be inflated: \(error)"
        case .archive(let error): return "the model cache is not a readable archive: \(error)"
        case .malformed(let reason): return "the model cache is not a valid model: \(reason)"
        case .unsupported(let reason): return "the model cache uses something tasks cannot read: \(reason)"
        }
    }
}
