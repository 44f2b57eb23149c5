import Foundation
import TaskInterchange

/// Text forms of validation reports and import plans, for stderr.
enum ReportRenderer {
    static func text(_ report: ValidationReport) -> String {
        var text = ""
        for issue in report.issues {
            text += "\(issue.severity.rawValue): \(issue)\n"
        }
        if report.omittedCount > 0 {
            text += "… and \(report.omittedCount) more issue\(report.omittedCount == 1 ? "" : "s") not listed\n"
        }
        return text
    }

    static func counts(_ counts: ArchiveCounts) -> String {
        "\(counts.projects) projects, \(counts.categories) categories, \(counts.tags) tags, \(counts.tasks) tasks, \(counts.subtasks) subtasks"
    }

    static func plan(_ plan: ImportPlan) -> String {
        StoreMapping.Kind.allCases.map { kind in
            let operations = plan[kind]
            var parts = ["\(operations.inserted) inserted"]
            if operations.updated > 0 { parts.append("\(operations.updated) updated") }
            if operations.unchanged > 0 { parts.append("\(operations.unchanged) unchanged") }
            if operations.skipped > 0 { parts.append("\(operations.skipped) skipped") }
            if operations.deleted > 0 { parts.append("\(operations.deleted) deleted") }
            if operations.matched > 0 { parts.append("\(operations.matched) matched by name") }
            if operations.conflicts > 0 { parts.append("\(operations.conflicts) conflict\(operations.conflicts == 1 ? "" : "s")") }
            return "  \(kind.rawValue): \(parts.joined(separator: ", "))"
        }.joined(separator: "\n") + "\n"
    }

    /// The first line of an import's summary: what happened. When every record was inserted, the counts; otherwise
    /// how many records were inserted, updated, left unchanged, skipped or deleted, so a run that wrote nothing
    /// says so.
    static func headline(_ result: StoreImportResult, store: String, seconds: Double) -> String {
        let place = "\(store)\(result.createdStore ? " (new store)" : "")"
        let time = String(format: "%.2f", seconds)
        let plan = result.plan
        let kinds = StoreMapping.Kind.allCases
        func total(_ count: (ImportPlan.Operations) -> Int) -> Int { kinds.reduce(0) { $0 + count(plan[$1]) } }
        let inserted = total(\.inserted), updated = total(\.updated), unchanged = total(\.unchanged)
        let skipped = total(\.skipped), deleted = total(\.deleted)
        if updated + unchanged + skipped + deleted == 0 {
            return "Imported \(counts(result.report.counts)) into \(place) in \(time) s\n"
        }
        let wrote = inserted + updated + deleted > 0
        var parts = wrote ? ["\(inserted) inserted"] : []
        if updated > 0 { parts.append("\(updated) updated") }
        if unchanged > 0 { parts.append("\(unchanged) unchanged") }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        if deleted > 0 { parts.append("\(deleted) deleted") }
        let verb = wrote ? "Imported into" : "Nothing written to"
        return "\(verb) \(place) in \(time) s: \(parts.joined(separator: ", ")) (the archive holds "
            + "\(counts(result.report.counts)))\n"
    }
}
