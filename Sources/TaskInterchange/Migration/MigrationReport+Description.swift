import Foundation

extension MigrationReport: CustomStringConvertible {
    /// The migration's summary: the export's findings and the warnings about the target, then `summary`.
    public var description: String { notices + summary }

    /// The export's findings (data that could not be carried exactly, notes), then the import's warnings, one line
    /// each; empty when there are none.
    public var notices: String {
        export.notices + warnings.map { "warning: \($0)\n" }.joined()
    }

    /// What the migration did — `Migrated <counts> from OLD into NEW in 0.52 s; verified; backup: …`, which store
    /// entity went where — then the plan, the model change and its steps; for a dry run, what it would do.
    public var summary: String {
        let details = "\(plan)\(modelChange.map(String.init(describing:)) ?? "")"
        // Read with the store's own model: said first, as the plan rests on it.
        let own =
            ownModel.map { own in
                " from the store's own model (its model cache: no version of \(own.modelName) wrote it"
                    + (own.closest.map { "; the closest is \($0)" } ?? "") + ")"
            } ?? ""
        if dryRun {
            return "Plan for migrating \(legacyStore) into \(destination)\(own) (nothing written, no backup kept):\n"
                + details
        }
        let verified = verification == nil ? "not verified (the destination cannot be read back)" : "verified"
        return "Migrated \(export.counts)\(dropped) from \(legacyStore)\(own) into \(destination) in "
            + "\(String(format: "%.2f", seconds)) s; \(verified); backup: \(backupPath)\n"
            + "  \(export.placement)\n" + details
    }

    /// What the model change left out, for the summary line: ` (3 records and 2 values dropped by the model change)`.
    private var dropped: String {
        let records = plan.modelChange.droppedRecords.values.reduce(0, +)
        let values = plan.modelChange.droppedValues.values.reduce(0, +)
        guard records + values > 0 else { return "" }
        let parts =
            (records > 0 ? ["\(records) record\(records == 1 ? "" : "s")"] : [])
            + (values > 0 ? ["\(values) value\(values == 1 ? "" : "s")"] : [])
        return " (\(parts.joined(separator: " and ")) dropped by the model change)"
    }
}
