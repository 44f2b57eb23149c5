import Foundation
import TaskInterchange

/// Text forms of validation reports and import plans, for stderr.
enum ReportRenderer {
    /// Issues of one code that are listed on one line once there are this many of them.
    static let groupThreshold = 3
    /// Ids (or paths) named on a grouped line besides the first issue's.
    static let groupExamples = 3

    /// A report whose only errors are ids the target holds: the archive is not broken but meant for another mode, and
    /// the sentence (`… (by id)`, then the modes that take it) says which; nil for any other report.
    static func existingIDs(_ report: ValidationReport) -> (found: String, advice: String)? {
        let count = report.codeCounts[.idExistsInStore] ?? 0
        guard count > 0, count == report.errorCount else { return nil }
        return (
            "\(count) of the archive's records already exist in the target store (by id)",
            "--mode upsert, merge or skip imports into a store that holds them"
        )
    }

    /// One line per issue, except that the issues of one code, when there are several, share one line: the first in
    /// full, then how many there are in all and the next few ids (or paths, for issues about no id).
    static func text(_ report: ValidationReport) -> String {
        var listed: [ValidationIssue.Code: [ValidationIssue]] = [:]
        for issue in report.issues { listed[issue.code, default: []].append(issue) }
        var text = ""
        var grouped: Set<ValidationIssue.Code> = []
        var accounted = 0
        for issue in report.issues {
            let group = listed[issue.code] ?? []
            guard group.count >= groupThreshold else {
                text += "\(issue.severity.rawValue): \(CommandLineText.rewrite(issue.description))\n"
                accounted += 1
                continue
            }
            guard grouped.insert(issue.code).inserted else { continue }
            let total = max(report.codeCounts[issue.code] ?? 0, group.count)
            accounted += total
            let others = group.dropFirst().prefix(groupExamples).map { $0.subject ?? $0.path }
            let rest = total - 1 - others.count
            let plural = issue.severity == .error ? "errors" : "warnings"
            text +=
                "\(issue.severity.rawValue): \(CommandLineText.rewrite(issue.description)) [\(total) \(issue.code.rawValue) \(plural); also "
                + others.joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "") + "]\n"
        }
        let omitted = report.errorCount + report.warningCount - accounted
        if omitted > 0 {
            text += "… and \(omitted) more issue\(omitted == 1 ? "" : "s") not listed\n"
        }
        return text
    }

    /// What an archive holds; an archive of a store without task kinds (any app's) names only its entity records.
    static func counts(_ counts: ArchiveCounts) -> String {
        let typed = counts.projects + counts.categories + counts.tags + counts.tasks + counts.subtasks
        if typed == 0 && counts.entities > 0 { return "\(counts.entities) entity records" }
        return
            "\(counts.projects) projects, \(counts.categories) categories, \(counts.tags) tags, \(counts.tasks) tasks, "
            + "\(counts.subtasks) subtasks"
            + (counts.entities > 0 ? ", \(counts.entities) entity records" : "")
    }

    /// Which store entity went where: `typed: task ← TodoItem; generic: Folder 3, Note 12`.
    static func entityPlacement(typed: [String: String], generic: [String: Int]) -> String {
        let typedPart = typed.sorted { $0.key < $1.key }.map { "\($0.key) ← \($0.value)" }.joined(separator: ", ")
        let genericPart = generic.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "typed: \(typedPart.isEmpty ? "none" : typedPart); "
            + "generic: \(genericPart.isEmpty ? "none" : genericPart)"
    }

    /// Per kind and per entity, what the import did; the kinds are left out when none has records and entities do
    /// (a store of any app). Each entity's values: in the archive, arrived (written, or already there), dropped by a
    /// model change, not written.
    static func plan(_ plan: ImportPlan, mapping: VersionMapping? = nil) -> String {
        let kinds = StoreMapping.Kind.allCases
        let typedRecords = kinds.contains { kind in
            let counts = plan[kind]
            return counts.inserted + counts.updated + counts.unchanged + counts.skipped + counts.deleted
                + (counts.notLoaded ?? 0) > 0
        }
        var text =
            typedRecords || plan.entities.isEmpty
            ? kinds.map { "  \($0.rawValue): \(operations(plan[$0], matchedBy: " by name"))\n" }.joined() : ""
        // Values the model change dropped, by the target's entity name.
        var dropped: [String: Int] = [:]
        for (property, count) in plan.modelChange.droppedValues {
            let source = String(property.prefix { $0 != "." })
            dropped[mapping?.entities[source]?.target ?? source, default: 0] += count
        }
        for (entity, operations) in plan.entities.sorted(by: { $0.key < $1.key }) {
            var values = ""
            if operations.values > 0 {
                let notWritten = plan.lacking.filter { $0.key.hasPrefix(entity + ".") }.values.reduce(0, +)
                values = "; \(operations.values) values: \(operations.valuesArrived) arrived"
                if let count = dropped[entity], count > 0 { values += ", \(count) dropped by the model change" }
                if notWritten > 0 { values += ", \(notWritten) not written" }
            }
            text += "  \(entity) (generic): \(self.operations(operations, matchedBy: ""))\(values)\n"
        }
        for (entity, count) in plan.modelChange.droppedRecords.sorted(by: { $0.key < $1.key }) {
            text += "  \(entity) (generic): \(count) records dropped by the model change\n"
        }
        return text
    }

    /// How the archive's model version maps onto the target's, one line per decision that changes something.
    static func modelChange(_ mapping: VersionMapping, _ tally: VersionMapping.Tally) -> String {
        var lines: [String] = []
        for (source, map) in mapping.entities.sorted(by: { $0.key < $1.key }) {
            guard let target = map.target else {
                let count = tally.droppedRecords[source] ?? 0
                lines.append("\(source): dropped (the target's version has no such entity; \(count) records)")
                continue
            }
            if target != source { lines.append("\(source) → \(target) (renamed)") }
            for (property, change) in map.properties.sorted(by: { $0.key < $1.key }) {
                let name = "\(source).\(property)"
                let renamed = change.target.map { $0 != property ? " → \(target).\($0)" : "" } ?? ""
                switch change.change {
                case .kept:
                    if !renamed.isEmpty { lines.append("\(name)\(renamed) (renamed)") }
                    if let pair = change.pairChange { lines.append("\(name)\(renamed): \(pair)") }
                case .converted:
                    let count = tally.convertedValues["\(target).\(change.target ?? property)"] ?? 0
                    lines.append("\(name)\(renamed): \(shape(change.change) ?? "") (\(count) values converted)")
                case .toMany, .toOne, .reordered: lines.append("\(name)\(renamed): \(shape(change.change) ?? "")")
                case .dropped(let reason):
                    lines.append("\(name): dropped (\(reason); \(tally.droppedValues[name] ?? 0) values)")
                case .refused(let reason): lines.append("\(name): refused (\(reason))")
                }
            }
            for fill in map.fills {
                let count = tally.filledValues["\(target).\(fill.property)"] ?? 0
                // A required attribute every record has: nothing to say.
                if !fill.isAdded && count == 0 && fill.value == nil { continue }
                let what = fill.value.map { "filled with \(VersionMapping.describe($0))" } ?? "required, no default"
                lines.append(
                    "\(target).\(fill.property) (\(fill.isAdded ? "added" : "required")): \(what) (\(count) records)")
            }
        }
        for group in mapping.duplicates {
            let kept = group.members.first { $0.id == group.kept }
            let keeps = kept.map { " → kept key \($0.key.map(String.init) ?? $0.id.uuidString)" } ?? ""
            lines.append("duplicates under \(group.entity)'s uniqueness constraint: \(group.description)\(keeps)")
        }
        for (entity, count) in tally.mergedRecords.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "\(entity): \(count) record\(count == 1 ? "" : "s") merged into the one kept (links re-pointed, "
                    + "\(tally.mergedValues[entity] ?? 0) values dropped)")
        }
        return lines.isEmpty ? "" : "Model change:\n" + lines.map { "  \($0)\n" }.joined()
    }

    /// How a property's type or cardinality changes: `Integer 16 → Integer 32`, `to-one → to-many`; nil when it
    /// does not.
    private static func shape(_ change: VersionMapping.Change) -> String? {
        switch change {
        case .converted(let from, let to): return "\(ArchiveType.label(of: from)) → \(ArchiveType.label(of: to))"
        case .toMany: return "to-one → to-many"
        case .toOne: return "to-many → to-one"
        case .reordered(let ordered): return ordered ? "unordered → ordered" : "ordered → unordered"
        default: return nil
        }
    }

    /// A chain's steps, one line each with what the step changes: `Journal 1 → Journal 2: Entry.text → body
    /// (renamed); Entry.mood Integer 16 → Integer 32; …`. Empty for a direct mapping.
    static func steps(_ mapping: VersionMapping) -> String {
        guard !mapping.steps.isEmpty else { return "" }
        var text = "Through \(mapping.steps.count) steps, in the model's version order \(mapping.order ?? ""):\n"
        for step in mapping.steps {
            var changes: [String] = []
            for (source, map) in step.mapping.entities.sorted(by: { $0.key < $1.key }) {
                guard let target = map.target else {
                    changes.append("\(source) removed")
                    continue
                }
                if target != source { changes.append("\(source) → \(target) (renamed)") }
                for (property, change) in map.properties.sorted(by: { $0.key < $1.key }) {
                    let name = "\(target).\(property)"
                    let renamed = change.target.map { $0 != property ? " → \($0)" : "" } ?? ""
                    switch change.change {
                    case .kept: if !renamed.isEmpty { changes.append("\(name)\(renamed) (renamed)") }
                    case .converted, .toMany, .toOne, .reordered:
                        changes.append("\(name)\(renamed) \(shape(change.change) ?? "")")
                    case .dropped: changes.append("\(source).\(property) removed")
                    case .refused(let reason): changes.append("\(name) refused (\(reason))")
                    }
                }
                for fill in map.fills where fill.isAdded {
                    let value = fill.value.map { " (default \(VersionMapping.describe($0)))" } ?? ""
                    changes.append("\(target).\(fill.property) added\(value)")
                }
            }
            let list = changes.isEmpty ? "nothing the archive holds changes" : changes.joined(separator: "; ")
            text += "  \(step.from) → \(step.to): \(list)\n"
        }
        return text
    }

    /// One kind's or entity's counts: `5 inserted, 2 updated, 3 matched by name`.
    private static func operations(_ operations: ImportPlan.Operations, matchedBy: String) -> String {
        var parts = ["\(operations.inserted) inserted"]
        if operations.updated > 0 { parts.append("\(operations.updated) updated") }
        if operations.unchanged > 0 { parts.append("\(operations.unchanged) unchanged") }
        if operations.skipped > 0 { parts.append("\(operations.skipped) skipped") }
        if operations.deleted > 0 { parts.append("\(operations.deleted) deleted") }
        if operations.matched > 0 { parts.append("\(operations.matched) matched\(matchedBy)") }
        if operations.conflicts > 0 {
            parts.append("\(operations.conflicts) conflict\(operations.conflicts == 1 ? "" : "s")")
        }
        if let notLoaded = operations.notLoaded, notLoaded > 0 { parts.append("\(notLoaded) not loaded") }
        return parts.joined(separator: ", ")
    }

    /// The records of `kind` an archive holds.
    private static func count(of kind: StoreMapping.Kind, in counts: ArchiveCounts) -> Int {
        switch kind {
        case .project: return counts.projects
        case .category: return counts.categories
        case .tag: return counts.tags
        case .task: return counts.tasks
        case .subtask: return counts.subtasks
        }
    }

    /// The first line of an import's summary: what happened. When every record was inserted, the counts; otherwise
    /// how many records were inserted, updated, left unchanged, skipped, deleted or not loaded (a partial import), so
    /// a run that wrote nothing says so.
    static func headline(_ result: StoreImportResult, store: String, seconds: Double) -> String {
        let place = "\(store)\(result.createdStore ? " (new store)" : "")"
        let time = String(format: "%.2f", seconds)
        let plan = result.plan
        let kinds = StoreMapping.Kind.allCases
        func total(_ count: (ImportPlan.Operations) -> Int) -> Int {
            kinds.reduce(0) { $0 + count(plan[$1]) } + plan.entities.values.reduce(0) { $0 + count($1) }
        }
        let inserted = total(\.inserted), updated = total(\.updated), unchanged = total(\.unchanged)
        let skipped = total(\.skipped), deleted = total(\.deleted), notLoaded = total { $0.notLoaded ?? 0 }
        // Every record inserted: the counts. Records the target had no place for, or dropped by a model change, are
        // not "imported": the detailed form says how many were.
        let archived = result.report.counts.entities + kinds.reduce(0) { $0 + count(of: $1, in: result.report.counts) }
        if updated + unchanged + skipped + deleted + notLoaded == 0 && inserted >= archived {
            return "Imported \(counts(result.report.counts)) into \(place) in \(time) s\n"
        }
        let wrote = inserted + updated + deleted > 0
        var parts = wrote ? ["\(inserted) inserted"] : []
        if updated > 0 { parts.append("\(updated) updated") }
        if unchanged > 0 { parts.append("\(unchanged) unchanged") }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        if deleted > 0 { parts.append("\(deleted) deleted") }
        if notLoaded > 0 { parts.append("\(notLoaded) not loaded") }
        let verb = wrote ? "Imported into" : "Nothing written to"
        return "\(verb) \(place) in \(time) s: \(parts.joined(separator: ", ")) (the archive holds "
            + "\(counts(result.report.counts)))\n"
    }
}
