import Foundation
import TaskInterchange

/// `import --match` and `--modified-property`: merging two stores' graphs.
extension ImportCommand {
    static let matchOption = CommandDescription.Option(
        name: "--match", valueName: "key",
        help: "'name': an archive project, category or tag whose id the target lacks but whose name a target record has is that record (its references follow). Needs an archive sorted by id, as exports are.")
    static let modifiedPropertyOption = CommandDescription.Option(
        name: "--modified-property", valueName: "name",
        help: "--mode merge: the property under extra that holds a record's modification date (default: modifiedAt, then lastModified, updatedAt, modifiedAt, modificationDate). Both dated: the newer wins, a tie keeps the target's; one dated: that one; neither: the archive's.")

    static func applyMergeOptions(_ parsed: ParsedArguments, to options: inout StoreImportOptions) throws {
        if let text = parsed.value("--match") {
            do {
                options.match = try MatchRule(parsing: text)
            } catch {
                throw UsageError(error.message, command: description)
            }
            if options.mode == .replace {
                throw UsageError("--match pairs records with the target's, and --mode replace removes them first", command: description)
            }
        }
        if parsed.flag("--verify") && (options.match != nil || options.mode == .merge) {
            // Matched records keep the target's ids and merge keeps the target's newer versions: by design the store
            // then does not hold the file as it is, so the check would only report that.
            throw UsageError("--verify checks that the store holds the file as it is, which --match and --mode merge do not intend; run 'tasks diff' to see what a merge changed", command: description)
        }
        if let property = parsed.value("--modified-property") {
            guard options.mode == .merge else {
                throw UsageError("--modified-property applies to --mode merge", command: description)
            }
            options.modificationDates = ModificationDates(property: property)
        }
    }

    /// The matches and conflicts a plan lists (capped), one line each, for `--dry-run`.
    static func decisionsText(_ plan: ImportPlan) -> String {
        guard !plan.decisions.isEmpty else { return "" }
        var text = "Matches and conflicts:\n"
        for decision in plan.decisions {
            switch decision.kind {
            case .match:
                text += "  match: \(decision.recordKind.rawValue) \(decision.id.uuidString) is the target's \(decision.targetId.uuidString)\n"
            case .conflict:
                let dates = "archive \(decision.archiveModifiedAt ?? "undated"), target \(decision.targetModifiedAt ?? "undated")"
                text += "  conflict: \(decision.recordKind.rawValue) \(decision.targetId.uuidString): \(decision.winner == .archive ? "archive's version wins" : "target's version kept") (\(dates))\n"
            }
        }
        let total = StoreMapping.Kind.allCases.reduce(0) { $0 + plan[$1].matched + plan[$1].conflicts }
        if total > plan.decisions.count { text += "  … and \(total - plan.decisions.count) more\n" }
        return text
    }
}
