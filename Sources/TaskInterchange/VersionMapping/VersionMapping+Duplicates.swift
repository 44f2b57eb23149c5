import Foundation

/// Records that a uniqueness constraint of the target version makes duplicates (Core Data's error 133021; SQLite's
/// "UNIQUE constraint failed" mid-import): found in one pass over the archive, and among the rows a populated target
/// already holds, before anything is written; named group by group, and, where the mapping's `modelChange.duplicates`
/// says which record to keep, made one record each the way Core Data's merge policies would.
extension VersionMapping {
    /// Records sharing the values of one uniqueness constraint.
    package struct DuplicateGroup: Sendable, Hashable {
        /// One record of the group.
        package struct Member: Sendable, Hashable {
            /// Its id in the archive.
            package var id: UUID
            /// Its key in the source store (in the target store for a row already there).
            package var key: Int64?
            /// True for a row the target store already holds.
            package var isInTarget = false
            /// Its entity in the target model (a sub-entity of the constraint's, maybe).
            package var entity: String
            /// The value of the policy's date attribute, for `newest`.
            var date: Date?
            /// Its to-many links (target names), added to the kept record when it is merged.
            var links: [String: [String]]
        }

        /// The target entity that declares the constraint.
        package var entity: String
        /// The constraint's properties.
        package var properties: [String]
        /// The values the records share, in `properties` order.
        package var values: [ExtraValue]
        /// The records, in archive order.
        package var members: [Member]
        /// The record kept, once resolved.
        package internal(set) var kept: UUID?

        /// The group for a message: `Label (name = "Home"): keys 1, 4`, with `; the target's key 7` for rows the
        /// target already holds.
        package var description: String {
            let shared = zip(properties, values).map { "\($0) = \(VersionMapping.describe($1))" }.joined(
                separator: ", ")
            func keys(_ members: [Member]) -> String {
                members.map { $0.key.map(String.init) ?? $0.id.uuidString }.joined(separator: ", ")
            }
            let archive = members.filter { !$0.isInTarget }, target = members.filter(\.isInTarget)
            var text = "\(entity) (\(shared)): "
            if !archive.isEmpty { text += "key\(archive.count == 1 ? "" : "s") \(keys(archive))" }
            if !target.isEmpty {
                text +=
                    (archive.isEmpty ? "" : "; ") + "the target's key\(target.count == 1 ? "" : "s") \(keys(target))"
            }
            return text
        }
    }

    /// What resolving the duplicates changes in each record.
    struct Resolution: Sendable, Hashable {
        /// A merged record's id → the kept one's (uppercase UUID strings, as links spell them).
        var replaced: [String: String]
        /// A kept record's id → its added to-many links by property.
        var added: [String: [String: [String]]]
        /// Kept records the target store already holds (uppercase UUID strings → entity): links to them find their
        /// rows there, and the merged records' to-many links are added to those rows.
        var keptInTarget: [String: String] = [:]

        /// `record` with links to merged records pointed at the kept ones and the merged ones' links added; nil for
        /// a merged record (counted).
        func apply(_ record: EntityRecord, tally: inout Tally) -> EntityRecord? {
            let id = record.id.uuidString
            if replaced[id] != nil {
                tally.mergedRecords[record.entity, default: 0] += 1
                tally.mergedValues[record.entity, default: 0] +=
                    record.values.values.filter {
                        if case .array = $0 { return false }
                        return $0 != .null
                    }.count
                return nil
            }
            var result = record
            for (property, value) in record.values {
                switch value {
                case .string(let link):
                    if let kept = replaced[link.uppercased()] { result.values[property] = .string(kept) }
                case .array(let links):
                    var positions = record.positions[property]
                    let combined = links + (added[id]?[property] ?? [])
                    var seen: Set<String> = []
                    var kept: [String] = []
                    var keptPositions: [Int64] = []
                    for (index, link) in combined.enumerated() {
                        let target = replaced[link.uppercased()] ?? link
                        guard seen.insert(target.uppercased()).inserted else { continue }
                        kept.append(target)
                        if let given = positions {
                            // Added links go after the record's own, in the order found.
                            let position =
                                index < given.count ? given[index] : (keptPositions.max() ?? given.max() ?? 0) + 1
                            keptPositions.append(position)
                        }
                    }
                    if kept != links {
                        result.values[property] = .array(kept)
                        if positions != nil { positions = keptPositions }
                        result.positions[property] = positions
                    }
                default:
                    break
                }
            }
            for (property, links) in added[id] ?? [:] where record.values[property] == nil {
                result.values[property] = .array(links)
            }
            return result
        }
    }

