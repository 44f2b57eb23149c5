extension ModelChangeReport: CustomStringConvertible {
    /// `Model change:` with one line per entry, then the steps (`Through 2 steps, …`); empty when there is neither.
    public var description: String {
        (entries.isEmpty ? "" : "Model change:\n" + entries.map { "  \($0)\n" }.joined()) + stepsDescription
    }

    /// The steps alone, one line each with what the step changes: `Journal 1 → Journal 2: Entry.text → body
    /// (renamed); …`; empty for a direct mapping.
    private var stepsDescription: String {
        guard !steps.isEmpty else { return "" }
        var text = "Through \(steps.count) steps, in the model's version order \(order ?? ""):\n"
        for step in steps {
            let list = step.changes.isEmpty ? "nothing the archive holds changes" : step.changes.joined(separator: "; ")
            text += "  \(step.from) → \(step.to): \(list)\n"
        }
        return text
    }
}

extension ModelChangeReport.Entry: CustomStringConvertible {
    /// The entry as a plan lists it: `Note.count: Integer 16 → Integer 32 (3 values converted)`.
    public var description: String {
        let renamed = target.map { " → \($0)" } ?? ""
        let detail = detail ?? ""
        let records = records ?? 0
        let values = values ?? 0
        switch kind {
        case .entityDropped: return "\(subject): dropped (the target's version has no such entity; \(records) records)"
        case .entityLeftOut: return "\(subject): dropped (left out by the mapping; \(records) records)"
        case .entityRenamed, .propertyRenamed: return "\(subject)\(renamed) (renamed)"
        case .pairChanged, .reshaped: return "\(subject)\(renamed): \(detail)"
        case .converted: return "\(subject)\(renamed): \(detail) (\(values) values converted)"
        case .linksDropped: return "\(subject)\(renamed): links dropped (\(detail); \(values) values)"
        case .propertyDropped: return "\(subject): dropped (\(detail); \(values) values)"
        case .refused: return "\(subject): refused (\(detail))"
        case .added: return "\(subject) (added): \(detail) (\(records) records)"
        case .filled: return "\(subject) (required): \(detail) (\(records) records)"
        case .duplicates: return "duplicates under \(subject)'s uniqueness constraint: \(detail)"
        case .merged:
            return
                "\(subject): \(records) record\(records == 1 ? "" : "s") merged into the one kept (links re-pointed, "
                + "\(values) values dropped)"
        }
    }
}
