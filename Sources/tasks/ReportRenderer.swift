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
            + (counts.entities > 0 ? ", \(counts.entities) entity records" : "")
    }

    /// Which store entity went where: `typed: task ← TodoItem; generic: Folder 3, Note 12`.
    static func entityPlacement(typed: [String: String], generic: [String: Int]) -> String {
        let typedPart = typed.sorted { $0.key < $1.key }.map { "\($0.key) ← \($0.value)" }.joined(separator: ", ")
        let genericPart = generic.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "typed: \(typedPart.isEmpty ? "none" : typedPart); "
            + "generic: \(genericPart.isEmpty ? "none" : genericPart)"
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
        }.joined(separator: "\n") + "\n" + plan.entities.sorted { $0.key < $1.key }.map { entity, operations in
            var parts = ["\(operations.inserted) inserted"]
            if operations.updated > 0 { parts.append("\(operations.updated) updated") }
            if operations.skipped > 0 { parts.append("\(operations.skipped) skipped") }
            return "  \(entity) (generic): \(parts.joined(separator: ", "))\n"
        }.joined()
    }
}
