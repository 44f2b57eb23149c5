/// Narrowing an export to a selection.
extension StoreReader {
    /// Works out the kept rows (before any index is built) and reports what an excluded subtask entity leaves out.
    func select() throws {
        let selection = try StoreSelection(requested, reader: self)
        self.selection = selection
        if selection.excluded.contains(.subtask), let subtask = resolved.kinds[.subtask],
            let column = resolved.subtaskTaskColumn
        {
            let sql =
                "SELECT count(*) FROM \(Database.quote(subtask.table)) WHERE \(subtask.entityFilter)"
                + selected(.task, column)
            let count = try database.scalar(sql)?.int64 ?? 0
            if count > 0 {
                log.add(
                    .excludedReference, entity: subtask.entity.name,
                    message: "subtasks of exported tasks, of an excluded entity; not exported", count: Int(count))
            }
        }
    }
}

extension StoreReader {
    /// Reports the rows exported only because kept records refer to them (once the indexes hold the kept rows).
    func reportBroughtAlong() {
        guard let selection else { return }
        var counts: [(entity: String?, count: Int)] = []
        for (kind, index) in indexes.sorted(by: { $0.key < $1.key }) where kind != .subtask {
            counts.append((resolved.kinds[kind]?.entity.name, index.count - (selection.rootCounts[.kind(kind)] ?? 0)))
        }
        for name in generic.names {
            let node = StoreSelection.Node.entity(name)
            counts.append((name, (selection.keys[node]?.count ?? 0) - (selection.rootCounts[node] ?? 0)))
        }
        for (entity, count) in counts where count > 0 {
            log.add(
                .broughtAlong, entity: entity,
                message: "outside the selection; exported because kept records refer to them", count: count)
        }
    }
}
