import Foundation

extension StoreImportResult: CustomStringConvertible {
    /// The import's summary: the archive's issues and the warnings about the target, then `summary`.
    public var description: String { notices + summary }

    /// The archive's issues (as validation lists them), then the warnings about the target, one line each; empty
    /// when there are none.
    public var notices: String {
        report.notices + warnings.map { "warning: \($0)\n" }.joined()
    }

    /// What the import did: its headline, then the plan and the model change; for a dry run, what it would do (with
    /// the matches and conflicts it found).
    public var summary: String {
        let details = "\(plan)\(modelChange.map(String.init(describing:)) ?? "")"
        guard !dryRun else {
            let mode = TaskInterchangeError.libraryName(of: .mode, values: [mode.rawValue])
            return "Plan for \(store) (\(mode), nothing written):\n" + details + plan.decisionsDescription
        }
        return headline + "\n" + details
    }

    /// The first line of the summary (without its newline): what happened. When every record was inserted, the
    /// counts; otherwise how many records were inserted, updated, left unchanged, skipped, deleted or not loaded (a
    /// partial import), so a run that wrote nothing says so.
    public var headline: String {
        let place = "\(store)\(createdStore ? " (new store)" : "")"
        let time = String(format: "%.2f", seconds)
        let inserted = plan.total(\.inserted), updated = plan.total(\.updated), unchanged = plan.total(\.unchanged)
        let skipped = plan.total(\.skipped), deleted = plan.total(\.deleted)
        let notLoaded = plan.total { $0.notLoaded ?? 0 }
        // Every record inserted: the counts. Records the target had no place for, or dropped by a model change, are
        // not "imported": the detailed form says how many were.
        let counts = report.counts
        let archived =
            counts.entities + counts.projects + counts.categories + counts.tags + counts.tasks + counts.subtasks
        if updated + unchanged + skipped + deleted + notLoaded == 0 && inserted >= archived {
            return "Imported \(counts) into \(place) in \(time) s"
        }
        let wrote = inserted + updated + deleted > 0
        var parts = wrote ? ["\(inserted) inserted"] : []
        if updated > 0 { parts.append("\(updated) updated") }
        if unchanged > 0 { parts.append("\(unchanged) unchanged") }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        if deleted > 0 { parts.append("\(deleted) deleted") }
        if notLoaded > 0 { parts.append("\(notLoaded) not loaded") }
        let merged = plan.modelChange.mergedRecords.values.reduce(0, +)
        if merged > 0 { parts.append("\(merged) merged into others") }
        let verb = wrote ? "Imported into" : "Nothing written to"
        let listed = parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")
        return "\(verb) \(place) in \(time) s\(listed) (the archive holds \(counts))"
    }
}
