import Foundation
import TaskInterchange

/// `import --verify`: right after the commit, the store is compared with the file as `tasks verify` does.
extension ImportCommand {
    static let verify = Flag(
        "--verify",
        help: "After the commit, check that the store holds what the file holds (as 'tasks verify'); exit "
            + "1 when it does not (the import stays committed).")

    /// The verification of a committed import, nil without `--verify` or with `--dry-run` (nothing was written). The
    /// file is read through the model change the import wrote through (`mapping`, with the duplicates it merged), not
    /// one inferred again.
    func verification(input: ArchiveInput, options: StoreImportOptions, mapping: VersionMapping?) throws -> GraphDiff? {
        guard verify, !dryRun else { return nil }
        // A store made from a model keeps no model cache: it is read with that model.
        return try GraphComparison.verify(
            .input(input),
            against: .store(
                path: store, mapping: options.mapping, model: options.template?.model ?? options.targetModel),
            modelChange: options.mapping?.modelChange ?? ModelChangeOverrides(), modelVersions: options.modelVersions,
            versionMapping: mapping)
    }

    /// The text that follows the import summary: one verdict line, and the differences when there are any.
    static func verificationText(_ diff: GraphDiff) -> String {
        (diff.isEqual ? "" : CommandLineText.rewrite(diff.description)) + diff.verificationVerdict + "\n"
    }

    /// What `--json-summary` says about it.
    struct VerificationSummary: Encodable {
        var verified: Bool
        var differenceCount: Int
        var kinds: [GraphDiff.KindSummary]
        var entities: [GraphDiff.EntitySummary]
        var records: [RecordDifference]

        init(_ diff: GraphDiff) {
            verified = diff.isEqual
            differenceCount = diff.differenceCount
            kinds = diff.kinds
            entities = diff.entities
            records = Array(diff.records.prefix(100))
        }
    }
}