    /// A row a populated target store already holds, of an entity under a uniqueness constraint.
    struct TargetRow: Sendable, Hashable {
        /// Its key in the target store.
        var key: Int64
        /// Its id, as the target's records are named.
        var id: UUID
        /// The constrained properties' values (and the date a policy orders by) as the store holds them.
        var values: [String: ExtraValue]
    }

    /// Reads the archive's generic records through the mapping and groups those that share the values of a
    /// uniqueness constraint of the target model (NULLs never conflict, as in SQLite); keeps the groups of two or
    /// more records in `duplicates`. With a policy for every such group's entity in `overrides.duplicates`, the
    /// mapping then resolves them.
    /// - Throws: `TaskInterchangeError.invalidData` naming every group when some entity has no policy; `.usage` for a
    ///   policy naming an entity the target lacks or a `by` that is not a date attribute of it; what reading the
    ///   archive or mapping its records throws.
    package mutating func findDuplicates(
        in source: some ArchiveSource, model: ObjectModel, overrides: ModelChangeOverrides
    ) throws {
        try findDuplicates(in: source, model: model, overrides: overrides, target: nil, matching: [:], refusing: true)
    }

    /// `findDuplicates(in:model:overrides:)`, the groups also holding the rows `target` returns for a concrete
    /// entity and the properties asked for, but those the archive's records replace: the same id, or the same value
    /// of the attribute `matching` pairs the entity's records by (an import's match rule); without `refusing`,
    /// groups no policy resolves are kept in `duplicates` unresolved (a check that writes nothing).
    mutating func findDuplicates(
        in source: some ArchiveSource, model: ObjectModel, overrides: ModelChangeOverrides,
        target: ((_ entity: String, _ properties: [String]) throws -> [TargetRow])?, matching: [String: String],
        refusing: Bool
    ) throws {
        try Self.checkPolicies(overrides.duplicates, model: model)
        var constraints: [String: [(owner: String, properties: [String])]] = [:]
        for entity in model.entities where targetDeclarations[entity.name] != nil || target != nil {
            for owner in model.ancestry(of: entity) {
                for constraint in owner.uniquenessConstraints where !constraint.isEmpty {
                    constraints[entity.name, default: []].append((owner.name, constraint))
                }
            }
        }
        guard !constraints.isEmpty else { return }
        // Each attribute's column type: the archive's values are compared as the cells a store holds for them.
        var declaredTypes: [String: [String: String]] = [:]
        for entity in model.entities where constraints[entity.name] != nil {
            for owner in model.ancestry(of: entity) {
                for attribute in owner.attributes {
                    guard let storage = SchemaLayout.storage(of: attribute.type) else { continue }
                    declaredTypes[entity.name, default: [:]][attribute.name] = storage.declaredType
                }
            }
        }
        var finder = Finder(
            mapping: self, constraints: constraints, policies: overrides.duplicates, matching: matching,
            declaredTypes: declaredTypes)
        try source.stream(kinds: [.task], into: &finder)
        if let target {
            for (entity, list) in constraints.sorted(by: { $0.key < $1.key }) {
                var properties = Set(list.flatMap(\.properties))
                for (owner, _) in list { if let by = overrides.duplicates[owner]?.by { properties.insert(by) } }
                let paired = matching[entity]
                if let paired { properties.insert(paired) }
                for row in try target(entity, properties.sorted()) where !finder.seen.contains(row.id) {
                    if let paired, let value = row.values[paired],
                        finder.matched[entity]?.contains(finder.cell(value, entity, paired)) == true
                    {
                        continue
                    }
                    let record = EntityRecord(id: row.id, entity: entity, key: row.key, values: row.values)
                    finder.add(record, isInTarget: true)
                }
            }
        }
        // Duplicates the target held before are not this import's to resolve.
        duplicates = finder.groups.values.filter { $0.members.count > 1 && $0.members.contains { !$0.isInTarget } }
            .sorted {
                ($0.entity, $0.members[0].key ?? 0) < ($1.entity, $1.members[0].key ?? 0)
            }
        guard !duplicates.isEmpty else { return }
        let unresolved = duplicates.filter { overrides.duplicates[$0.entity] == nil }
        guard unresolved.isEmpty || !refusing else {
            throw Self.refusal(
                unresolved,
                "which it would refuse; nothing was written; name which record of each group to keep in the "
                    + "mapping's modelChange.duplicates (newest by a date attribute, or lowestKey)")
        }
        var resolution = Resolution(replaced: [:], added: [:])
        var unmergeable: [DuplicateGroup] = []
        for index in duplicates.indices {
            let group = duplicates[index]
            guard let policy = overrides.duplicates[group.entity] else { continue }
            let kept = Self.kept(group.members, policy: policy)
            // A row the target holds is never removed: it can only absorb the archive's records.
            if group.members.contains(where: { $0.isInTarget && $0.id != kept.id }) {
                unmergeable.append(group)
                continue
            }
            duplicates[index].kept = kept.id
            let keptID = kept.id.uuidString
            if kept.isInTarget { resolution.keptInTarget[keptID] = kept.entity }
            for member in group.members where member.id != kept.id {
                resolution.replaced[member.id.uuidString] = keptID
                for (property, links) in member.links {
                    resolution.added[keptID, default: [:]][property, default: []] += links
                }
            }
        }
        guard unmergeable.isEmpty || !refusing else {
            throw Self.refusal(
                unmergeable,
                "where the record to keep is the archive's but the target already holds another of the group; "
                    + "nothing was written; a record already in the target is not removed (keep lowestKey keeps "
                    + "the target's)")
        }
        self.resolution = resolution
    }

