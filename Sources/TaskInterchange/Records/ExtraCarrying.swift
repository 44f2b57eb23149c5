import Foundation

/// A record with an `extra` object.
protocol ExtraCarrying {
    var id: UUID { get set }
    var extra: [String: ExtraValue]? { get set }
}

extension ProjectRecord: ExtraCarrying {}
extension CategoryRecord: ExtraCarrying {}
extension TagRecord: ExtraCarrying {}
extension TaskRecord: ExtraCarrying {}
extension SubtaskRecord: ExtraCarrying {}
