import Foundation

extension GraphDiff: CustomStringConvertible {
    /// The differences listed by ``description(limit:)``, 20 records of each kind or entity at most.
    public var description: String { description(limit: 20) }

    /// For people: per-kind counts (`  task      12 ↔ 11  (1 only in A)`), then the differing records grouped by
    /// kind, at most `limit` of each, each group capped with a count of what it leaves out.
    public func description(limit: Int) -> String {
        // Kinds line up at 9 columns; longer entity names widen the column.
        let width = max(9, entities.map(\.entity.count).max() ?? 0)
        var text = ""
        // Graphs of an app without task kinds (its entities only) are not summarized by five empty kinds.
        let noKinds = !entities.isEmpty && kinds.allSatisfy { $0.countA == 0 && $0.countB == 0 }
        for summary in kinds where !noKinds {
            text += Self.line(
                summary.kind.rawValue, width: width, summary.countA, summary.countB, onlyInA: summary.onlyInA,
                onlyInB: summary.onlyInB, changed: summary.changed, bMayHoldMore: bMayHoldMore)
        }
        for summary in entities {
            guard summary.compared else {
                let name = summary.entity.padding(toLength: width, withPad: " ", startingAt: 0)
                text += "  \(name) \(summary.countA) ↔ —  (B has no such entity: not compared)\n"
                continue
            }
            text += Self.line(
                summary.entity, width: width, summary.countA, summary.countB, onlyInA: summary.onlyInA,
                onlyInB: summary.onlyInB, changed: summary.changed, bMayHoldMore: bMayHoldMore)
        }
        let groups =
            StoreMapping.Kind.allCases.map { kind in (kind.rawValue, records.filter { $0.kind == kind }) }
            + entities.map { summary in (summary.entity, records.filter { $0.entity == summary.entity }) }
        for (name, records) in groups where !records.isEmpty {
            text += "\n"
            for record in records.prefix(limit) { text += record.description }
            if records.count > limit {
                text +=
                    "  … and \(records.count - limit) more \(name) "
                    + "difference\(records.count - limit == 1 ? "" : "s") \(Self.higherLimit)\n"
            }
        }
        if omittedCount > 0 {
            text +=
                "\n… and \(omittedCount) more difference\(omittedCount == 1 ? "" : "s") counted but not "
                + "listed\n"
        }
        return text
    }

    /// How a capped group says that a higher limit (or the `Codable` form) lists the rest.
    public static let higherLimit = "(a higher limit or the JSON form lists them)"

    /// A's records (subtasks counted with their tasks), generic records of the entities compared included.
    public var recordCount: Int {
        kinds.filter { $0.kind != .subtask }.reduce(0) { $0 + $1.countA }
            + entities.filter(\.compared).reduce(0) { $0 + $1.countA }
    }

    /// One line (without its newline) for a comparison of two graphs: `A and B hold the same graph (12 records and
    /// their subtasks)`, or how many records differ.
    public var comparisonVerdict: String {
        isEqual
            ? "A and B hold the same graph (\(recordCount) records and their subtasks)"
            : "A and B differ: \(differenceCount) record\(differenceCount == 1 ? "" : "s")"
    }

    /// One line (without its newline) for a verification (B checked to hold A): verified, or how many records differ;
    /// then what B holds beyond A, what was not compared, and what a model change dropped.
    public var verificationVerdict: String {
        let beyond =
            kinds.filter { $0.kind != .subtask }.reduce(0) { $0 + $1.onlyInB } + entities.reduce(0) { $0 + $1.onlyInB }
        var extra = beyond > 0 ? "; the store holds \(beyond) more record\(beyond == 1 ? "" : "s")" : ""
        let uncompared = entities.filter { !$0.compared }
        if !uncompared.isEmpty {
            let count = uncompared.reduce(0) { $0 + $1.countA }
            extra +=
                "; \(count) record\(count == 1 ? "" : "s") of \(uncompared.count) entit"
                + "\(uncompared.count == 1 ? "y" : "ies") the store does not have not compared"
        }
        if let change = modelChange, !change.droppedNothing {
            let listed =
                (change.droppedRecords.map { ("\($0.key) records", $0.value) }
                + change.droppedValues.map { ($0.key, $0.value) }).sorted { $0.0 < $1.0 }
                .map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            extra += "; dropped by the model change, not compared: \(listed)"
        }
        if let merged = modelChange?.mergedRecords, !merged.isEmpty {
            let listed = merged.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            extra += "; merged into the record kept of their group under a uniqueness constraint: \(listed)"
        }
        if comparedNothing {
            return "not verified: none of the \(uncomparedRecords) records of \(nameA) was compared: "
                + "\(nameB) has none of their entities"
        }
        return isEqual
            ? "verified: \(nameB) holds every record of \(nameA) (\(recordCount) records and their subtasks)\(extra)"
            : "not verified: \(differenceCount) record\(differenceCount == 1 ? "" : "s") of \(nameA) "
                + "missing or different in \(nameB)\(extra)"
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
}

extension RecordDifference: CustomStringConvertible {
    /// `task 6F9619FF-… "Buy milk": changed`, then one indented line per differing field.
    public var description: String {
        var label = self.label
        if label.count > 40 { label = String(label.prefix(39)) + "…" }
        let where_: String
        switch change {
        case .onlyInA: where_ = "only in A"
        case .onlyInB: where_ = "only in B"
        case .changed: where_ = "changed"
        }
        // A generic record without a name or title shows none.
        let name = entity != nil && label.isEmpty ? "" : " " + Self.quote(label)
        var text =
            "\(typeName) \(id.uuidString)"
            + "\(name)\(taskId.map { " (task \($0.uuidString))" } ?? ""): \(where_)\n"
        for field in fields {
            switch field.change {
            case .value:
                text += "  \(field.field): \(Self.value(field.old)) → \(Self.value(field.new))\n"
            case .links:
                var parts: [String] = []
                if let added = field.added, !added.isEmpty { parts.append("+ " + Self.ids(added)) }
                if let removed = field.removed, !removed.isEmpty { parts.append("− " + Self.ids(removed)) }
                text += "  \(field.field): \(parts.joined(separator: "; "))\n"
            case .order:
                text +=
                    "  \(field.field): order \(Self.ids(field.oldOrder ?? [])) → \(Self.ids(field.newOrder ?? []))\n"
            }
        }
        return text
    }

    private static func value(_ value: ExtraValue?) -> String {
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
    private static func ids(_ ids: [String]) -> String {
        let shown = ids.prefix(5).joined(separator: ", ")
        return ids.count > 5 ? "\(shown), … (\(ids.count) in all)" : shown
    }

    private static func quote(_ text: String) -> String {
        var shortened = text
        if shortened.count > 80 { shortened = String(shortened.prefix(79)) + "…" }
        return "\""
            + shortened.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
