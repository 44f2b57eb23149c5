import Foundation
import TaskInterchange

/// The text form of a `GraphDiff`, for people: per-kind counts, then the differing records grouped by kind, each group
/// capped with a count of what it leaves out.
enum DiffRenderer {
    static func text(_ diff: GraphDiff, limit: Int) -> String {
        var text = ""
        for summary in diff.kinds {
            var notes: [String] = []
            if summary.onlyInA > 0 { notes.append("\(summary.onlyInA) only in A") }
            if summary.onlyInB > 0 { notes.append("\(summary.onlyInB) only in "
                + "B\(diff.bMayHoldMore ? " (not a difference)" : "")") }
            if summary.changed > 0 { notes.append("\(summary.changed) changed") }
            let name = summary.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
            text += "  \(name) \(summary.countA) ↔ "
                + "\(summary.countB)\(notes.isEmpty ? "" : "  (\(notes.joined(separator: ", ")))")\n"
        }
        for kind in StoreMapping.Kind.allCases {
            let records = diff.records.filter { $0.kind == kind }
            guard !records.isEmpty else { continue }
            text += "\n"
            for record in records.prefix(limit) { text += self.record(record) }
            if records.count > limit {
                text += "  … and \(records.count - limit) more \(kind.rawValue) "
                    + "difference\(records.count - limit == 1 ? "" : "s") (--limit N or --json to see them)\n"
            }
        }
        if diff.omittedCount > 0 {
            text += "\n… and \(diff.omittedCount) more difference\(diff.omittedCount == 1 ? "" : "s") counted but not "
                + "listed\n"
        }
        return text
    }

    static func record(_ record: RecordDifference) -> String {
        var label = record.label
        if label.count > 40 { label = String(label.prefix(39)) + "…" }
        let where_: String
        switch record.change {
        case .onlyInA: where_ = "only in A"
        case .onlyInB: where_ = "only in B"
        case .changed: where_ = "changed"
        }
        var text = "\(record.kind.rawValue) \(record.id.uuidString) "
            + "\(quote(label))\(record.taskId.map { " (task \($0.uuidString))" } ?? ""): \(where_)\n"
        for field in record.fields {
            switch field.change {
            case .value:
                text += "  \(field.field): \(value(field.old)) → \(value(field.new))\n"
            case .links:
                var parts: [String] = []
                if let added = field.added, !added.isEmpty { parts.append("+ " + ids(added)) }
                if let removed = field.removed, !removed.isEmpty { parts.append("− " + ids(removed)) }
                text += "  \(field.field): \(parts.joined(separator: "; "))\n"
            case .order:
                text += "  \(field.field): order \(ids(field.oldOrder ?? [])) → \(ids(field.newOrder ?? []))\n"
            }
        }
        return text
    }

    static func value(_ value: ExtraValue?) -> String {
        guard let value else { return "(absent)" }
        switch value {
        case .null: return "null"
        case .bool(let bool): return String(bool)
        case .integer(let integer): return String(integer)
        case .double(let double): return "\(double)"
        case .string(let string): return quote(string)
        case .array(let array): return "[\(array.joined(separator: ", "))]"
        }
    }

    /// Up to 5 ids, then a count.
    static func ids(_ ids: [String]) -> String {
        let shown = ids.prefix(5).joined(separator: ", ")
        return ids.count > 5 ? "\(shown), … (\(ids.count) in all)" : shown
    }

    static func quote(_ text: String) -> String {
        var shortened = text
        if shortened.count > 80 { shortened = String(shortened.prefix(79)) + "…" }
        return "\"" + shortened.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    static func total(_ diff: GraphDiff) -> Int {
        diff.kinds.filter { $0.kind != .subtask }.reduce(0) { $0 + $1.countA }
    }
}
