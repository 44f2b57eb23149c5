import Foundation

/// Collects a comparison's result as the join hands it records: totals for every record, details for the first
/// `detailLimit` differing ones.
struct DiffBuilder {
    private var diff: GraphDiff
    private var summaries: [StoreMapping.Kind: GraphDiff.KindSummary] = [:]
    private let detailLimit: Int
    /// Kinds compared (all for `diff`; those A's format carries for `verify`).
    let kinds: Set<StoreMapping.Kind>
    /// Fields A's format does not carry, by kind (`verify` of a version 1 file).
    let ignoredFields: [StoreMapping.Kind: Set<String>]
    /// Relationships carried under `extra`, by kind and property, as either side declares them.
    let relationships: [String: [String: ExtraRelationship]]
    /// The generic entities compared and how (see `EntityScope`), and their totals so far.
    let entityScope: EntityScope
    var entitySummaries: [String: GraphDiff.EntitySummary] = [:]

    init(nameA: String, nameB: String, options: GraphComparison.Options, headerA: ArchiveHeader, headerB: ArchiveHeader)
    {
        diff = GraphDiff(nameA: nameA, nameB: nameB, bMayHoldMore: options.bMayHoldMore)
        detailLimit = options.detailLimit
        var kinds = Set(StoreMapping.Kind.allCases)
        var ignored: [StoreMapping.Kind: Set<String>] = [:]
        if options.bMayHoldMore {
            if headerA.version == 1 {
                // What the DataExporter format has no place for is not something the file says.
                kinds = [.project, .tag, .task]
                // The fields version 1 lacks come from the kinds' tables.
                func lacking<Record: TypedRecord>(_: Record.Type, _ members: [String]) -> Set<String> {
                    Set(Record.fields.filter { !$0.inVersion1 }.map(\.name) + members)
                }
                ignored = [
                    .project: lacking(ProjectRecord.self, ["extra"]), .tag: lacking(TagRecord.self, ["extra"]),
                    .task: lacking(TaskRecord.self, ["categoryId", "subtasks", "extra"]),
                ]
            } else if let entities = headerA.source?.entities, !entities.isEmpty {
                kinds = Set(entities.keys.compactMap(StoreMapping.Kind.init(rawValue:)))
            }
        }
        self.kinds = kinds
        ignoredFields = ignored
        var relationships = headerB.source?.relationships ?? [:]
        for (kind, properties) in headerA.source?.relationships ?? [:] {
            relationships[kind, default: [:]].merge(properties) { fromA, _ in fromA }
        }
        self.relationships = relationships
        for kind in kinds { summaries[kind] = GraphDiff.KindSummary(kind: kind) }
        entityScope = EntityScope(headerA: headerA, headerB: headerB, bMayHoldMore: options.bMayHoldMore)
    }

    /// The finished result.
    var result: GraphDiff {
        var diff = diff
        diff.kinds = summaries.values.sorted { $0.kind < $1.kind }
        diff.entities = entitySummaries.values.filter { $0.countA > 0 || $0.countB > 0 }
            .sorted { $0.entity < $1.entity }
        return diff
    }

    /// Differences counted so far.
    var differenceCount: Int { diff.differenceCount }

    func ignores(_ field: String, of kind: StoreMapping.Kind) -> Bool {
        ignoredFields[kind]?.contains(field) ?? false
    }

    /// Counts a difference and keeps its details while under the limit.
    mutating func record(_ difference: @autoclosure () -> RecordDifference) {
        diff.differenceCount += 1
        if diff.records.count < detailLimit { diff.records.append(difference()) }
    }

    mutating func onlyInA(_ item: GraphItem) {
        if case .entity(let record) = item { return onlyInA(record) }
        let kind = item.kind
        guard kinds.contains(kind) else { return }
        summaries[kind]!.countA += 1
        summaries[kind]!.onlyInA += 1
        record(RecordDifference(kind: kind, id: item.id, label: item.label, change: .onlyInA))
        if case .task(let task) = item, kinds.contains(.subtask), !ignores("subtasks", of: .task) {
            summaries[.subtask]!.countA += task.subtasks.count
            summaries[.subtask]!.onlyInA += task.subtasks.count
        }
    }

