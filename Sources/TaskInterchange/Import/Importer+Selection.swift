import Foundation

/// Loading part of an archive (`--kinds`, `--entities`).
extension Importer.Pass {
    /// Whether records of `kind` are loaded; counts one not loaded when not.
    mutating func loads(_ kind: StoreMapping.Kind) -> Bool {
        if loaded.contains(kind) { return true }
        notLoaded(kind, 1)
        return false
    }

    mutating func notLoaded(_ kind: StoreMapping.Kind, _ count: Int) {
        guard !loaded.contains(kind), count > 0 else { return }
        plan[kind].notLoaded = (plan[kind].notLoaded ?? 0) + count
    }

    /// Settles the loaded kinds (`Importer.loadedKinds(by:)`).
    /// - Throws: `TaskInterchangeError.usage` for an entity the archive does not read from.
    mutating func settleLoadedKinds(_ header: ArchiveHeader) throws {
        guard !kindsSettled, let kinds = try importer.loadedKinds(by: header) else { return }
        kindsSettled = true
        loaded = kinds
        plan.droppedReferences = 0
        for kind in StoreMapping.Kind.allCases where !kinds.contains(kind) { plan[kind].notLoaded = 0 }
    }

    /// Whether generic records of `entity` are loaded: with `--entities`, those it names; with `--kinds` alone, none.
    func loadsEntity(_ entity: String) -> Bool {
        if let entities = importer.entities { return entities.contains(entity) }
        return importer.kinds == nil
    }

    /// The target's object for a reference to a kind this import does not load; nil (and counted as dropped) when
    /// the target has none.
    mutating func externalKey(_ kind: StoreMapping.Kind, _ id: UUID) throws -> Destination.ObjectKey? {
        let key: Destination.ObjectKey?
        if let known = external[id] {
            key = known
        } else {
            key = importer.mode == .replace ? nil : try destination.existingKey(of: kind, id: id)
            external[id] = .some(key)
        }
        if key == nil { plan.droppedReferences = (plan.droppedReferences ?? 0) + 1 }
        return key
    }
}

extension Importer {
    /// The kinds this import loads, from its `kinds` and `entities` (the latter through the archive's
    /// `source.entities`); nil when it loads every kind (neither is set).
    /// - Throws: `TaskInterchangeError.usage` for an entity the archive does not read from.
    func loadedKinds(by header: ArchiveHeader) throws(TaskInterchangeError) -> Set<StoreMapping.Kind>? {
        guard kinds != nil || entities != nil else { return nil }
        var loaded = Set(StoreMapping.Kind.allCases)
        if let selected = kinds {
            loaded = Set(selected.compactMap { StoreMapping.Kind(rawValue: $0.rawValue) })
            if selected.contains(.task) { loaded.insert(.subtask) }
        }
        if let entities {
            try Importer.checkEntities(entities, in: header)
            let read = header.source?.entities ?? [:]
            loaded = loaded.filter { read[$0.rawValue].map(entities.contains) ?? false }
            if loaded.contains(.task) { loaded.insert(.subtask) }
        }
        return loaded
    }

    /// Checks `--entities` names against the archive: each must be an entity its `source.entities` reads a kind from
    /// or its `source.model` declares.
    /// - Throws: `TaskInterchangeError.usage` naming the first unknown entity, the closest one and those it holds.
    static func checkEntities(_ entities: Set<String>, in header: ArchiveHeader) throws(TaskInterchangeError) {
        let known = (header.source?.entities ?? [:]).values.sorted() + (header.source?.model.keys.sorted() ?? [])
        for name in entities.sorted() where !known.contains(name) {
            let near = Suggestion.closest(to: name, among: known).map { "did you mean '\($0)'? " } ?? ""
            throw TaskInterchangeError(
                .usage,
                "\(setting: .importEntities): the archive has no records of an entity '\(name)' (\(near)it holds "
                    + (known.isEmpty
                        ? "no named entities; use \(setting: .importKinds)" : "\(known.joined(separator: ", "))")
                    + ")")
        }
    }
}
