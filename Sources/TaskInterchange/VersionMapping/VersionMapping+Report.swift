import Foundation

extension VersionMapping {
    /// What the mapping did, given the counts an import made with it (``ImportPlan/modelChange``): one entry per
    /// decision that changes something, and each step of a chain.
    package func report(_ tally: Tally) -> ModelChangeReport {
        var entries: [ModelChangeReport.Entry] = []
        for (source, map) in entities.sorted(by: { $0.key < $1.key }) {
            guard let target = map.target else {
                entries.append(
                    ModelChangeReport.Entry(
                        map.isLeftOut ? .entityLeftOut : .entityDropped, subject: source,
                        records: tally.droppedRecords[source] ?? 0))
                continue
            }
            if target != source {
                entries.append(ModelChangeReport.Entry(.entityRenamed, subject: source, target: target))
            }
            for (property, change) in map.properties.sorted(by: { $0.key < $1.key }) {
                entries += self.entries(for: property, change, of: source, into: target, tally: tally)
            }
            for fill in map.fills {
                let count = tally.filledValues["\(target).\(fill.property)"] ?? 0
                // A required attribute every record has: nothing to say.
                if !fill.isAdded && count == 0 && fill.value == nil { continue }
                entries.append(
                    ModelChangeReport.Entry(
                        fill.isAdded ? .added : .filled, subject: "\(target).\(fill.property)",
                        detail: fill.value.map { "filled with \(Self.describe($0))" } ?? "required, no default",
                        records: count))
            }
        }
        for group in duplicates {
            let kept = group.members.first { $0.id == group.kept }
            let keeps =
                kept.map {
                    " → kept \($0.isInTarget ? "the target's " : "")key \($0.key.map(String.init) ?? $0.id.uuidString)"
                } ?? ""
            entries.append(
                ModelChangeReport.Entry(.duplicates, subject: group.entity, detail: group.description + keeps))
        }
        for (entity, count) in tally.mergedRecords.sorted(by: { $0.key < $1.key }) {
            entries.append(
                ModelChangeReport.Entry(
                    .merged, subject: entity, records: count, values: tally.mergedValues[entity] ?? 0))
        }
        let steps = steps.map { step in
            ModelChangeReport.Step(from: step.from, to: step.to, changes: step.mapping.stepChanges)
        }
        return ModelChangeReport(entries: entries, steps: steps, order: steps.isEmpty ? nil : order)
    }

    /// The entries for one source property of an entity the target keeps (none when it passes unchanged).
    private func entries(
        for property: String, _ change: PropertyMap, of source: String, into target: String, tally: Tally
    ) -> [ModelChangeReport.Entry] {
        let name = "\(source).\(property)"
        let targetName = change.target ?? property
        let renamed = targetName != property ? "\(target).\(targetName)" : nil
        func entry(_ kind: ModelChangeReport.Entry.Kind, detail: String? = nil, values: Int? = nil)
            -> ModelChangeReport.Entry
        {
            ModelChangeReport.Entry(kind, subject: name, target: renamed, detail: detail, values: values)
        }
        // A kept relationship whose destination's records the mapping drops: its links to them are dropped too
        // (counted as the import names the link, by the target's names).
        func droppedLinks() -> [ModelChangeReport.Entry] {
            guard let (destination, isLeftOut) = droppedDestination(of: change) else { return [] }
            let why =
                isLeftOut ? "\(destination) left out by the mapping" : "the target's version has no \(destination)"
            let count = tally.droppedValues["\(target).\(targetName)"] ?? tally.droppedValues[name] ?? 0
            return [entry(.linksDropped, detail: why, values: count)]
        }
        switch change.change {
        case .kept:
            var entries: [ModelChangeReport.Entry] = []
            if renamed != nil { entries.append(entry(.propertyRenamed)) }
            if let pair = change.pairChange { entries.append(entry(.pairChanged, detail: pair)) }
            return entries + droppedLinks()
        case .converted:
            return [
                entry(
                    .converted, detail: Self.shape(change.change),
                    values: tally.convertedValues["\(target).\(targetName)"] ?? 0)
            ]
        case .toMany, .toOne, .reordered:
            return [entry(.reshaped, detail: Self.shape(change.change))] + droppedLinks()
        case .dropped(let reason):
            return [
                ModelChangeReport.Entry(
                    .propertyDropped, subject: name, detail: reason, values: tally.droppedValues[name] ?? 0)
            ]
        case .refused(let reason): return [ModelChangeReport.Entry(.refused, subject: name, detail: reason)]
        }
    }

    /// The source entity whose records a relationship links to, when the mapping drops them (`isLeftOut`: the
    /// mapping's `modelChange` leaves it out); nil when they are not dropped.
    func droppedDestination(of property: PropertyMap) -> (entity: String, isLeftOut: Bool)? {
        guard property.change.keepsValues, let destination = property.destination, let dropped = entities[destination],
            dropped.target == nil
        else { return nil }
        return (destination, dropped.isLeftOut)
    }

    /// `droppedDestination(of:)` for a relationship named as the import counts its links, by the target's names
    /// (`Memo.folders`).
    func droppedDestination(ofTarget name: String) -> (entity: String, isLeftOut: Bool)? {
        for map in entities.values {
            for property in map.properties.values
            where map.target.map({ "\($0).\(property.target ?? "")" }) == name {
                return droppedDestination(of: property)
            }
        }
        return nil
    }

    /// What one step of a chain changes, one phrase each: `Entry.text → body (renamed)`, `Entry.mood Integer 16 →
    /// Integer 32`.
    var stepChanges: [String] {
        var changes: [String] = []
        for (source, map) in entities.sorted(by: { $0.key < $1.key }) {
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
                    changes.append("\(name)\(renamed) \(Self.shape(change.change) ?? "")")
                case .dropped: changes.append("\(source).\(property) removed")
                case .refused(let reason): changes.append("\(name) refused (\(reason))")
                }
            }
            for fill in map.fills where fill.isAdded {
                let value = fill.value.map { " (default \(Self.describe($0)))" } ?? ""
                changes.append("\(target).\(fill.property) added\(value)")
            }
        }
        return changes
    }

    /// How a property's type or cardinality changes: `Integer 16 → Integer 32`, `to-one → to-many`; nil when it
    /// does not.
    static func shape(_ change: Change) -> String? {
        switch change {
        case .converted(let from, let to): return "\(ArchiveType.label(of: from)) → \(ArchiveType.label(of: to))"
        case .toMany: return "to-one → to-many"
        case .toOne: return "to-many → to-one"
        case .reordered(let ordered): return ordered ? "unordered → ordered" : "ordered → unordered"
        default: return nil
        }
    }
}