    /// The refusal naming `groups` (the first 20).
    private static func refusal(_ groups: [DuplicateGroup], _ why: String) -> TaskInterchangeError {
        let listed = groups.prefix(20).map { "  " + $0.description }.joined(separator: "\n")
        let more = groups.count > 20 ? "\n  … and \(groups.count - 20) more groups" : ""
        let entities = Set(groups.map(\.entity)).sorted().joined(separator: ", ")
        return TaskInterchangeError(
            .invalidData,
            "\(groups.count) group\(groups.count == 1 ? "" : "s") of records share the values of a uniqueness "
                + "constraint of the target model (\(entities)), \(why):\n\(listed)\(more)")
    }

    /// True when some group's records are merged into one.
    var mergesRecords: Bool { resolution?.replaced.isEmpty == false }

    /// Whether a link to `id` goes to a record the target already holds, kept over the archive's duplicates of it.
    func isKeptInTarget(_ id: UUID) -> Bool {
        resolution?.keptInTarget[id.uuidString] != nil
    }

    /// The to-many links of merged records that the target's rows kept over them gain: (id, entity, links by
    /// property), in id order.
    var linksAddedInTarget: [(id: UUID, entity: String, links: [String: [String]])] {
        guard let resolution else { return [] }
        return resolution.keptInTarget.sorted { $0.key < $1.key }.compactMap { id, entity in
            guard let uuid = UUID(uuidString: id), let links = resolution.added[id] else { return nil }
            return (uuid, entity, links)
        }
    }

    /// The record a group keeps under `policy`: the target's row before the archive's where the policy does not tell
    /// them apart (keys of different stores do not compare).
    private static func kept(_ members: [DuplicateGroup.Member], policy: ModelChangeOverrides.DuplicatePolicy)
        -> DuplicateGroup.Member
    {
        let byKey = members.sorted {
            ($0.isInTarget ? 0 : 1, $0.key ?? .max) < ($1.isInTarget ? 0 : 1, $1.key ?? .max)
        }
        switch policy.keep {
        case .lowestKey:
            return byKey[0]
        case .newest:
            // Latest date first; among equal (or missing) dates the lowest key.
            return byKey.max { ($0.date ?? .distantPast) < ($1.date ?? .distantPast) } ?? byKey[0]
        }
    }
    /// A policy must name an entity of the target and, for `newest`, a date attribute of it.
    private static func checkPolicies(
        _ policies: [String: ModelChangeOverrides.DuplicatePolicy], model: ObjectModel
    ) throws(TaskInterchangeError) {
        for (name, policy) in policies.sorted(by: { $0.key < $1.key }) {
            let at = JSONPath.member("$.modelChange.duplicates", name)
            guard let entity = model.entity(named: name) else {
                let near = Suggestion.closest(to: name, among: model.entities.map(\.name))
                throw TaskInterchangeError(
                    .usage,
                    "\(at): the target model's entity '\(name)' does not exist"
                        + (near.map { " (did you mean '\($0)'?)" } ?? ""))
            }
            let dates = model.ancestry(of: entity).flatMap(\.attributes).filter { $0.type == .date }.map(\.name)
            switch (policy.keep, policy.by) {
            case (.newest, let by?) where dates.contains(by): break
            case (.newest, let by):
                throw TaskInterchangeError(
                    .usage,
                    "\(at).by: keeping the newest needs a date attribute of \(name) to order by"
                        + (by.map { "; '\($0)' is none" } ?? "")
                        + (dates.isEmpty
                            ? " (it has none; keep lowestKey)" : " (\(dates.sorted().joined(separator: ", ")))"))
            case (.lowestKey, _): break
            }
        }
    }

