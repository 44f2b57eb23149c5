import Foundation

/// Compares two object graphs — archives, stores, or records in memory — by id, streaming: both sides are read at once,
/// each on its own thread, and joined in id order (the order `tasks export` writes and stores are read in), so memory
/// holds a few hundred records of each side and the differences listed, whatever the graphs' size. An archive whose
/// records are not in id order is read whole and sorted first.
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

        /// Creates options: up to `detailLimit` records listed; `bMayHoldMore` as for `verify`.
        public init(detailLimit: Int = 1000, bMayHoldMore: Bool = false) {
            self.detailLimit = detailLimit
            self.bMayHoldMore = bMayHoldMore
        }
    }

    /// Compares `a` with `b`.
    /// - Throws: `TaskInterchangeError` when a side cannot be read: missing file (`.noInput`), unreadable or invalid
    ///   archive, duplicate ids, not a store (`.invalidData`), a locked store (`.busy`), I/O (`.io`).
    public static func compare(_ a: GraphSource, _ b: GraphSource, options: Options = Options()) throws -> GraphDiff {
        do {
            return try join(a, b, options: options)
        } catch let unsorted as NotSorted {
            // Another writer's archive, or one edited by hand: sort in memory and join again.
            let sortedA = unsorted.side == 0 ? try a.sortedInMemory() : a
            let sortedB = unsorted.side == 1 ? try b.sortedInMemory() : b
            do {
                return try join(sortedA, sortedB, options: options)
            } catch let again as NotSorted {
                throw TaskInterchangeError(.invalidData, again.message)
            }
        }
    }

    /// Verifies that store (or archive) `target` holds what `file` holds: `compare(file, target)` with
    /// `bMayHoldMore`.
    /// - Throws: as `compare(_:_:options:)`.
    public static func verify(_ file: GraphSource, against target: GraphSource, detailLimit: Int = 1000) throws -> GraphDiff {
        try compare(file, target, options: Options(detailLimit: detailLimit, bMayHoldMore: true))
    }

    /// A side whose records are not in strictly increasing id order.
    struct NotSorted: Error {
        let side: Int
        let message: String
    }

    /// The merge-join over both sides' channels.
    private static func join(_ a: GraphSource, _ b: GraphSource, options: Options) throws -> GraphDiff {
        var cursorA = Cursor(source: a, side: 0)
        var cursorB = Cursor(source: b, side: 1)
        defer {
            cursorA.channel.cancel()
            cursorB.channel.cancel()
        }
        try cursorA.advance()
        try cursorB.advance()
        var builder = DiffBuilder(nameA: a.name, nameB: b.name, options: options, headerA: cursorA.header, headerB: cursorB.header)
        while true {
            switch (cursorA.current, cursorB.current) {
            case (nil, nil):
                return builder.result
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

    /// The join key: section order, then id.
    struct SortKey: Comparable {
        let kind: RecordKind
        let id: GraphKey

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            lhs.kind != rhs.kind ? lhs.kind < rhs.kind : lhs.id < rhs.id
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

        init(source: GraphSource, side: Int) {
            name = source.name
            self.side = side
            channel = RecordChannel.start { channel in
                var visitor = ChannelVisitor(channel: channel, name: source.name)
                try source.produce(into: &visitor)
                try visitor.flush()
            }
        }

        /// Moves to the next record (taking the header on the way); checks the order.
        mutating func advance() throws {
            while true {
                if position == batch.count {
                    guard let next = try channel.take() else {
                        current = nil
                        key = nil
                        return
                    }
                    batch = next
                    position = 0
                    continue
                }
                let item = batch[position]
                position += 1
                let next: SortKey
                switch item {
                case .header(let header):
                    self.header = header
                    continue
                case .project(let record): next = SortKey(kind: .project, id: GraphKey(record.id))
                case .category(let record): next = SortKey(kind: .category, id: GraphKey(record.id))
                case .tag(let record): next = SortKey(kind: .tag, id: GraphKey(record.id))
                case .task(let record): next = SortKey(kind: .task, id: GraphKey(record.id))
                }
                if let key, !(key < next) {
                    let what = key.kind == next.kind && key.id == next.id ? "appears twice" : "is out of id order"
                    throw NotSorted(side: side, message: "\(name): $.\(next.kind.sectionName): \(next.kind.rawValue) \(item.id.uuidString) \(what)")
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
        }
    }
}
