import Foundation

/// Primary keys: handed out above the root entity's `Z_MAX` and the largest key present, or kept from the archive
/// where that cannot clash with an object the store ever had; `Z_MAX` written back at the end.
extension StoreWriter {
    /// Whether rows of `table` (whose rows are `entity`'s, or its root's) keep the keys the archive gives them:
    /// when the table holds no rows and its root's `Z_MAX` is 0 — a new store, or one never filled — so no key can
    /// name an object the store had before; then the ids derived from keys come back the same. A `keepIdentity`
    /// restore (a new store, its `Z_MAX` already the source's) keeps them all. Decided at the table's first insert.
    /// - Throws: `TaskInterchangeError.invalidData` with `keepIdentity` when the table cannot keep them.
    func keepsKeys(in table: String, of entity: StoreSchema.Entity) throws -> Bool {
        if let known = rowWriting.keys.keepsKeys[table] { return known }
        let root = rootEntity(of: entity)
        let recorded =
            try database.scalar(CoreDataNames.readMaxKey, [.integer(root.number)])?.int64 ?? 0
        let rows = try database.scalar("SELECT count(*) FROM \(Database.quote(table))")?.int64 ?? 0
        let empty = !rowWriting.keys.hasStarted(table) && (configuration.keepIdentity || recorded <= 0) && rows == 0
        if configuration.keepIdentity && !empty {
            throw TaskInterchangeError(
                .invalidData,
                "\(path): \(setting: .keepIdentity) needs an empty \(table); the target already has rows there")
        }
        rowWriting.keys.keepsKeys[table] = empty
        // Every key this import writes there is new, whatever order the keys come in.
        if empty, history != nil { history?.noteAllNew(in: table) }
        return empty
    }

    /// Notes a key kept from the archive: keys handed out later go above it.
    /// - Throws: `TaskInterchangeError.invalidData` for SQLite's largest key, which leaves none above it.
    func useKept(_ key: Int64, in table: String) throws {
        try rowWriting.keys.useKept(key, in: table)
    }

    /// The next key of the entity's table: above both the root's `Z_MAX` and the largest key present (stores edited by
    /// other tools may have `Z_MAX` below it).
    func allocateKey(_ mappedKind: StoreMapping.Kind) throws -> Int64 {
        let kind = resolved.kinds[mappedKind]!
        return try allocateKey(in: kind.table, of: kind.entity)
    }

    /// The next key of `table`, whose rows are `entity`'s (or its root's): the same rule for Core Data's own entities
    /// (persistent history) as for the mapped ones.
    func allocateKey(in table: String, of entity: StoreSchema.Entity) throws -> Int64 {
        if let next = try rowWriting.keys.take(in: table) { return next }
        let root = rootEntity(of: entity)
        let recorded =
            try database.scalar(CoreDataNames.readMaxKey, [.integer(root.number)])?.int64 ?? 0
        let present = try database.scalar(CoreDataNames.largestKey(in: table))?.int64 ?? 0
        if present > recorded {
            diagnostics.warnings.append(
                "\(root.name): \(CoreDataNames.maxKeyColumn) (\(recorded)) was below the largest key in \(table) "
                    + "(\(present)); new keys start above \(present) and \(CoreDataNames.maxKeyColumn) is corrected"
            )
        }
        return try rowWriting.keys.start(table, after: max(recorded, present))
    }

    /// The archive's `maxKeys` (per source root entity) as the target's roots must have them: every target root that
    /// takes rows of a source tree — the root itself or any of its sub-entities, by name or as the model change maps
    /// them (an inheritance tree split into several roots, several merged into one, an entity renamed) — gets at least
    /// that tree's largest key, so no key the source handed out is handed out again. A tree none of whose entities
    /// the target has is named in a warning, unless the model change drops it.
    func targetMaxKeys(of source: ArchiveHeader.Source, mapping: VersionMapping?) -> [String: Int64] {
        let declarations = source.model
        var result: [String: Int64] = [:]
        for (root, key) in source.maxKeys.sorted(by: { $0.key < $1.key }) {
            let tree =
                [root]
                + declarations.keys.sorted().filter { name in
                    name != root
                        && EntityDeclaration.isEntity(name, kindOf: root, limit: declarations.count) {
                            declarations[$0]?.superentity
                        }
                }
            var reached = false
            for entity in tree {
                let target: String?
                if let map = mapping?.entities[entity] { target = map.target } else { target = entity }
                guard let target, let found = schema.entity(named: target) else { continue }
                let targetRoot = rootEntity(of: found).name
                result[targetRoot] = max(result[targetRoot] ?? 0, key)
                reached = true
            }
            // A tree the model change drops whole is reported by it, with its records' count.
            let dropped = tree.allSatisfy { mapping?.entities[$0].map { $0.target == nil } ?? false }
            if !reached, !dropped {
                diagnostics.warnings.append("$.source.maxKeys.\(root): the target has no such root entity; ignored")
            }
        }
        return result
    }

    func rootEntity(of entity: StoreSchema.Entity) -> StoreSchema.Entity {
        var current = entity
        var steps = 0
        while current.superNumber != 0, let parent = schema.entity(number: current.superNumber),
            steps < schema.entities.count
        {
            current = parent
            steps += 1
        }
        return current
    }

    /// Writes each used table's last key back to its root entity's `Z_MAX`, inside the import's transaction.
    func writeMaxKeys() throws {
        let update = try database.prepare(CoreDataNames.raiseMaxKey)
        for (table, last) in rowWriting.keys.finish() {
            guard
                let entity = schema.entities.first(where: { $0.table == table && $0.superNumber == 0 })
                    ?? schema.entities.first(where: { $0.table == table })
            else { continue }
            let root = rootEntity(of: entity)
            try update.execute([.integer(last), .integer(root.number)])
        }
    }
}
