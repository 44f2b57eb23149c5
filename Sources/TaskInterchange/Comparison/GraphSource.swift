import Foundation

/// One side of a comparison: an archive (JSON or NDJSON), a store read through the export path, or records in memory.
public struct GraphSource: Sendable {
    enum Storage: Sendable {
        case archive(path: String)
        case standardInput
        case input(InputBox, name: String)
        case store(path: String, mapping: StoreMapping?, model: ObjectModel?)
        case records(Archive, name: String)
    }

    let storage: Storage
    /// A store's generic ids derived from this store UUID instead of its own (see `deriving(from:)`).
    var identity: String?
    /// A store's generic ids of these entities derived from another entity name (see `VersionMapping.identityNames`).
    var identityNames: [String: String] = [:]
    /// A store's relationships read from these sides of their pairs (`Entity.property`): the sides an archive of
    /// another model version carries.
    var carrying: Set<String> = []
    /// A store's externally stored values read from here instead of its own external data directory (a dry run
    /// compares a private copy of the target, whose files stay beside the target).
    var externalData: ExternalData?
    /// A store that is a private file nobody else opens (a new store before it is placed), read where it is.
    private var inPlace = false
    /// How a store read under another path is named (a new store, by the path it will appear at).
    private var label: String?

    /// An archive file (version 1, version 2 or NDJSON).
    public static func archive(path: String) -> GraphSource { GraphSource(storage: .archive(path: path)) }

    init(storage: Storage) {
        self.storage = storage
    }

    /// This side with a store's generic records (and their links) identified by `storeUUID` and their keys, as the
    /// store the file came from named them; archives are unchanged.
    func deriving(from storeUUID: String?) -> GraphSource {
        var source = self
        if isStore { source.identity = storeUUID }
        return source
    }
    /// This side, a store, read to be compared with an archive through `change`: its renamed entities' ids derived
    /// from their old names, its relationships read from the sides the archive carries.
    func reading(through change: ModelChange) -> GraphSource {
        var source = self
        source.identityNames = change.mapping.identityNames
        source.carrying = change.carriedRelationships
        return source
    }

    /// An archive on standard input (read once: it cannot be re-read if it turns out not to be sorted by id).
    public static var standardInput: GraphSource { GraphSource(storage: .standardInput) }
    /// An archive already opened (a file or stdin), e.g. the one an import just read.
    public static func input(_ input: ArchiveInput, name: String? = nil) -> GraphSource {
        GraphSource(storage: .input(InputBox(input), name: name ?? input.path ?? "stdin"))
    }
    /// Any source of an archive's records that can be read more than once (a migration's export of its backup).
    static func archive(_ source: any ArchiveSource, name: String) -> GraphSource {
        GraphSource(storage: .input(InputBox(source), name: name))
    }
    /// A Core Data store, read as `export` reads it (the store's files are not changed); `mapping` as for export;
    /// `model`, the app's model, for a store that keeps no model cache (one made from a model, or by an old framework).
    public static func store(path: String, mapping: StoreMapping? = nil, model: ObjectModel? = nil) -> GraphSource {
        GraphSource(storage: .store(path: path, mapping: mapping, model: model))
    }
    /// A new store before it appears at its path, read in its temporary file, with its staged external files.
    static func pending(_ store: PendingStore, mapping: StoreMapping?, model: ObjectModel?) -> GraphSource {
        var source = GraphSource(storage: .store(path: store.temporaryPath, mapping: mapping, model: model))
        source.inPlace = true
        source.label = store.path
        source.externalData = store.externalData
        return source
    }
    /// Records already in memory, e.g. an app's export before and after its migration.
    public static func records(_ archive: Archive, name: String = "archive") -> GraphSource {
        GraphSource(storage: .records(archive, name: name))
    }

    /// A path that starts like an SQLite database is a store; anything else an archive; `-` is stdin.
    /// - Throws: `TaskInterchangeError.noInput` when the path does not exist.
    public static func detecting(
        path: String, mapping: StoreMapping? = nil, model: ObjectModel? = nil
    ) throws -> GraphSource {
        if path == "-" { return .standardInput }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw TaskInterchangeError(
                .noInput,
                exists
                    ? "\(path): cannot be opened for reading\(isDirectory.boolValue ? " (a directory)" : "")"
                    : "\(path): no such file\(Suggestion.nearPath(to: path))")
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        return Database.startsWithHeader(header)
            ? .store(path: path, mapping: mapping, model: model) : .archive(path: path)
    }

    /// An `ArchiveInput` (or another source) handed to the reading thread. The input's bytes never change and the
    /// comparison waits for that thread to end before it returns, so the mapping outlives every use.
    final class InputBox: @unchecked Sendable {
        let input: any ArchiveSource
        init(_ input: any ArchiveSource) { self.input = input }
    }

