import Foundation

/// A category object as the app's model has it.
public protocol TaskGraphCategory: AnyObject {
    /// The interchange id.
    var id: UUID { get set }
    /// The name.
    var name: String { get set }
    /// The color's name ("blue" by default in the interchange).
    var color: String { get set }
}
