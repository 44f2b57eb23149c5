import Foundation

/// Compares two object graphs — archives, stores, or records in memory — by id, streaming: both sides are read at once,
/// each on its own thread, and joined in id order (the order `tasks export` writes and stores are read in), so memory
/// holds a few hundred records of each side and the differences listed, whatever the graphs' size. Generic records
/// come in key order: when both sides derive their ids from one store UUID they are joined by key as they stream,
/// otherwise each side holds one entity's records at a time, sorted by id. An archive whose typed records are not in
/// id order is read whole and sorted first.
///
/// ```swift
/// let diff = try GraphComparison.compare(.archive(path: "before.json"), .store(path: "new.sqlite"))
/// if !diff.isEqual { … }
/// ```
public enum GraphComparison {
    /// How to compare.
    public struct Options: Sendable, Hashable {
        /// How many differing records to list (all are counted).
        public var detailLimit: Int
        /// `verify`: B may hold records A does not (they are counted, not differences), and only the kinds and fields
        /// A's format carries are compared (a version 1 file has no categories, subtasks, notes or due dates).
        public var bMayHoldMore: Bool
        /// Decisions replacing the inferred mapping between A's model version and B's (see `VersionMapping`), used
        /// when A is an archive and B a store read with its app's model (`GraphSource.store(path:mapping:model:)`).
        public var modelChange: ModelChangeOverrides
        /// The app's model versions in order: A's records are read through every version between A's and B's (see
        /// `VersionMapping.inferred`).
        public var modelVersions: ModelVersionOrder?
        /// The mapping an import into B used (`StoreImportResult.versionMapping`, with the duplicates it resolved),
        /// read A through instead of inferring one.
        public var versionMapping: VersionMapping?
        /// A's model version, when known apart from its `source.model` (see `VersionMapping.inferred`).
        public var sourceModel: ObjectModel?

        /// Creates options: up to `detailLimit` records listed; `bMayHoldMore` as for `verify`; `modelChange` as the
        /// mapping's; `modelVersions` the app's versions in order.
        public init(
            detailLimit: Int = 1000, bMayHoldMore: Bool = false,
            modelChange: ModelChangeOverrides = ModelChangeOverrides(), modelVersions: ModelVersionOrder? = nil
        ) {
            self.detailLimit = detailLimit
            self.bMayHoldMore = bMayHoldMore
            self.modelChange = modelChange
            self.modelVersions = modelVersions
        }
    }

    /// Compares `a` with `b`.
    /// - Throws: `TaskInterchangeError` when a side cannot be read: missing file (`.noInput`), unreadable or invalid
    ///   archive, duplicate ids, not a store (`.invalidData`), a locked store (`.busy`), I/O (`.io`).
    public static func compare(_ a: GraphSource, _ b: GraphSource, options: Options = Options()) throws -> GraphDiff {
        do {
            return try compare(a, b, options: options, byKey: true)
        } catch is KeyOrderUnavailable {
            // Generic records whose ids are not derived from their keys, or not in key order: joined by id, each
            // entity sorted in memory. Standard input cannot be read a second time.
            for side in [a, b] {
                guard case .standardInput = side.storage else { continue }
                throw TaskInterchangeError(
                    .invalidData,
                    "stdin: its generic records are not listed as exports list "
                        + "them (ids derived from their keys, in key order); save the archive to a file and compare "
                        + "that"
                )
            }
            return try compare(a, b, options: options, byKey: false)
        }
    }

    private static func compare(_ a: GraphSource, _ b: GraphSource, options: Options, byKey: Bool) throws
        -> GraphDiff
    {
        do {
            return try join(a, b, options: options, byKey: byKey)
        } catch let unsorted as NotSorted {
            // Another writer's archive, or one edited by hand: sort in memory and join again.
            let sortedA = unsorted.side == 0 ? try a.sortedInMemory(entityOrder: unsorted.entityOrder) : a
            let sortedB = unsorted.side == 1 ? try b.sortedInMemory() : b
            do {
                return try join(sortedA, sortedB, options: options, byKey: byKey)
            } catch let again as NotSorted {
                throw TaskInterchangeError(.invalidData, again.message)
            }
        }
    }

    /// Verifies that store (or archive) `target` holds what `file` holds: `compare(file, target)` with
    /// `bMayHoldMore`.
    /// - Throws: as `compare(_:_:options:)`.
    ///
    /// When `target` is a store read with its app's model and that model is another version of the file's, the
    /// file's records are compared as the target's version holds them: renamed entities and properties followed,
    /// types converted, defaults filled; what the model change dropped is counted in `GraphDiff.modelChange`, apart
    /// from the differences. With `modelVersions`, through every version between the two; with `versionMapping`
    /// (an import's), through that.
    public static func verify(
        _ file: GraphSource, against target: GraphSource, detailLimit: Int = 1000,
        modelChange: ModelChangeOverrides = ModelChangeOverrides(), modelVersions: ModelVersionOrder? = nil,
        versionMapping: VersionMapping? = nil
    ) throws -> GraphDiff {
        var options = Options(
            detailLimit: detailLimit, bMayHoldMore: true, modelChange: modelChange, modelVersions: modelVersions)
        options.versionMapping = versionMapping
        return try compare(file, target, options: options)
    }