    /// How messages and reports name this side.
    public var name: String {
        switch storage {
        case .archive(let path): return path
        case .standardInput: return "stdin"
        case .input(_, let name): return name
        case .store(let path, _, _): return label ?? path
        case .records(_, let name): return name
        }
    }

    /// True for a store.
    public var isStore: Bool {
        if case .store = storage { return true }
        return false
    }

    /// This side as an archive that can be read again, for a pass ahead of the comparison's; nil for a store and
    /// for stdin (read once).
    /// - Throws: `TaskInterchangeError` when the archive file cannot be opened.
    func rereadableArchive() throws -> (any ArchiveSource)? {
        switch storage {
        case .archive(let path): return try ArchiveInput(path: path)
        case .input(let box, _): return box.input
        case .records(let archive, _): return archive
        case .standardInput, .store: return nil
        }
    }

    /// Reads this side into `visitor`: header first, then records in reading order. Runs on the channel's thread,
    /// so the readers (which own a connection or a mapping) are made there.
    func produce(into visitor: inout ChannelVisitor) throws {
        switch storage {
        case .archive(let path):
            try ArchiveInput(path: path).stream(kinds: nil, into: &visitor)
        case .input(let box, _):
            try box.input.stream(kinds: nil, into: &visitor)
        case .standardInput:
            try ArchiveInput.standardInput().stream(kinds: nil, into: &visitor)
        case .store(let path, let mapping, let model):
            let snapshot = inPlace ? try StoreSnapshot(privateFile: path) : try StoreSnapshot(path: path)
            let reader = try StoreReader(snapshot: snapshot, mapping: mapping, model: model, carrying: carrying)
            reader.genericIdentity = identity
            reader.identityNames = identityNames
            if let externalData { reader.externalData = externalData }
            try visitor.visitHeader(
                ArchiveHeader(
                    source: ArchiveHeader.Source(
                        store: name, storeUUID: reader.schema.storeUUID, entities: reader.entityNames,
                        relationships: reader.relationshipDeclarations,
                        model: reader.entityDeclarations)))
            try reader.read(into: &visitor)
            try visitor.flush()
        case .records(let archive, _):
            try archive.stream(kinds: nil, into: &visitor)
        }
    }

    /// This side read whole and sorted by id, for inputs whose records are not in id order, generic records by the
    /// name `entityOrder` gives their entity (its own when none). A store is always read in order and stays as it is.
    func sortedInMemory(entityOrder: [String: String] = [:]) throws -> GraphSource {
        var archive: Archive
        switch storage {
        case .store: return self
        case .standardInput:
            throw TaskInterchangeError(
                .invalidData,
                "stdin: records are not sorted by id; save the archive to a file (or re-export it with \(setting: .export), "
                    + "which sorts) and compare that"
            )
        case .records(let records, _): archive = records
        case .archive, .input:
            var collector = ArchiveCollector()
            if case .input(let box, _) = storage {
                try box.input.stream(kinds: nil, into: &collector)
            } else if case .archive(let path) = storage {
                try ArchiveInput(path: path).stream(kinds: nil, into: &collector)
            }
            if let issue = collector.issues.first(where: { $0.severity == .error }) {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(name): \(issue.path): \(issue.code.rawValue): \(issue.message); run \(setting: .validate) for every "
                        + "problem"
                )
            }
            archive = collector.archive
        }
        archive.projects.sort { GraphKey($0.id) < GraphKey($1.id) }
        archive.categories.sort { GraphKey($0.id) < GraphKey($1.id) }
        archive.tags.sort { GraphKey($0.id) < GraphKey($1.id) }
        archive.tasks.sort { GraphKey($0.id) < GraphKey($1.id) }
        archive.entities.sort {
            let left = entityOrder[$0.entity] ?? $0.entity, right = entityOrder[$1.entity] ?? $1.entity
            return left != right ? left < right : GraphKey($0.id) < GraphKey($1.id)
        }
        return .records(archive, name: name)
    }
}

/// An id as two big-endian halves, so integer order is the order `tasks export` writes records in (the uppercase
/// strings' order).
struct GraphKey: Comparable, Hashable {
    let entry: StoreIdentity.Entry

    init(_ id: UUID) { entry = StoreIdentity.Entry(id: id, key: 0) }

    static func < (lhs: GraphKey, rhs: GraphKey) -> Bool { lhs.entry < rhs.entry }
    static func == (lhs: GraphKey, rhs: GraphKey) -> Bool {
        lhs.entry.high == rhs.entry.high && lhs.entry.low == rhs.entry.low
    }
    func hash(into hasher: inout Hasher) {
        hasher.combine(entry.high)
        hasher.combine(entry.low)
    }
}
