import Foundation
import TaskInterchange

/// `import --match` and `--modified-property`: merging two stores' graphs.
extension ImportCommand {
    static let match = Option<String>(
        "--match", valueName: "key",
        help: "'name': an archive project, category or tag whose id the target lacks but whose name a target record "
            + "has is that record (its references follow). 'Entity.attribute': the same for a generic entity's records "
            + "by that attribute (a value several records have matches none). Comma-separated or repeated. Needs an "
            + "archive sorted by id, as exports are.", joinsRepeats: true)
    static let modifiedProperty = Option<String>(
        "--modified-property", valueName: "name",
        help: "--mode merge: for a record without modifiedAt, the property under extra that holds its modification "
            + "date (default: the first of lastModified, updatedAt, modifiedAt, modificationDate). Both dated: the "
            + "newer wins, a tie keeps the target's; one dated: that one; neither: the archive's.")

    /// `--match`'s rule, parsed by the library (which names what it cannot read).
    static func matchRule(_ arguments: ParsedArguments) throws(UsageError) -> MatchRule? {
        guard let text = try arguments.optional(match) else { return nil }
        do {
            return try MatchRule(parsing: text)
        } catch {
            throw UsageError(error.commandLineMessage)
        }
    }

    func validateMergeOptions() throws(UsageError) {
        if match != nil && mode == .replace {
            throw UsageError("--match pairs records with the target's, and --mode replace removes them first")
        }
        if verify && (match != nil || mode == .merge) {
            // Matched records keep the target's ids and merge keeps the target's newer versions: by design the store
            // then does not hold the file as it is, so the check would only report that.
            throw UsageError(
                "--verify checks that the store holds the file as it is, which --match and --mode merge "
                    + "do not intend; run 'tasks diff' to see what a merge changed")
        }
        if modifiedProperty != nil && mode != .merge {
            throw UsageError("--modified-property applies to --mode merge")
        }
    }
}
