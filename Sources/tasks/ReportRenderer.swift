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
            if let notLoaded = operations.notLoaded, notLoaded > 0 { parts.append("\(notLoaded) not loaded") }
            return "  \(kind.rawValue): \(parts.joined(separator: ", "))"
        }.joined(separator: "\n") + "\n"
    }
}
