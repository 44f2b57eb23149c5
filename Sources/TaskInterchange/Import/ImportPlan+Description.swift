import Foundation

extension ImportPlan: CustomStringConvertible {
    /// Per kind and per entity, what the import did, one indented line each (`  task: 12 inserted, 3 updated`); the
    /// kinds are left out when none has records and entities do (a store of any app). Each entity's values: in the
    /// archive, arrived (written, or already there), dropped by a model change, not written.
    public var description: String {
        let kinds = StoreMapping.Kind.allCases
        let typedRecords = kinds.contains { kind in
            let counts = self[kind]
            return counts.inserted + counts.updated + counts.unchanged + counts.skipped + counts.deleted
                + (counts.notLoaded ?? 0) > 0
        }
        var text =
            typedRecords || entities.isEmpty
            ? kinds.map { "  \($0.rawValue): \(self[$0].described(matchedBy: " by name"))\n" }.joined() : ""
        // Values the model change dropped, by the target's entity name.
        var dropped: [String: Int] = [:]
        for (property, count) in modelChange.droppedValues {
            let source = String(property.prefix { $0 != "." })
            dropped[renamedEntities?[source] ?? source, default: 0] += count
        }
        for (entity, operations) in entities.sorted(by: { $0.key < $1.key }) {
            var values = ""
            if operations.values > 0 {
                let notWritten = lacking.filter { $0.key.hasPrefix(entity + ".") }.values.reduce(0, +)
                values = "; \(operations.values) values: \(operations.valuesArrived) arrived"
                if let count = dropped[entity], count > 0 { values += ", \(count) dropped by the model change" }
                if notWritten > 0 { values += ", \(notWritten) not written" }
            }
            text += "  \(entity) (generic): \(operations.described(matchedBy: ""))\(values)\n"
        }
        for (entity, count) in modelChange.droppedRecords.sorted(by: { $0.key < $1.key }) {
            text += "  \(entity) (generic): \(count) records dropped by the model change\n"
        }
        return text
    }

    /// The matches and conflicts the plan lists (``decisions``, capped), one line each under `Matches and
    /// conflicts:`, then how many more were counted; empty when there are none.
    public var decisionsDescription: String {
        guard !decisions.isEmpty else { return "" }
        var text = "Matches and conflicts:\n"
        for decision in decisions {
            switch decision.kind {
            case .match:
                text +=
                    "  match: \(decision.typeName) \(decision.id.uuidString) is the target's "
                    + "\(decision.targetId.uuidString)\n"
            case .conflict:
                let dates =
                    "archive \(decision.archiveModifiedAt ?? "undated"), target "
                    + "\(decision.targetModifiedAt ?? "undated")"
                text +=
                    "  conflict: \(decision.typeName) \(decision.targetId.uuidString): "
                    + "\(decision.winner == .archive ? "archive's version wins" : "target's version kept") (\(dates))\n"
            }
        }
        let total =
            StoreMapping.Kind.allCases.reduce(0) { $0 + self[$1].matched + self[$1].conflicts }
            + entities.values.reduce(0) { $0 + $1.matched + $1.conflicts }
        if total > decisions.count { text += "  … and \(total - decisions.count) more\n" }
        return text
    }

    /// Every record the plan counts, over the kinds and entities, by one of its operations.
    func total(_ count: (Operations) -> Int) -> Int {
        StoreMapping.Kind.allCases.reduce(0) { $0 + count(self[$1]) } + entities.values.reduce(0) { $0 + count($1) }
    }
}

extension ImportPlan.Operations: CustomStringConvertible {
    /// The counts: `5 inserted, 2 updated, 3 matched`.
    public var description: String { described(matchedBy: "") }

    /// The counts, `matchedBy` after the number matched (` by name`).
    func described(matchedBy: String) -> String {
        var parts = ["\(inserted) inserted"]
        if updated > 0 { parts.append("\(updated) updated") }
        if unchanged > 0 { parts.append("\(unchanged) unchanged") }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        if deleted > 0 { parts.append("\(deleted) deleted") }
        if matched > 0 { parts.append("\(matched) matched\(matchedBy)") }
        if conflicts > 0 { parts.append("\(conflicts) conflict\(conflicts == 1 ? "" : "s")") }
        if let notLoaded, notLoaded > 0 { parts.append("\(notLoaded) not loaded") }
        return parts.joined(separator: ", ")
    }
}
