import Foundation

/// What differs between two object graphs (archives or stores): per-kind counts, then each differing record by id.
///
/// Compares content, not bytes: `exportDate`, `generator` and `source` are ignored, records are matched by id, tags are
/// a set, subtasks an ordered list, dates are equal only when every bit is. Made by `GraphComparison`.
public struct GraphDiff: Sendable, Hashable, Codable {
    /// One kind's totals.
    public struct KindSummary: Sendable, Hashable, Codable {
        /// The kind (subtasks are counted inside their tasks).
        public var kind: StoreMapping.Kind
        /// Records of this kind in A.
        public var countA: Int
        /// Records of this kind in B.
        public var countB: Int
        /// Records only in A. Subtasks: those taken out of a task both sides have, and those of tasks only in A.
        public var onlyInA: Int
        /// Records only in B (with `verify`, what the store holds beyond the file: not a difference).
        public var onlyInB: Int
        /// Records in both whose content differs.
        public var changed: Int

        /// Creates a kind's totals.
        public init(kind: StoreMapping.Kind, countA: Int = 0, countB: Int = 0, onlyInA: Int = 0, onlyInB: Int = 0, changed: Int = 0) {
            self.kind = kind
            self.countA = countA
            self.countB = countB
            self.onlyInA = onlyInA
            self.onlyInB = onlyInB
            self.changed = changed
        }
    }

    /// The name of side A (a path, "stdin", or the name given with in-memory records).
    public var nameA: String
    /// The name of side B.
    public var nameB: String
    /// True when records only in B do not count as differences (`verify`: the store may hold more than the file).
    public var bMayHoldMore: Bool
    /// Kinds compared, with their totals, in kind order.
    public var kinds: [KindSummary]
    /// The first `GraphComparison.Options.detailLimit` differing records, in kind and id order.
    public var records: [RecordDifference]
    /// Every differing record, listed or not.
    public var differenceCount: Int

    /// True when nothing differs.
    public var isEqual: Bool { differenceCount == 0 }
    /// Differences counted but not listed (over the detail limit).
    public var omittedCount: Int { differenceCount - records.count }

    /// Creates a comparison result (`GraphComparison` makes them).
    public init(nameA: String, nameB: String, bMayHoldMore: Bool = false, kinds: [KindSummary] = [],
                records: [RecordDifference] = [], differenceCount: Int = 0) {
        self.nameA = nameA
        self.nameB = nameB
        self.bMayHoldMore = bMayHoldMore
        self.kinds = kinds
        self.records = records
        self.differenceCount = differenceCount
    }
}

/// A record that is on one side only, or on both with different content.
public struct RecordDifference: Sendable, Hashable, Codable {
    /// Where the record is.
    public enum Change: String, Sendable, Hashable, Codable {
        case onlyInA
        case onlyInB
        case changed
    }

    /// The record's kind.
    public var kind: StoreMapping.Kind
    /// The record's id.
    public var id: UUID
    /// Its name or title (B's when both have one), for people.
    public var label: String
    /// For a subtask, the task it belongs to.
    public var taskId: UUID?
    /// What differs.
    public var change: Change
    /// For `changed`: each field that differs, in field order.
    public var fields: [FieldDifference]

    /// Creates a record difference.
    public init(kind: StoreMapping.Kind, id: UUID, label: String, taskId: UUID? = nil, change: Change,
                fields: [FieldDifference] = []) {
        self.kind = kind
        self.id = id
        self.label = label
        self.taskId = taskId
        self.change = change
        self.fields = fields
    }
}

/// One field of a record that differs between the sides.
public struct FieldDifference: Sendable, Hashable, Codable {
    /// What kind of difference.
    public enum Change: String, Sendable, Hashable, Codable {
        /// A value (`old` → `new`; nil when absent on that side).
        case value
        /// Links of a to-many relationship added and removed (`tagIds`, `subtasks`, a relationship under `extra`).
        case links
        /// The same members of an ordered relationship in another order (`oldOrder` → `newOrder`).
        case order
    }

    /// The field: `title`, `createdAt`, `projectId`, `tagIds`, `subtasks`, or `extra.<property>`.
    public var field: String
    /// What differs.
    public var change: Change
    /// A's value (`value` changes): JSON's types, dates as lossless ISO-8601 text, ids as strings.
    public var old: ExtraValue?
    /// B's value.
    public var new: ExtraValue?
    /// Ids only B links (`links` changes).
    public var added: [String]?
    /// Ids only A links.
    public var removed: [String]?
    /// A's order of the members both sides have (`order` changes).
    public var oldOrder: [String]?
    /// B's order of them.
    public var newOrder: [String]?

    /// A value that differs.
    public static func value(_ field: String, old: ExtraValue?, new: ExtraValue?) -> FieldDifference {
        FieldDifference(field: field, change: .value, old: old, new: new)
    }

    /// Links added and removed.
    public static func links(_ field: String, added: [String], removed: [String]) -> FieldDifference {
        FieldDifference(field: field, change: .links, added: added, removed: removed)
    }

    /// The same members in another order.
    public static func order(_ field: String, old: [String], new: [String]) -> FieldDifference {
        FieldDifference(field: field, change: .order, oldOrder: old, newOrder: new)
    }
}