    /// Generic records that cannot be joined by key (see `Cursor.keyedBy`).
    struct KeyOrderUnavailable: Error {}

    /// A side whose records are not in strictly increasing id order.
    struct NotSorted: Error {
        let side: Int
        let message: String
        /// The name each generic entity is joined under (a model change's target names).
        var entityOrder: [String: String] = [:]
    }

    /// The merge-join over both sides' channels.
    private static func join(_ a: GraphSource, _ b: GraphSource, options: Options, byKey: Bool) throws -> GraphDiff {
        var cursorA = Cursor(source: a, side: 0)
        defer { cursorA.channel.cancel() }
        try cursorA.readHeader()
        // `verify` asks whether the store holds what the file holds. A store the file was imported into has its own
        // store UUID, so the ids derived from its object URIs differ from the file's; derived from the file's store
        // UUID and the keys the import kept, they are the file's ids again.
        let identity = options.bMayHoldMore ? cursorA.header.source?.storeUUID : nil
        var target = b.deriving(from: identity)
        if !a.isStore, case .store(_, _, let model?) = b.storage, let declarations = cursorA.header.source?.model,
            !declarations.isEmpty
        {
            // An import's own change when given (the one it wrote through), inferred as an import infers it otherwise.
            let change: ModelChange?
            if let given = options.versionMapping {
                change = ModelChange(given)
            } else {
                var mapping = try VersionMapping.inferred(
                    from: declarations, to: model, versions: options.modelVersions, overrides: options.modelChange,
                    sourceModel: options.sourceModel)
                // Records a uniqueness constraint of the store's model made one, as the mapping's modelChange says;
                // groups it gives no policy stay apart and differ.
                if mapping.matchesAnyEntity, let archive = try a.rereadableArchive() {
                    try mapping.findDuplicates(
                        in: archive, model: model, overrides: options.modelChange, target: nil, matching: [:],
                        refusing: false)
                }
                change = ModelChange(mapping)
            }
            if let change {
                cursorA.map(by: change)
                target = target.reading(through: change)
            }
        }
        var cursorB = Cursor(source: target, side: 1)
        cursorB.identityNames = target.identityNames
        defer { cursorB.channel.cancel() }
        try cursorB.readHeader()
        // Both sides name their generic records after one store: an id is that store's UUID, the entity and the key,
        // so the key order is an id-for-id join, streamed without holding an entity (a record whose id is not so
        // derived, or out of key order, ends this join and the comparison sorts instead).
        let storeA = cursorA.header.source?.storeUUID ?? "", storeB = identity ?? cursorB.header.source?.storeUUID ?? ""
        if byKey && storeA == storeB {
            cursorA.keyedBy = storeA
            cursorB.keyedBy = storeA
        }
        try cursorA.advance()
        try cursorB.advance()
        var builder = DiffBuilder(
            nameA: a.name, nameB: b.name, options: options, headerA: cursorA.header, headerB: cursorB.header)
        while true {
            switch (cursorA.current, cursorB.current) {
            case (nil, nil):
                var result = builder.result
                result.modelChange = cursorA.change.map { _ in cursorA.tally }
                return result
            case (let left?, nil):
                builder.onlyInA(left)
                try cursorA.advance()
            case (nil, let right?):
                builder.onlyInB(right)
                try cursorB.advance()
            case (let left?, let right?):
                let keyA = cursorA.key!, keyB = cursorB.key!
                if keyA < keyB {
                    builder.onlyInA(left)
                    try cursorA.advance()
                } else if keyB < keyA {
                    builder.onlyInB(right)
                    try cursorB.advance()
                } else {
                    builder.both(left, right)
                    try cursorA.advance()
                    try cursorB.advance()
                }
            }
        }
    }

    /// The join key: section order, then id. Generic records come after the tasks, entity by entity (names in
    /// ascending order, as exports and store reads have them).
    struct SortKey: Comparable {
        let kind: RecordKind
        /// The generic record's entity; nil for typed records.
        var entity: String? = nil
        /// A generic record's key when records are joined by key (`Cursor.keyedBy`).
        var key: Int64? = nil
        let id: GraphKey

