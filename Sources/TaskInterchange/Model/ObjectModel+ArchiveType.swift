/// A model's attribute types in the archive's vocabulary.
extension ObjectModel.AttributeType {
    /// The type `source.model` declares for an attribute of this type.
    package var archiveType: ArchiveType {
        switch self {
        case .integer16: return .integer16
        case .integer32: return .integer32
        case .integer64: return .integer64
        case .decimal: return .decimal
        case .double: return .double
        case .float: return .float
        case .string: return .string
        case .boolean: return .boolean
        case .date: return .date
        case .binaryData: return .binary
        case .uuid: return .uuid
        case .uri: return .uri
        case .transformable: return .transformable
        case .objectID: return .objectID
        case .undefined, .composite: return .untyped
        }
    }
}
