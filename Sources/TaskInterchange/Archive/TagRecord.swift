import Foundation

/// A tag: many-to-many with tasks.
public struct TagRecord: Sendable, Hashable, Codable {
    /// The tag's stable identity.
    public var id: UUID
    /// The display name.
    public var name: String

    /// Creates a tag record.
    public init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }
}
