import Foundation

/// The archive records a target already holds exactly — same fields, links, subtasks (in order) and `extra` — so an
/// upsert can leave their rows alone: no `Z_OPT` bump, no history entry, no page written.
public struct UnchangedRecords: Sendable, Hashable {
    /// Ids per kind. A task is listed only when its subtasks are unchanged too; its subtasks are then listed as well.
    public var ids: [StoreMapping.Kind: Set<UUID>] = [:]

    public init(ids: [StoreMapping.Kind: Set<UUID>] = [:]) {
        self.ids = ids
    }

    /// True when the record of `kind` with `id` is unchanged.
    public func contains(_ kind: StoreMapping.Kind, _ id: UUID) -> Bool {
        ids[kind]?.contains(id) ?? false
    }

    /// How many records are listed.
    public var count: Int { ids.values.reduce(0) { $0 + $1.count } }

    /// Compares `source` with `target` record by record: the archive is read here, the target on its own thread, and
    /// the two are joined in id order.
    /// - Returns: nil when the archive's records are not in id order (then nothing can be known unchanged: every
    ///   existing record is rewritten, as before).
    /// - Throws: what reading either side throws.
    public static func find(_ source: some ArchiveSource, in target: GraphSource) throws -> UnchangedRecords? {
        var finder = Finder(target: GraphComparison.Cursor(source: target, side: 1))
        defer { finder.target.channel.cancel() }
        do {
            try finder.target.advance()
            try source.stream(kinds: nil, into: &finder)
        } catch is GraphComparison.NotSorted {
            return nil
        }
        return finder.result
    }

    /// Joins the archive's records, as they are pushed, with the target's, pulled in step.
    struct Finder: ArchiveVisitor {
        var target: GraphComparison.Cursor
        var result = UnchangedRecords()
        var builder: DiffBuilder?
        var last: GraphComparison.SortKey?

        init(target: GraphComparison.Cursor) {
            self.target = target
        }

        mutating func visitHeader(_ header: ArchiveHeader) throws {
            builder = DiffBuilder(nameA: "archive", nameB: "target", options: GraphComparison.Options(detailLimit: 0),
                                  headerA: header, headerB: target.header)
        }

        /// The target's record with the same kind and id, if it has one.
        mutating func counterpart(_ key: GraphComparison.SortKey) throws -> GraphItem? {
            if let last, !(last < key) { throw GraphComparison.NotSorted(side: 0, message: "") }
            last = key
            while let current = target.key, current < key { try target.advance() }
            guard let current = target.key, !(key < current) else { return nil }
            return target.current
        }

        mutating func visitProject(_ project: ProjectRecord, index: Int) throws {
            guard case .project(let other)? = try counterpart(.init(kind: .project, id: GraphKey(project.id))) else { return }
            if builder?.compare(project, other).isEmpty == true { result.ids[.project, default: []].insert(project.id) }
        }

        mutating func visitCategory(_ category: CategoryRecord, index: Int) throws {
            guard case .category(let other)? = try counterpart(.init(kind: .category, id: GraphKey(category.id))) else { return }
            if builder?.compare(category, other).isEmpty == true { result.ids[.category, default: []].insert(category.id) }
        }

        mutating func visitTag(_ tag: TagRecord, index: Int) throws {
            guard case .tag(let other)? = try counterpart(.init(kind: .tag, id: GraphKey(tag.id))) else { return }
            if builder?.compare(tag, other).isEmpty == true { result.ids[.tag, default: []].insert(tag.id) }
        }

        mutating func visitTask(_ task: TaskRecord, index: Int) throws {
            guard case .task(let other)? = try counterpart(.init(kind: .task, id: GraphKey(task.id))), builder != nil else { return }
            let before = builder!.differenceCount
            // Subtask changes are counted by the builder, not returned with the task's own fields.
            guard builder!.compareTask(task, other).isEmpty, builder!.differenceCount == before else { return }
            result.ids[.task, default: []].insert(task.id)
            for subtask in task.subtasks { result.ids[.subtask, default: []].insert(subtask.id) }
        }

        mutating func visitIssue(_ issue: ValidationIssue) throws {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws {}
    }
}
