import Foundation

@testable import TaskInterchange

/// Every entity table and join table of a store as quoted text (`quote()` of every column but `Z_OPT`), rows
/// sorted: what a restore must reproduce exactly. Core Data's own tables (`Z_PRIMARYKEY`, `Z_METADATA`,
/// `Z_MODELCACHE`) and persistent history (`A…`) are left out.
enum StoreTables {
    static func contents(of path: String) throws -> [String: [String]] {
        let database = try Database(path: path, mode: .readOnly(immutable: false))
        var result: [String: [String]] = [:]
        let tables = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        )
        .compactMap { $0[0].string }
        .filter { !["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains($0) && !$0.hasPrefix("A") }
        for table in tables {
            let columns = try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap {
                $0[0].string
            }
            .filter { $0 != "Z_OPT" }
            let select = columns.map { "quote(\(Database.quote($0)))" }.joined(separator: " || '|' || ")
            result[table] = try database.rows("SELECT \(select) FROM \(Database.quote(table))").compactMap {
                $0[0].string
            }.sorted()
        }
        return result
    }
}
