import Foundation

/// Records that a uniqueness constraint of the target version makes duplicates (Core Data's error 133021; SQLite's
/// "UNIQUE constraint failed" mid-import): found in one pass over the archive before anything is written, named group
/// by group, and, where the mapping's `modelChange.duplicates` says which record to keep, made one record each the way
/// Core Data's merge policies would.
extension VersionMapping {
    /// Records sharing the values of one uniqueness constraint.
    public struct DuplicateGroup: Sendable, Hashable {
        /// One record of the group.
        public struct Member: Sendable, Hashable {
            /// Its id in the archive.
            public var id: UUID
            /// Its key in the source store.
            public var key: Int64?
            /// Its entity in the target model (a sub-entity of the constraint's, maybe).
            public var entity: String
            /// The value of the policy's date attribute, for `newest`.
            var date: Date?
            /// Its to-many links (target names), added to the kept record when it is merged.
            var links: [String: [String]]
        }

        /// The target entity that declares the constraint.
        public var entity: String
        /// The constraint's properties.
        public var properties: [String]
        /// The values the records share, in `properties` order.
        public var values: [ExtraValue]
        /// The records, in archive order.
        public var members: [Member]
        /// The record kept, once resolved.
        public internal(set) var kept: UUID?

        /// The group for a message: `Label (name = "Home"): keys 1, 4`.
        public var description: String {
            let shared = zip(properties, values).map { "\($0) = \(VersionMapping.describe($1))" }.joined(
                separator: ", ")
            let keys = members.map { $0.key.map(String.init) ?? $0.id.uuidString }.joined(separator: ", ")
            return "\(entity) (\(shared)): keys \(keys)"
        }
    }

    /// What resolving the duplicates changes in each record.
    struct Resolution: Sendable, Hashable {
        /// A merged record's id → the kept one's (uppercase UUID strings, as links spell them).
        var replaced: [String: String]
        /// A kept record's id → its added to-many links by property.
        var added: [String: [String: [String]]]

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

    /// Reads the archive's generic records through the mapping and groups those that share the values of a
    /// uniqueness constraint of the target model (NULLs never conflict, as in SQLite); keeps the groups of two or
    /// more records in `duplicates`. With a policy for every such group's entity in `overrides.duplicates`, the
    /// mapping then resolves them.
    /// - Throws: `TaskInterchangeError.invalidData` naming every group when some entity has no policy; `.usage` for a
    ///   policy naming an entity the target lacks or a `by` that is not a date attribute of it; what reading the
    ///   archive or mapping its records throws.
    public mutating func findDuplicates(
        in source: some ArchiveSource, model: ObjectModel, overrides: ModelChangeOverrides
    ) throws {
        try Self.checkPolicies(overrides.duplicates, model: model)
        var constraints: [String: [(owner: String, properties: [String])]] = [:]
        for entity in model.entities where targetDeclarations[entity.name] != nil {
            for owner in model.ancestry(of: entity) {
                for constraint in owner.uniquenessConstraints where !constraint.isEmpty {
                    constraints[entity.name, default: []].append((owner.name, constraint))
                }
            }
        }
        guard !constraints.isEmpty else { return }
        var finder = Finder(mapping: self, constraints: constraints, policies: overrides.duplicates)
        try source.stream(kinds: [.task], into: &finder)
        duplicates = finder.groups.values.filter { $0.members.count > 1 }.sorted {
            ($0.entity, $0.members[0].key ?? 0) < ($1.entity, $1.members[0].key ?? 0)
        }
        guard !duplicates.isEmpty else { return }
        let unresolved = duplicates.filter { overrides.duplicates[$0.entity] == nil }
        guard unresolved.isEmpty else {
            let listed = unresolved.prefix(20).map { "  " + $0.description }.joined(separator: "\n")
            let more = unresolved.count > 20 ? "\n  … and \(unresolved.count - 20) more groups" : ""
            let entities = Set(unresolved.map(\.entity)).sorted().joined(separator: ", ")
            throw TaskInterchangeError(
                .invalidData,
                "\(unresolved.count) group\(unresolved.count == 1 ? "" : "s") of records share the values of a "
                    + "uniqueness constraint of the target model (\(entities)), which it would refuse; nothing was "
                    + "written; name which record of each group to keep in the mapping's modelChange.duplicates "
                    + "(newest by a date attribute, or lowestKey):\n\(listed)\(more)")
        }
        var resolution = Resolution(replaced: [:], added: [:])
        for index in duplicates.indices {
            let group = duplicates[index]
            guard let policy = overrides.duplicates[group.entity] else { continue }
            let kept = Self.kept(group.members, policy: policy)
            duplicates[index].kept = kept.id
            let keptID = kept.id.uuidString
            for member in group.members where member.id != kept.id {
                resolution.replaced[member.id.uuidString] = keptID
                for (property, links) in member.links {
                    resolution.added[keptID, default: [:]][property, default: []] += links
                }
            }
        }
        self.resolution = resolution
    }

    /// The record a group keeps under `policy`.
    private static func kept(_ members: [DuplicateGroup.Member], policy: ModelChangeOverrides.DuplicatePolicy)
        -> DuplicateGroup.Member
    {
        let byKey = members.sorted { ($0.key ?? .max) < ($1.key ?? .max) }
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
        var tally = Tally()
        var groups: [Key: DuplicateGroup] = [:]

        mutating func visitProject(_ project: ProjectRecord, index: Int) {}
        mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
        mutating func visitTag(_ tag: TagRecord, index: Int) {}
        mutating func visitTask(_ task: TaskRecord, index: Int) {}
        mutating func visitIssue(_ issue: ValidationIssue) {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}

        mutating func visitEntity(_ record: EntityRecord, index: Int) throws {
            guard
                let mapped = try mapping.apply(
                    record, path: JSONPath.member("$.entities", record.entity) + "[\(index)]", tally: &tally),
                let list = constraints[mapped.entity]
            else { return }
            for (owner, properties) in list {
                let values = properties.map { mapped.values[$0] ?? .null }
                // NULLs are distinct in a unique index: a record without a value conflicts with none.
                guard !values.contains(.null) else { continue }
                let key = Key(owner: owner, values: values.map(Self.bytes))
                var date: Date?
                if let by = policies[owner]?.by, case .string(let text)? = mapped.values[by] {
                    date = try? LosslessDate.date(from: text)
                }
                var links: [String: [String]] = [:]
                for (property, value) in mapped.values {
                    if case .array(let ids) = value, !ids.isEmpty { links[property] = ids }
                }
                let member = DuplicateGroup.Member(
                    id: mapped.id, key: mapped.key, entity: mapped.entity, date: date, links: links)
                groups[key, default: DuplicateGroup(entity: owner, properties: properties, values: values, members: [])]
                    .members.append(member)
            }
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
