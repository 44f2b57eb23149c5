import Foundation

/// A tag object as the app's model has it.
public protocol TaskGraphTag: AnyObject {
    /// The interchange id.
    var id: UUID { get set }
    /// The name.
    var name: String { get set }
}
