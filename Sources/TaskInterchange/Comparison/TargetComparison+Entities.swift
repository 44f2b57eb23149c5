import Foundation

/// Generic records: which the target holds exactly, which `--match Entity.attribute` pairs with a target record, and
/// the target's modification dates for merge. Archives list generic records in key order, not id order, so both sides'
/// records are held (an import holds every generic record's key anyway) and paired once the target's are read.
extension TargetComparison.Finder {
    mutating func visitEntity(_ record: EntityRecord, index: Int) throws {
        guard let modelChange else { return entities.append(record) }
        // An entity the change drops has nothing to compare; a record it cannot map fails the import's own pass.
        guard let mapped = try? modelChange.apply(record, tally: &tally) else { return }
        entities.append(mapped)
    }

    /// Reads the target's generic records (after its typed ones), pairs the archive's by id or by `--match` key, and
    /// compares each pair with the archive's references followed through the matches.
    ///
    /// Rule for `--match`: a value pairs an archive record with a target record only when exactly one target record of
    /// the entity has it and exactly one unpaired archive record does; other records with such a value are not
    /// matched (they are inserted), and counted with the value in `ambiguousMatches`.
    mutating func finishEntities() throws {
        guard !entities.isEmpty else { return }
        let wanted = Set(entities.map(\.entity))
        var targetRecords: [UUID: EntityRecord] = [:]
        var targetValues: [String: [ExtraValue: [UUID]]] = [:]
        while let item = target.current {
            if case .entity(let record) = item, wanted.contains(record.entity) {
                targetRecords[record.id] = record
                if let attribute = match?.attribute(of: record.entity), let value = record.values[attribute] {
                    targetValues[record.entity, default: [:]][value, default: []].append(record.id)
                }
            }
            try target.advance()
        }
        if match?.entityKeys.isEmpty == false { pair(targetRecords: targetRecords, targetValues: targetValues) }
        var followed: [UUID: UUID] = result.entityMatches
        for matches in result.matches.values { followed.merge(matches) { first, _ in first } }
        // Each entity's relationships, named once.
        let relationships = (builder?.entityScope.declarations ?? [:]).mapValues { $0.relationships.keys.sorted() }
        for record in entities {
            let targetId = targetRecords[record.id] != nil ? record.id : result.entityMatches[record.id]
            guard let targetId, let other = targetRecords[targetId] else { continue }
            var mapped = record
            mapped.id = targetId
            // What the change added keeps the target's values on an update (`VersionMapping.addedAttributes`).
            for name in modelChange?.mapping.addedAttributes(of: record.entity) ?? [] {
                mapped.values[name] = other.values[name]
            }
            if !followed.isEmpty {
                for name in relationships[record.entity] ?? [] {
                    mapped.values[name] = mapped.values[name].map { Self.follow($0, through: followed) }
                }
            }
            if builder?.compare(mapped, other).isEmpty == true {
                result.unchangedEntities.insert(record.id)
            } else {
                result.targetDates[targetId] = dates.date(in: other.values)
            }
        }
    }

    /// `--match Entity.attribute`: archive records whose id the target lacks, paired by a value unique on both sides.
    private mutating func pair(targetRecords: [UUID: EntityRecord], targetValues: [String: [ExtraValue: [UUID]]]) {
        var candidates: [(record: EntityRecord, attribute: String, value: ExtraValue)] = []
        var archiveCounts: [String: [ExtraValue: Int]] = [:]
        // A target record the archive holds under its own id is taken.
        let taken = Set(entities.lazy.map(\.id).filter { targetRecords[$0] != nil })
        for record in entities where targetRecords[record.id] == nil {
            guard let attribute = match?.attribute(of: record.entity), let value = record.values[attribute] else {
                continue
            }
            candidates.append((record, attribute, value))
            archiveCounts[record.entity, default: [:]][value, default: 0] += 1
        }
        for (record, attribute, value) in candidates {
            let ids = (targetValues[record.entity]?[value] ?? []).filter { !taken.contains($0) }
            guard !ids.isEmpty else { continue }
            let inArchive = archiveCounts[record.entity]?[value] ?? 0
            if ids.count == 1 && inArchive == 1 {
                result.entityMatches[record.id] = ids[0]
                continue
            }
            var ambiguity = result.ambiguousMatches["\(record.entity).\(attribute)"] ?? TargetComparison.Ambiguity()
            ambiguity.records += 1
            let described = "\(Self.describe(value)) (\(ids.count) in the target, \(inArchive) in the archive)"
            if ambiguity.values.count < TargetComparison.Ambiguity.shown, !ambiguity.values.contains(described) {
                ambiguity.values.append(described)
            }
            result.ambiguousMatches["\(record.entity).\(attribute)"] = ambiguity
        }
    }

    /// A relationship's id (or ids) as the target names the records they pair with.
    private static func follow(_ value: ExtraValue, through ids: [UUID: UUID]) -> ExtraValue {
        func mapped(_ text: String) -> String {
            CanonicalUUID.parse(text).flatMap { ids[$0] }?.uuidString ?? text
        }
        switch value {
        case .string(let id): return .string(mapped(id))
        case .array(let list): return .array(list.map(mapped))
        default: return value
        }
    }

    private static func describe(_ value: ExtraValue) -> String {
        switch value {
        case .string(let text): return "\"\(text)\""
        case .integer(let number): return String(number)
        case .double(let number): return "\(number)"
        case .bool(let flag): return String(flag)
        case .null: return "null"
        case .array(let list): return "[\(list.joined(separator: ", "))]"
        case .stored(let cell): return cell.described
        }
    }
}
