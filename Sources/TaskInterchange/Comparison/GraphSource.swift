import Foundation

/// One side of a comparison: an archive (JSON or NDJSON), a store read through the export path, or records in memory.
public enum GraphSource: Sendable {
    /// An archive file (version 1, version 2 or NDJSON).
    case archive(path: String)
    /// An archive on standard input (read once: it cannot be re-read if it turns out not to be sorted by id).
    case standardInput
    /// A Core Data store, read as `export` reads it (the store's files are not changed); `mapping` as for export.
    case store(path: String, mapping: StoreMapping? = nil)
    /// Records already in memory, e.g. an app's export before and after its migration.
    case records(Archive, name: String = "archive")

    /// How messages and reports name this side.
    public var name: String {
        switch self {
        case .archive(let path): return path
        case .standardInput: return "stdin"
        case .store(let path, _): return path
        case .records(_, let name): return name
        }
    }

    /// True for a store.
    public var isStore: Bool {
        if case .store = self { return true }
        return false
    }

    /// Reads this side into `visitor`: header first, then records in reading order. Runs on the channel's thread,
    /// so the readers (which own a connection or a mapping) are made there.
    func produce(into visitor: inout ChannelVisitor) throws {
        switch self {
        case .archive(let path):
            try ArchiveInput(path: path).stream(kinds: nil, into: &visitor)
        case .standardInput:
            try ArchiveInput.standardInput().stream(kinds: nil, into: &visitor)
        case .store(let path, let mapping):
            let snapshot = try StoreSnapshot(path: path)
            let reader = try StoreReader(snapshot: snapshot, mapping: mapping)
            try visitor.visitHeader(ArchiveHeader(
                source: ArchiveHeader.Source(store: path, storeUUID: reader.schema.storeUUID, entities: reader.entityNames,
                                             relationships: reader.relationshipDeclarations)))
            try reader.read(into: &visitor)
            try visitor.flush()
        case .records(let archive, _):
            try archive.stream(kinds: nil, into: &visitor)
        }
    }

    /// This side read whole and sorted by id, for inputs whose records are not in id order. A store is always read in
    /// order and stays as it is.
    func sortedInMemory() throws -> GraphSource {
        var archive: Archive
        switch self {
        case .store: return self
        case .standardInput:
            throw TaskInterchangeError(.invalidData, "stdin: records are not sorted by id; save the archive to a file (or re-export it with 'tasks export', which sorts) and compare that")
        case .records(let records, _): archive = records
        case .archive(let path):
            var collector = ArchiveCollector()
            try ArchiveInput(path: path).stream(kinds: nil, into: &collector)
            if let issue = collector.issues.first(where: { $0.severity == .error }) {
                throw TaskInterchangeError(.invalidData, "\(path): \(issue.path): \(issue.code.rawValue): \(issue.message); run 'tasks validate' for every problem")
            }
            archive = collector.archive
        }
        archive.projects.sort { GraphKey($0.id) < GraphKey($1.id) }
        archive.categories.sort { GraphKey($0.id) < GraphKey($1.id) }
        archive.tags.sort { GraphKey($0.id) < GraphKey($1.id) }
        archive.tasks.sort { GraphKey($0.id) < GraphKey($1.id) }
        return .records(archive, name: name)
    }
}

/// An id as two big-endian halves, so integer order is the order `tasks export` writes records in (the uppercase
/// strings' order).
struct GraphKey: Comparable, Hashable {
    let entry: StoreIdentity.Entry

    init(_ id: UUID) { entry = StoreIdentity.Entry(id: id, key: 0) }

    static func < (lhs: GraphKey, rhs: GraphKey) -> Bool { lhs.entry < rhs.entry }
    static func == (lhs: GraphKey, rhs: GraphKey) -> Bool { lhs.entry.high == rhs.entry.high && lhs.entry.low == rhs.entry.low }
    func hash(into hasher: inout Hasher) {
        hasher.combine(entry.high)
        hasher.combine(entry.low)
    }
}
