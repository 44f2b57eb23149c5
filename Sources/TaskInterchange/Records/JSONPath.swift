import Foundation

/// JSON paths as issues and errors name them: `$.tasks[3].extra.blocking[0]`, with names that are not plain
/// identifiers quoted (`$.source.entities["my kind"]`).
enum JSONPath {
    /// `path.name`, or `path["name"]` when the name is not a plain identifier.
    static func member(_ path: String, _ name: String) -> String {
        let isIdentifier =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            }
        if isIdentifier { return path + "." + name }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return path + "[\"" + escaped + "\"]"
    }

    /// A member of a record's member: `$.tasks[3].subtasks[1].extra.blocking`.
    static func member(record: RecordPath, _ object: String, _ name: String) -> String {
        member(record.description + "." + object, name)
    }
}

/// Where a record is in an archive, kept as numbers and spelled only for a message: `$.tasks[3]`,
/// `$.tasks[3].subtasks[1]`.
struct RecordPath: Sendable, Hashable, CustomStringConvertible {
    /// The section's kind (`task` for a subtask).
    var kind: RecordKind
    var index: Int
    /// The subtask's position in its task, for a subtask.
    var subtask: Int?

    init(_ kind: RecordKind, _ index: Int, subtask: Int? = nil) {
        self.kind = kind
        self.index = index
        self.subtask = subtask
    }

    /// The path of the task's subtask at `position`.
    func subtask(_ position: Int) -> RecordPath {
        RecordPath(kind, index, subtask: position)
    }

    var description: String {
        "$.\(kind.sectionName)[\(index)]" + (subtask.map { ".subtasks[\($0)]" } ?? "")
    }

    /// A member of the record: `$.tasks[3].priority`.
    func member(_ name: String) -> String {
        JSONPath.member(description, name)
    }
}

extension JSONPath {
    /// `$.entities.Note[3]`: a record of the generic section.
    static func entityRecord(_ entity: String, _ index: Int) -> String {
        member("$.entities", entity) + "[\(index)]"
    }
}
