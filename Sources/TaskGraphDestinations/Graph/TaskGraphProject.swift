import Foundation

/// A project object as the app's model has it (a SwiftData `@Model` class, a Core Data object, a test's class).
public protocol TaskGraphProject: AnyObject {
    /// The interchange id.
    var id: UUID { get set }
    /// The name.
    var name: String { get set }
    /// When it was created, if known.
    var createdAt: Date? { get set }
}
