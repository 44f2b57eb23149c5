import Foundation

extension ExportSummary: CustomStringConvertible {
    /// The findings, then what was exported: `Exported 3 projects, … from app.sqlite (format 2) in 0.04 s`, which
    /// store entity went where, and whether every stored value arrived.
    public var description: String {
        var text = notices
        text +=
            "Exported \(counts) from \(store) (format \(formatVersion)) in \(String(format: "%.2f", seconds)) s\n"
            + "  \(placement)\n"
        if let cells {
            text +=
                !cells.isComplete
                ? "  \(cells.notExported) stored value\(cells.notExported == 1 ? "" : "s") not exported (see the warnings)\n"
                : cells.coreDataOwn == 0
                    ? "  every stored value exported\n"
                    : "  every stored value of the model's entities exported; \(cells.coreDataOwn) values of Core "
                        + "Data's own history or mirroring tables not exported (see the notes)\n"
        }
        return text
    }

    /// One line per finding: `warning: TodoItem.repeats: unmapped-column: 12 values not exported [12]`. Empty when
    /// there are none.
    public var notices: String {
        findings.map { finding in
            "\(finding.isWarning ? "warning" : "note"): \(finding)\(finding.count > 1 ? " [\(finding.count)]" : "")\n"
        }.joined()
    }

    /// Which store entity went where: `typed: task ← TodoItem; generic: Folder 3, Note 12`.
    public var placement: String {
        let typedPart = entities.sorted { $0.key < $1.key }.map { "\($0.key) ← \($0.value)" }.joined(separator: ", ")
        let genericPart = generic.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "typed: \(typedPart.isEmpty ? "none" : typedPart); "
            + "generic: \(genericPart.isEmpty ? "none" : genericPart)"
    }
}
