import Foundation

/// External files an import leaves without a row: a value kept in `_EXTERNAL_DATA/<UUID>` that the import replaced
/// (upsert, merge) or deleted (replace, a task's removed subtasks). The names the store's rows point at are read when
/// the transaction begins and again just before it commits; a file named only before is removed once the commit has
/// succeeded, so a failed or interrupted import leaves every old file where it was.
extension StoreWriter {
    /// `(table, column)` of every attribute of the target's model that allows external storage.
    var externalColumns: [(table: String, column: String)] {
        guard let targetModel else { return [] }
        var seen: Set<String> = []
        var result: [(table: String, column: String)] = []
        for modelEntity in targetModel.entities {
            guard let entity = schema.entity(named: modelEntity.name), let table = entity.table,
                let columns = schema.columns(of: table)
            else { continue }
            for attribute in StoreExtras.attributes(of: modelEntity.name, in: targetModel)
            where StoreExtras.kind(of: attribute) == .external {
                guard let column = schema.locator.column(of: attribute.name, in: entity),
                    columns.contains(where: { $0.name == column }), seen.insert(table + "\u{0}" + column).inserted
                else { continue }
                result.append((table, column))
            }
        }
        return result
    }

    /// The external file names the store's rows point at now. Only values short enough to be a reference are read
    /// (`length` of a BLOB does not load it), so large inline values cost nothing.
    func referencedExternalFiles(in columns: [(table: String, column: String)]) throws -> Set<String> {
        var names: Set<String> = []
        for (table, column) in columns {
            let quoted = Database.quote(column)
            let select = try database.prepare(
                "SELECT \(quoted) FROM \(Database.quote(table)) WHERE typeof(\(quoted)) = 'blob' "
                    + "AND length(\(quoted)) BETWEEN 38 AND 128")
            while try select.step() {
                if case .file(let name) = ExternalData.decode(select.blob(at: 0) ?? []) { names.insert(name) }
            }
        }
        return names
    }
}
