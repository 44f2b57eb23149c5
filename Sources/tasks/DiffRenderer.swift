import Foundation
import TaskInterchange

/// The text form of a `GraphDiff`, for people: per-kind counts, then the differing records grouped by kind, each group
/// capped with a count of what it leaves out.
enum DiffRenderer {
    static func text(_ diff: GraphDiff, limit: Int) -> String {
        // Kinds line up at 9 columns, as before; longer entity names widen the column.
        let width = max(9, diff.entities.map(\.entity.count).max() ?? 0)
        var text = ""
        // Graphs of an app without task kinds (its entities only) are not summarized by five empty kinds.
        let noKinds = !diff.entities.isEmpty && diff.kinds.allSatisfy { $0.countA == 0 && $0.countB == 0 }
        for summary in diff.kinds where !noKinds {
            text += line(
                summary.kind.rawValue, width: width, summary.countA, summary.countB, onlyInA: summary.onlyInA,
                onlyInB: summary.onlyInB, changed: summary.changed, bMayHoldMore: diff.bMayHoldMore)
        }
        for summary in diff.entities {
            guard summary.compared else {
                let name = summary.entity.padding(toLength: width, withPad: " ", startingAt: 0)
                text += "  \(name) \(summary.countA) ↔ —  (B has no such entity: not compared)\n"
                continue
            }
            text += line(
                summary.entity, width: width, summary.countA, summary.countB, onlyInA: summary.onlyInA,
                onlyInB: summary.onlyInB, changed: summary.changed, bMayHoldMore: diff.bMayHoldMore)
        }
        let groups =
            StoreMapping.Kind.allCases.map { kind in (kind.rawValue, diff.records.filter { $0.kind == kind }) }
            + diff.entities.map { summary in (summary.entity, diff.records.filter { $0.entity == summary.entity }) }
        for (name, records) in groups where !records.isEmpty {
            text += "\n"
            for record in records.prefix(limit) { text += self.record(record) }
            if records.count > limit {
                text +=
                    "  … and \(records.count - limit) more \(name) "
                    + "difference\(records.count - limit == 1 ? "" : "s") (--limit N or --json to see them)\n"
            }
        }
        if diff.omittedCount > 0 {
            text +=
                "\n… and \(diff.omittedCount) more difference\(diff.omittedCount == 1 ? "" : "s") counted but not "
                + "listed\n"
        }
        return text
    }

    /// One kind's or entity's counts: `  name  A ↔ B  (notes)`.
    private static func line(
        _ name: String, width: Int, _ countA: Int, _ countB: Int, onlyInA: Int, onlyInB: Int,
        changed: Int, bMayHoldMore: Bool
    ) -> String {
        var notes: [String] = []
        if onlyInA > 0 { notes.append("\(onlyInA) only in A") }
        if onlyInB > 0 { notes.append("\(onlyInB) only in B\(bMayHoldMore ? " (not a difference)" : "")") }
        if changed > 0 { notes.append("\(changed) changed") }
        return "  \(name.padding(toLength: width, withPad: " ", startingAt: 0)) \(countA) ↔ "
            + "\(countB)\(notes.isEmpty ? "" : "  (\(notes.joined(separator: ", ")))")\n"
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
        // A generic record without a name or title shows none.
        let name = record.entity != nil && label.isEmpty ? "" : " " + quote(label)
        var text =
            "\(record.typeName) \(record.id.uuidString)"
            + "\(name)\(record.taskId.map { " (task \($0.uuidString))" } ?? ""): \(where_)\n"
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
        case .stored(let cell): return cell.described
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
        return "\""
            + shortened.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// A's records (subtasks counted with their tasks), generic records of the entities compared included.
    static func total(_ diff: GraphDiff) -> Int {
        diff.kinds.filter { $0.kind != .subtask }.reduce(0) { $0 + $1.countA }
            + diff.entities.filter(\.compared).reduce(0) { $0 + $1.countA }
    }
}
