import Foundation

@testable import TaskInterchange

/// Every table of a store that holds data or an index of it, as quoted text (`quote()` of every column but `Z_OPT`),
/// rows sorted: what a restore must reproduce exactly. Entity, join and app-added tables are read as they are, a
/// virtual table (an R-tree fetch index, a full-text index) through itself with its rowid; the shadow tables SQLite
/// keeps for it, Core Data's own tables (`Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`) and persistent history are
/// left out. `sqlite_master` is listed too: its triggers, indexes and virtual tables, by statement.
enum StoreTables {
    static func contents(of path: String) throws -> [String: [String]] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        let schema = try StoreSchema(reading: database, path: path)
        var result: [String: [String]] = [:]
        for (table, kind) in schema.tableKinds {
            switch kind {
            case .system, .internalEntity, .shadow: continue
            case .entity, .join, .app, .rtreeIndex, .virtual: break
            }
            let columns = (schema.columns(of: table) ?? []).map(\.name).filter { $0 != "Z_OPT" }
            var select = columns.map { "quote(\(Database.quote($0)))" }.joined(separator: " || '|' || ")
            if case .virtual = kind { select = "quote(rowid) || '|' || " + select }
            result[table] = try database.rows("SELECT \(select) FROM \(Database.quote(table))").compactMap {
                $0[0].string
            }.sorted()
        }
        result["sqlite_master"] = try database.rows(
            """
            SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || sql FROM sqlite_master \
            WHERE type IN ('trigger', 'index') AND sql IS NOT NULL OR sql LIKE 'CREATE VIRTUAL TABLE%'
            """
        ).compactMap { $0[0].string }.sorted()
        return result
    }
}