        init(kind: RecordKind, entity: String? = nil, key: Int64? = nil, id: GraphKey) {
            self.kind = kind
            self.entity = entity
            self.key = key
            self.id = id
        }

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            if lhs.kind != rhs.kind { return lhs.kind < rhs.kind }
            if lhs.entity != rhs.entity { return (lhs.entity ?? "") < (rhs.entity ?? "") }
            if let left = lhs.key, let right = rhs.key { return left < right }
            return lhs.id < rhs.id
        }
    }

    /// One side's position in its stream.
    struct Cursor {
        let channel: RecordChannel
        let name: String
        let side: Int
        private(set) var header = ArchiveHeader(format: nil, version: 0)
        private(set) var current: GraphItem?
        private(set) var key: SortKey?
        private var batch: [GraphItem] = []
        private var position = 0
        /// The current entity's generic records, sorted by id: archives and stores list them in key order, so each
        /// entity is held (one at a time) and sorted before it joins.
        private var group: [EntityRecord] = []
        private var groupPosition = 0
        /// When set, generic records are taken as they come, in key order, each checked to carry the id this store
        /// UUID derives from its key (`KeyOrderUnavailable` otherwise).
        var keyedBy: String?
        /// Entity → the name its ids derive from (a store read after a model change renamed the entity).
        var identityNames: [String: String] = [:]
        /// The model change A's generic records are read through (see `map(by:)`).
        private(set) var change: ModelChange?
        /// What the model change dropped, filled and converted so far.
        private(set) var tally = VersionMapping.Tally()

        init(source: GraphSource, side: Int) {
            name = source.name
            self.side = side
            channel = RecordChannel.start { channel in
                var visitor = ChannelVisitor(channel: channel, name: source.name)
                try source.produce(into: &visitor)
                try visitor.flush()
            }
        }

        /// The next item as the reader handed it over, nil at the end; `consume` false only looks at it.
        private mutating func raw(consume: Bool = true) throws -> GraphItem? {
            while position == batch.count {
                guard let next = try channel.take() else { return nil }
                batch = next
                position = 0
            }
            defer { if consume { position += 1 } }
            return batch[position]
        }

        /// Takes the header, which readers hand over before the first record.
        mutating func readHeader() throws {
            if case .header(let header)? = try raw(consume: false) {
                self.header = header
                position += 1
            }
        }

        /// Reads this side's generic records as the mapping's target version holds them; its header then declares
        /// them so.
        mutating func map(by change: ModelChange) {
            self.change = change
            header.source?.model = change.mapping.targetDeclarations
        }

        /// A record through the model change (nil when its entity was dropped).
        private mutating func mapped(_ record: EntityRecord) throws -> EntityRecord? {
            guard let change else { return record }
            return try change.apply(record, tally: &tally)
        }

        /// The next item, generic records of one entity in id order (or, `keyedBy`, in key order).
        private mutating func next() throws -> GraphItem? {
            while true {
                if groupPosition < group.count {
                    defer { groupPosition += 1 }
                    return .entity(group[groupPosition])
                }
                guard let item = try raw() else { return nil }
                guard case .entity(let first) = item else { return item }
                if let keyedBy {
                    let named = identityNames[first.entity] ?? first.entity
                    guard let key = first.key,
                        first.id == UUID.derived(storeUUID: keyedBy, entity: named, primaryKey: key)
                    else {
                        throw KeyOrderUnavailable()
                    }
                    guard let record = try mapped(first) else { continue }
                    return .entity(record)
                }
                var records = [first]
                while case .entity(let record)? = try raw(consume: false), record.entity == first.entity {
                    records.append(record)
                    position += 1
                }
                records = try records.compactMap { try mapped($0) }
                records.sort { GraphKey($0.id) < GraphKey($1.id) }
                group = records
                groupPosition = 0
            }
        }

        /// Moves to the next record (taking the header on the way); checks the order.
        mutating func advance() throws {
            while true {
                guard let item = try next() else {
                    current = nil
                    key = nil
                    group = []
                    return
                }
                let next: SortKey
                switch item {
                case .header(let header):
                    self.header = header
                    continue
                case .project(let record): next = SortKey(kind: .project, id: GraphKey(record.id))
                case .category(let record): next = SortKey(kind: .category, id: GraphKey(record.id))
                case .tag(let record): next = SortKey(kind: .tag, id: GraphKey(record.id))
                case .task(let record): next = SortKey(kind: .task, id: GraphKey(record.id))
                case .entity(let record):
                    next = SortKey(
                        kind: .task, entity: record.entity, key: keyedBy == nil ? nil : record.key,
                        id: GraphKey(record.id))
                }
                if let key, !(key < next) {
                    if next.key != nil { throw KeyOrderUnavailable() }
                    let what = next < key ? "is out of id order" : "appears twice"
                    let section = next.entity.map { "entities.\($0)" } ?? next.kind.sectionName
                    let type = next.entity ?? next.kind.rawValue
                    var unsorted = NotSorted(
                        side: side, message: "\(name): $.\(section): \(type) \(item.id.uuidString) \(what)")
                    if let change {
                        for (source, map) in change.mapping.entities { unsorted.entityOrder[source] = map.target }
                    }
                    throw unsorted
                }
                key = next
                current = item
                return
            }
        }
    }
}

extension GraphItem {
    /// The record's id (a header has none).
    var id: UUID {
        switch self {
        case .header: return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .project(let record): return record.id
        case .category(let record): return record.id
        case .tag(let record): return record.id
        case .task(let record): return record.id
        case .entity(let record): return record.id
        }
    }
}