    /// The pass over the archive's generic records.
    private struct Finder: ArchiveVisitor {
        struct Key: Hashable {
            var owner: String
            var values: [[UInt8]]
        }
        let mapping: VersionMapping
        let constraints: [String: [(owner: String, properties: [String])]]
        let policies: [String: ModelChangeOverrides.DuplicatePolicy]
        let matching: [String: String]
        /// Entity → attribute → its column's declared type (see `cell`).
        let declaredTypes: [String: [String: String]]
        var tally = Tally()
        /// Entity → the values of its `matching` attribute the archive's records hold: a target row with one of them
        /// is the record such a record updates.
        var matched: [String: Set<[UInt8]>] = [:]
        var groups: [Key: DuplicateGroup] = [:]
        /// The archive's ids: a target row with one of them is the record the archive brings again, not another.
        var seen: Set<UUID> = []

        mutating func visitProject(_ project: ProjectRecord, index: Int) {}
        mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
        mutating func visitTag(_ tag: TagRecord, index: Int) {}
        mutating func visitTask(_ task: TaskRecord, index: Int) {}
        mutating func visitIssue(_ issue: ValidationIssue) {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}

        mutating func visitEntity(_ record: EntityRecord, index: Int) throws {
            seen.insert(record.id)
            guard
                let mapped = try mapping.apply(
                    record, path: JSONPath.member("$.entities", record.entity) + "[\(index)]", tally: &tally)
            else { return }
            if let paired = matching[mapped.entity], let value = mapped.values[paired], value != .null {
                matched[mapped.entity, default: []].insert(cell(value, mapped.entity, paired))
            }
            add(mapped, isInTarget: false)
        }

        /// `record` (of the target's model) in the group of each constraint it has values for.
        mutating func add(_ record: EntityRecord, isInTarget: Bool) {
            guard let list = constraints[record.entity] else { return }
            for (owner, properties) in list {
                let values = properties.map { record.values[$0] ?? .null }
                // NULLs are distinct in a unique index: a record without a value conflicts with none.
                guard !values.contains(.null) else { continue }
                let key = Key(owner: owner, values: zip(properties, values).map { cell($1, record.entity, $0) })
                var date: Date?
                switch policies[owner]?.by.flatMap({ record.values[$0] }) {
                case .string(let text)?: date = try? LosslessDate.date(from: text)
                // A date as the target's store holds it: seconds since 2001.
                case .stored(.real(let seconds))?: date = Date(timeIntervalSinceReferenceDate: seconds)
                case .stored(.integer(let seconds))?: date = Date(timeIntervalSinceReferenceDate: Double(seconds))
                default: break
                }
                var links: [String: [String]] = [:]
                for (property, value) in record.values {
                    if case .array(let ids) = value, !ids.isEmpty { links[property] = ids }
                }
                let member = DuplicateGroup.Member(
                    id: record.id, key: record.key, isInTarget: isInTarget, entity: record.entity, date: date,
                    links: links)
                groups[key, default: DuplicateGroup(entity: owner, properties: properties, values: values, members: [])]
                    .members.append(member)
            }
        }

        /// `value` of `entity.property` as the bytes of the cell a store holds for it: an archive's date text and
        /// the seconds a target's row holds for the same date are one value.
        func cell(_ value: ExtraValue, _ entity: String, _ property: String) -> [UInt8] {
            guard let declared = declaredTypes[entity]?[property], let cell = value.storedCell(declaredType: declared)
            else { return Self.bytes(value) }
            return Self.bytes(.stored(cell))
        }

        /// A value as SQLite compares it in a unique index: text byte by byte (not by Unicode equivalence).
        static func bytes(_ value: ExtraValue) -> [UInt8] {
            switch value {
            case .string(let text): return [1] + Array(text.utf8)
            case .integer(let number): return [2] + Array(String(number).utf8)
            case .double(let number):
                // An integral REAL equals the INTEGER of its value in SQLite.
                if let exact = Int64(exactly: number) { return [2] + Array(String(exact).utf8) }
                return [3] + Array(String(number.bitPattern).utf8)
            case .bool(let flag): return [2, flag ? 0x31 : 0x30]
            case .array(let ids): return [4] + Array(ids.joined(separator: ",").utf8)
            case .null: return [0]
            case .stored(.integer(let number)): return bytes(.integer(number))
            case .stored(.real(let number)): return bytes(.double(number))
            case .stored(.text(let text)): return bytes(.string(text))
            case .stored(.blob(let blob)): return [5] + blob
            }
        }
    }
}