    mutating func onlyInB(_ item: GraphItem) {
        if case .entity(let record) = item { return onlyInB(record) }
        let kind = item.kind
        guard kinds.contains(kind) else { return }
        summaries[kind]!.countB += 1
        summaries[kind]!.onlyInB += 1
        if case .task(let task) = item, kinds.contains(.subtask), !ignores("subtasks", of: .task) {
            summaries[.subtask]!.countB += task.subtasks.count
            summaries[.subtask]!.onlyInB += task.subtasks.count
        }
        // What a store holds beyond the file is not a difference for `verify`.
        guard !diff.bMayHoldMore else { return }
        record(RecordDifference(kind: kind, id: item.id, label: item.label, change: .onlyInB))
    }

    /// A record both sides hold alike (their fingerprints agree): counted as `both(item, item)` counts it, without
    /// comparing it with itself.
    mutating func alike(_ item: GraphItem) {
        switch item {
        case .entity(let record):
            alike(record)
        case .header:
            return
        case .project, .category, .tag, .task:
            let kind = item.kind
            guard kinds.contains(kind) else { return }
            summaries[kind]!.countA += 1
            summaries[kind]!.countB += 1
            if case .task(let task) = item, kinds.contains(.subtask), !ignores("subtasks", of: .task) {
                summaries[.subtask]!.countA += task.subtasks.count
                summaries[.subtask]!.countB += task.subtasks.count
            }
        }
    }

    mutating func both(_ left: GraphItem, _ right: GraphItem) {
        if case .entity(let a) = left, case .entity(let b) = right { return both(a, b) }
        let kind = left.kind
        guard kinds.contains(kind) else { return }
        summaries[kind]!.countA += 1
        summaries[kind]!.countB += 1
        var fields: [FieldDifference]
        switch (left, right) {
        case (.project(let a), .project(let b)): fields = compare(a, b)
        case (.category(let a), .category(let b)): fields = compare(a, b)
        case (.tag(let a), .tag(let b)): fields = compare(a, b)
        case (.task(let a), .task(let b)): fields = compareTask(a, b)
        default: fields = []
        }
        guard !fields.isEmpty else { return }
        summaries[kind]!.changed += 1
        record(RecordDifference(kind: kind, id: right.id, label: right.label, change: .changed, fields: fields))
    }

    /// A task's subtasks: counted, compared by id (fields of those on both sides), links and order.
    mutating func compareSubtasks(_ a: TaskRecord, _ b: TaskRecord) -> [FieldDifference] {
        guard kinds.contains(.subtask), !ignores("subtasks", of: .task) else { return [] }
        summaries[.subtask]!.countA += a.subtasks.count
        summaries[.subtask]!.countB += b.subtasks.count
        if a.subtasks.isEmpty && b.subtasks.isEmpty { return [] }
        var fields: [FieldDifference] = []
        let inB = Dictionary(b.subtasks.map { (GraphKey($0.id), $0) }, uniquingKeysWith: { first, _ in first })
        let inA = Set(a.subtasks.map { GraphKey($0.id) })
        let removed = a.subtasks.filter { inB[GraphKey($0.id)] == nil }.map(\.id.uuidString)
        let added = b.subtasks.filter { !inA.contains(GraphKey($0.id)) }.map(\.id.uuidString)
        if !added.isEmpty || !removed.isEmpty {
            fields.append(.links("subtasks", added: added, removed: removed))
            summaries[.subtask]!.onlyInA += removed.count
            summaries[.subtask]!.onlyInB += added.count
        }
        let commonA = a.subtasks.filter { inB[GraphKey($0.id)] != nil }.map(\.id)
        let commonB = b.subtasks.filter { inA.contains(GraphKey($0.id)) }.map(\.id)
        if commonA != commonB {
            fields.append(.order("subtasks", old: commonA.map(\.uuidString), new: commonB.map(\.uuidString)))
        }
        for subtask in a.subtasks {
            guard let other = inB[GraphKey(subtask.id)] else { continue }
            let changes = compare(subtask, other)
            guard !changes.isEmpty else { continue }
            summaries[.subtask]!.changed += 1
            record(
                RecordDifference(
                    kind: .subtask, id: other.id, label: other.title, taskId: b.id, change: .changed, fields: changes))
        }
        return fields
    }
}

extension GraphItem {
    /// The kind of record (a header and generic records have none: callers take them apart first).
    var kind: StoreMapping.Kind {
        switch self {
        case .header, .project, .entity: return .project
        case .category: return .category
        case .tag: return .tag
        case .task: return .task
        }
    }

    /// The record's name or title.
    var label: String {
        switch self {
        case .header: return ""
        case .project(let record): return record.name
        case .category(let record): return record.name
        case .tag(let record): return record.name
        case .task(let record): return record.title
        case .entity(let record): return record.label
        }
    }
}
