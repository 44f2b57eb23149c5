import Foundation

/// Field-by-field comparison of two records with the same id.
extension DiffBuilder {
    /// A project, category, tag or subtask: its fields, as its kind's table lists them, then `extra`.
    func compare<Record: TypedRecord>(_ a: Record, _ b: Record) -> [FieldDifference] {
        var fields: [FieldDifference] = []
        compareFields(a, b, into: &fields)
        extras(of: Record.kind, a.extra, b.extra, into: &fields)
        return fields
    }

    mutating func compareTask(_ a: TaskRecord, _ b: TaskRecord) -> [FieldDifference] {
        var fields: [FieldDifference] = []
        compareFields(a, b, into: &fields)
        reference("projectId", a.projectId, b.projectId, into: &fields)
        if !ignores("categoryId", of: .task) { reference("categoryId", a.categoryId, b.categoryId, into: &fields) }
        // Ids become text only when they differ: `uuidString` formats through printf, a fifth of a comparison's time.
        if a.tagIds != b.tagIds {
            links("tagIds", a.tagIds.map(\.uuidString), b.tagIds.map(\.uuidString), ordered: false, into: &fields)
        }
        fields += compareSubtasks(a, b)
        extras(of: .task, a.extra, b.extra, into: &fields)
        return fields
    }

    /// The fields in table order, each compared as its shape says; fields A's format lacks are left out.
    private func compareFields<Record: TypedRecord>(_ a: Record, _ b: Record, into fields: inout [FieldDifference]) {
        for field in Record.layout {
            if !ignoredFields.isEmpty && ignores(field.name, of: Record.kind) { continue }
            switch field.access {
            case .text(let slot), .textOrDefault(let slot): text(field.name, a[slot], b[slot], into: &fields)
            case .optionalText(let slot): text(field.name, a[slot], b[slot], into: &fields)
            case .flag(let slot):
                let (old, new) = (a[slot], b[slot])
                if old != new { fields.append(.value(field.name, old: .bool(old), new: .bool(new))) }
            case .date(let slot): date(field.name, a[slot], b[slot], into: &fields)
            case .optionalDate(let slot): date(field.name, a[slot], b[slot], into: &fields)
            case .level(let slot, _):
                let (old, new) = (a[slot], b[slot])
                if old != new {
                    fields.append(.value(field.name, old: .integer(Int64(old)), new: .integer(Int64(new))))
                }
            case .optionalInteger(let slot):
                let (old, new) = (a[slot], b[slot])
                if old != new {
                    fields.append(
                        .value(field.name, old: old.map { .integer(Int64($0)) }, new: new.map { .integer(Int64($0)) }))
                }
            }
        }
    }

    private func text(_ field: String, _ a: String?, _ b: String?, into fields: inout [FieldDifference]) {
        if a != b { fields.append(.value(field, old: a.map(ExtraValue.string), new: b.map(ExtraValue.string))) }
    }

    private func reference(_ field: String, _ a: UUID?, _ b: UUID?, into fields: inout [FieldDifference]) {
        if a != b {
            fields.append(.value(field, old: a.map { .string($0.uuidString) }, new: b.map { .string($0.uuidString) }))
        }
    }

    /// Dates are equal only when every bit of the Double is (−0.0 is not 0.0).
    private func date(_ field: String, _ a: Date?, _ b: Date?, into fields: inout [FieldDifference]) {
        if a?.timeIntervalSinceReferenceDate.bitPattern != b?.timeIntervalSinceReferenceDate.bitPattern {
            fields.append(.value(field, old: a.map(Self.dateValue), new: b.map(Self.dateValue)))
        }
    }

    /// A date as the archive writes it; a value the format cannot write shows as its seconds since 2001.
    static func dateValue(_ date: Date) -> ExtraValue {
        (try? LosslessDate.string(from: date)).map(ExtraValue.string) ?? .double(date.timeIntervalSinceReferenceDate)
    }

    /// A to-many relationship: links added and removed, and, when ordered, a new order of the same members.
    func links(_ field: String, _ a: [String], _ b: [String], ordered: Bool, into fields: inout [FieldDifference]) {
        if a == b { return }
        let setA = Set(a), setB = Set(b)
        let added = b.filter { !setA.contains($0) }, removed = a.filter { !setB.contains($0) }
        if !added.isEmpty || !removed.isEmpty { fields.append(.links(field, added: added, removed: removed)) }
        guard ordered else { return }
        let commonA = a.filter(setB.contains), commonB = b.filter(setA.contains)
        if commonA != commonB { fields.append(.order(field, old: commonA, new: commonB)) }
    }

    /// `extra` members by name: relationships (as either side declares them) as links, attributes as values. An
    /// absent member equals null, and an absent to-many relationship equals an empty one (both mean "none").
    private func extras(
        of kind: StoreMapping.Kind, _ a: [String: ExtraValue]?, _ b: [String: ExtraValue]?,
        into fields: inout [FieldDifference]
    ) {
        if ignores("extra", of: kind) { return }
        let a = a ?? [:], b = b ?? [:]
        if a.isEmpty && b.isEmpty { return }
        let declared = relationships[kind.rawValue] ?? [:]
        for name in Set(a.keys).union(b.keys).sorted() {
            let left = a[name] ?? .null, right = b[name] ?? .null
            if Self.same(left, right) { continue }
            if let relationship = declared[name], relationship.toMany {
                links("extra.\(name)", Self.ids(left), Self.ids(right), ordered: relationship.ordered, into: &fields)
            } else {
                fields.append(.value("extra.\(name)", old: a[name], new: b[name]))
            }
        }
    }

    static func ids(_ value: ExtraValue) -> [String] {
        switch value {
        case .array(let ids): return ids
        case .string(let id): return [id]
        default: return []
        }
    }

    /// Equality that tells −0.0 from 0.0 and finds a NaN equal to itself, like the dates.
    static func same(_ a: ExtraValue, _ b: ExtraValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.array(let x), .null), (.null, .array(let x)): return x.isEmpty
        default: return a == b
        }
    }
}
