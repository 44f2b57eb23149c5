import Foundation

/// Generic records (the `entities` section): counted per entity, compared property by property.
extension DiffBuilder {
    /// Which generic entities a comparison covers, and how their properties read.
    struct EntityScope {
        /// Each entity's declaration as either side gives it (A's when both do).
        let declarations: [String: EntityDeclaration]
        /// The entities compared; nil for every entity either side has (`diff`).
        let included: Set<String>?
        /// `verify`: entities A carries that B has no place for; their records are counted, not compared.
        let uncompared: Set<String>
        /// `verify`: per entity, the one-to-one sides A leaves out while carrying their other side (a file of one side
        /// per pair): an import set them from that side, so they are not differences.
        let mirrored: [String: Set<String>]

        init(headerA: ArchiveHeader, headerB: ArchiveHeader, bMayHoldMore: Bool) {
            let modelA = headerA.source?.model ?? [:], modelB = headerB.source?.model ?? [:]
            declarations = modelB.merging(modelA) { _, fromA in fromA }
            if bMayHoldMore {
                // The file's entities only; B's others are what it holds beyond the file.
                included = Set(modelA.keys)
                uncompared = Set(modelA.keys).subtracting(modelB.keys)
                var mirrored: [String: Set<String>] = [:]
                for (entity, declaration) in modelB {
                    for (name, relationship) in declaration.relationships where !relationship.toMany {
                        guard modelA[entity]?.relationships[name] == nil, let inverse = relationship.inverse,
                            modelA.contains(where: { $0.value.relationships[inverse]?.inverse == name })
                        else { continue }
                        mirrored[entity, default: []].insert(name)
                    }
                }
                self.mirrored = mirrored
            } else {
                included = nil
                uncompared = []
                mirrored = [:]
            }
        }

        func includes(_ entity: String) -> Bool {
            included?.contains(entity) ?? true
        }
    }

    /// The entity's totals, made on first use.
    private mutating func summary(_ entity: String) -> GraphDiff.EntitySummary? {
        guard entityScope.includes(entity) else { return nil }
        return entitySummaries[entity]
            ?? GraphDiff.EntitySummary(entity: entity, compared: !entityScope.uncompared.contains(entity))
    }

    mutating func onlyInA(_ record: EntityRecord) {
        guard var summary = summary(record.entity) else { return }
        summary.countA += 1
        if summary.compared {
            summary.onlyInA += 1
            self.record(
                RecordDifference(
                    kind: nil, entity: record.entity, id: record.id, label: record.label,
                    change: .onlyInA))
        }
        entitySummaries[record.entity] = summary
    }

    mutating func onlyInB(_ record: EntityRecord) {
        guard var summary = summary(record.entity) else { return }
        summary.countB += 1
        summary.onlyInB += 1
        entitySummaries[record.entity] = summary
        // What a store holds beyond the file is not a difference for `verify` (which names the entities included).
        guard entityScope.included == nil else { return }
        self.record(
            RecordDifference(
                kind: nil, entity: record.entity, id: record.id, label: record.label,
                change: .onlyInB))
    }

    /// A record both sides hold alike: counted, not compared.
    mutating func alike(_ record: EntityRecord) {
        guard var summary = summary(record.entity) else { return }
        summary.countA += 1
        summary.countB += 1
        entitySummaries[record.entity] = summary
    }

    mutating func both(_ a: EntityRecord, _ b: EntityRecord) {
        guard var summary = summary(b.entity) else { return }
        summary.countA += 1
        summary.countB += 1
        defer { entitySummaries[b.entity] = summary }
        let fields = compare(a, b)
        guard !fields.isEmpty else { return }
        summary.changed += 1
        record(
            RecordDifference(
                kind: nil, entity: b.entity, id: b.id, label: b.label, change: .changed,
                fields: fields))
    }

    /// Property by property, names sorted: to-many relationships as links added and removed (and, when ordered, the
    /// order of those both keep), everything else as values. A property absent on one side equals null (and an empty
    /// to-many relationship), as absent means NULL in the format; dates are equal when every bit is.
    func compare(_ a: EntityRecord, _ b: EntityRecord) -> [FieldDifference] {
        if a.values == b.values { return [] }
        let declaration = entityScope.declarations[b.entity] ?? entityScope.declarations[a.entity]
        var fields: [FieldDifference] = []
        let mirrored = entityScope.mirrored[b.entity] ?? []
        for name in Set(a.values.keys).union(b.values.keys).sorted() where !mirrored.contains(name) {
            let left = a.values[name] ?? .null, right = b.values[name] ?? .null
            if Self.same(left, right) { continue }
            if let relationship = declaration?.relationships[name], relationship.toMany {
                links(name, Self.ids(left), Self.ids(right), ordered: relationship.ordered, into: &fields)
            } else if let type = declaration?.attributes[name], Self.sameValue(left, right, type: type) {
                continue
            } else {
                fields.append(.value(name, old: a.values[name], new: b.values[name]))
            }
        }
        return fields
    }

    /// Two spellings of one value of model type `type`, which a store keeps alike: a date with more digits than an
    /// export writes, a decimal as `1e2` or `100.0`, a UUID in lowercase (a hand-edited file, say).
    private static func sameValue(_ a: ExtraValue, _ b: ExtraValue, type: String) -> Bool {
        guard case .string(let x) = a, case .string(let y) = b else { return false }
        switch ArchiveType(rawValue: type) {
        case .date?:
            guard let first = try? LosslessDate.date(from: x), let second = try? LosslessDate.date(from: y) else {
                return false
            }
            return first.timeIntervalSinceReferenceDate.bitPattern == second.timeIntervalSinceReferenceDate.bitPattern
        case .decimal?:
            guard let first = DecimalText(x) else { return false }
            return first == DecimalText(y)
        case .uuid?:
            guard let first = UUID(uuidString: x) else { return false }
            return first == UUID(uuidString: y)
        default:
            return false
        }
    }
}

extension EntityRecord {
    /// A name for people: the record's `name` or `title` (any case), if it has one as text.
    var label: String {
        let named = values.filter {
            guard case .string = $0.value else { return false }
            let lowered = $0.key.lowercased()
            return lowered == "name" || lowered == "title"
        }
        // The first by property name, so a record with both always shows the same one.
        guard case .string(let text)? = named.min(by: { $0.key < $1.key })?.value else { return "" }
        return text
    }
}
