import Foundation

/// Relationships carried under `extra`: taken out of each record (they are not attribute values), kept with the
/// owner's key, and linked once every record has a key — a relationship may point at a record read later.
extension Importer.Pass {
    /// A relationship value waiting for its destinations to exist.
    struct PendingLink {
        var kind: StoreMapping.Kind
        var key: Destination.ObjectKey
        var property: String
        var declaration: ExtraRelationship
        var ids: [UUID]
        /// The first value that is not a canonical UUID (validation reports it first; kept for the message).
        var invalid: String?
        var record: RecordPath
        /// True for an object that existed before the import: its current links are replaced.
        var replacing: Bool
        /// True for an object skip mode left as it was: only links to objects this import inserted are added.
        var additive: Bool
    }

    /// The declarations and what waits on them.
    struct Links {
        /// The archive's `source.relationships`, from the first header.
        var declarations: [String: [String: ExtraRelationship]] = [:]
        /// Kinds that relationships point at or start from: their ID maps are kept (projects, categories and tags
        /// always are).
        var kinds: Set<StoreMapping.Kind> = []
        var taskKeys: [UUID: Destination.ObjectKey] = [:]
        var subtaskKeys: [UUID: Destination.ObjectKey] = [:]
        var pending: [PendingLink] = []
        /// Skip mode: ids this import inserted (links from objects left as they were may point only at these), and
        /// ids it left out (subtasks of a task left as it was).
        var inserted: Set<UUID> = []
        var leftOut: Set<UUID> = []

        /// True when the archive declares no relationships and no generic record points at a typed one (the common
        /// case: nothing to do per record).
        var isEmpty: Bool { declarations.isEmpty && kinds.isEmpty }

        func declares(_ kind: StoreMapping.Kind) -> Bool {
            declarations[kind.rawValue] != nil
        }
    }

    mutating func visitHeader(_ header: ArchiveHeader) throws {
        try settleLoadedKinds(header)
        noteEntities(of: header)
        guard links.declarations.isEmpty, let declared = header.source?.relationships, !declared.isEmpty else { return }
        links.declarations = declared
        for (kind, properties) in declared {
            if let kind = StoreMapping.Kind(rawValue: kind) { links.kinds.insert(kind) }
            for declaration in properties.values { links.kinds.insert(declaration.destination) }
        }
    }

    /// Removes the declared relationships from a record's `extra` and returns them; a declared relationship the
    /// record leaves out is empty (an export leaves out empty ones).
    func takeRelationships(_ extra: inout [String: ExtraValue]?, of kind: StoreMapping.Kind) -> [(
        property: String, declaration: ExtraRelationship, ids: [String]
    )] {
        guard let declared = links.declarations[kind.rawValue] else { return [] }
        var taken: [(property: String, declaration: ExtraRelationship, ids: [String])] = []
        for (property, declaration) in declared.sorted(by: { $0.key < $1.key }) {
            switch extra?.removeValue(forKey: property) {
            case .string(let id)?: taken.append((property, declaration, [id]))
            case .array(let ids)?: taken.append((property, declaration, ids))
            default: taken.append((property, declaration, []))
            }
        }
        if extra?.isEmpty == true { extra = nil }
        return taken
    }

    /// Keeps a record's relationships for `linkRelationships`, and its key when relationships point at its kind.
    mutating func keep(
        _ taken: [(property: String, declaration: ExtraRelationship, ids: [String])], of kind: StoreMapping.Kind,
        id: UUID, key: Destination.ObjectKey?, at record: RecordPath
    ) throws {
        var taken = taken
        // Links to kinds this import does not load go to the target's objects, or are dropped (in a dry run too).
        for index in taken.indices where !loaded.contains(taken[index].declaration.destination) {
            let destination = taken[index].declaration.destination
            taken[index].ids = try taken[index].ids.filter { text in
                guard let id = CanonicalUUID.parse(text) else { return true }
                return try externalKey(destination, id) != nil
            }
        }
        guard !importer.dryRun else { return }
        guard let key else {
            links.leftOut.insert(id)
            return
        }
        if kind == .task && links.kinds.contains(.task) { links.taskKeys[id] = key }
        if kind == .subtask && links.kinds.contains(.subtask) { links.subtaskKeys[id] = key }
        if placement == .inserted && importer.mode == .skip { links.inserted.insert(id) }
        // An unchanged record's links already are the archive's: nothing to write.
        if placement == .unchanged { return }
        for (property, declaration, texts) in taken {
            if placement == .skipped && !declaration.toMany {
                // A to-one of an object left as it was stays as it was.
                if !texts.isEmpty { plan.unlinked += 1 }
                continue
            }
            guard !texts.isEmpty || placement == .updated else { continue }
            var ids: [UUID] = []
            var invalid: String?
            for text in texts {
                if let id = CanonicalUUID.parse(text) { ids.append(id) } else if invalid == nil { invalid = text }
            }
            links.pending.append(
                PendingLink(
                    kind: kind, key: key, property: property, declaration: declaration, ids: ids,
                    invalid: invalid, record: record, replacing: placement == .updated,
                    additive: placement == .skipped))
        }
    }

    /// Links every relationship taken out of `extra`, now that every record has a key.
    mutating func linkRelationships() throws {
        for link in links.pending {
            let path = JSONPath.member(record: link.record, "extra", link.property)
            if let invalid = link.invalid {
                throw TaskInterchangeError(.invalidData, "\(path): \(CanonicalUUID.problem(with: invalid))")
            }
            var keys: [Destination.ObjectKey] = []
            for id in link.ids {
                if link.additive && !links.inserted.contains(id) { continue }
                guard let key = key(of: link.declaration.destination, id: id) else {
                    if links.leftOut.contains(id) {
                        plan.unlinked += 1
                        continue
                    }
                    throw TaskInterchangeError(
                        .invalidData,
                        "\(path): no \(link.declaration.destination.rawValue) with id \(id.uuidString) in the archive")
                }
                keys.append(key)
            }
            if link.additive && keys.isEmpty { continue }
            try destination.link(
                link.kind, link.key, relationship: link.property, link.declaration, to: keys, replacing: link.replacing)
        }
        links.pending = []
    }

    func key(of kind: StoreMapping.Kind, id: UUID) -> Destination.ObjectKey? {
        if !loaded.contains(kind) { return external[id] ?? nil }
        switch kind {
        case .project: return projects[UUIDKey(id)]
        case .category: return categories[UUIDKey(id)]
        case .tag: return tags[UUIDKey(id)]
        case .task: return links.taskKeys[id]
        case .subtask: return links.subtaskKeys[id]
        }
    }
}
