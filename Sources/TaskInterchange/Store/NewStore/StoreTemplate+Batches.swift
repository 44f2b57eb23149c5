import CSQLite
import Foundation

/// A large model's schema, built in batches. Each `CREATE` makes SQLite scan its whole schema table and walk every
/// table it knows (to re-read the new object, and to clear its foreign-key caches when the schema cookie changes),
/// so building a schema one statement after another takes time quadratic in its size: minutes for 20,000 entities.
/// Here a connection sees only the current batch: its rows are taken out of `sqlite_schema` once its objects exist
/// (each object's b-tree stays, at its root page) and the next batch runs on a new connection. At the end every row
/// goes back in the order the plain build writes them, the file is checked with `PRAGMA integrity_check`, and the
/// entities, metadata and model cache are written. It all happens in the new store's private temporary file, which
/// is placed only when complete.
extension StoreTemplate {
    /// Objects per batch: small enough that a batch's own scans cost little, large enough that reopening is rare.
    static let batchSize = 256

    /// One `sqlite_schema` row.
    private struct SchemaRow {
        var type: String
        var name: String
        var table: String
        var rootPage: Int64
        var sql: String?
    }

    /// Builds the template's whole store (tables, indexes, triggers, rows) in the empty database at `path`.
    func createInBatches(at path: String) throws {
        var rows: [[SchemaRow]] = Array(repeating: [], count: objects.count)
        // Each index with the table it is on, so a batch holds both; triggers (and anything whose table is not
        // known) are created at the end, on the whole schema.
        var tableOf: [String: Int] = [:]
        var indexes: [Int: [Int]] = [:]
        var later: [Int] = []
        var order: [Int] = []
        for (offset, object) in objects.enumerated() where object.type == "table" {
            guard let name = Self.name(after: "CREATE TABLE ", in: object.sql) else {
                later.append(offset)
                continue
            }
            tableOf[name] = offset
            order.append(offset)
        }
        for (offset, object) in objects.enumerated() where object.type != "table" {
            if object.type == "index", let table = Self.name(after: " ON ", in: object.sql), let owner = tableOf[table]
            {
                indexes[owner, default: []].append(offset)
            } else {
                later.append(offset)
            }
        }
        var groups: [[Int]] = order.map { [$0] + (indexes[$0] ?? []) }
        var batch: [Int] = []
        while !groups.isEmpty || !batch.isEmpty {
            if let group = groups.first, batch.isEmpty || batch.count + group.count <= Self.batchSize {
                batch += group
                groups.removeFirst()
                continue
            }
            try createBatch(batch, at: path, into: &rows)
            batch = []
        }
        // Every row back, in the plain build's order (so also its rowids): the tables, then the other objects.
        let tablesFirst =
            objects.indices.filter { objects[$0].type == "table" }
            + objects.indices.filter { objects[$0].type != "table" }
        do {
            let database = try Self.schemaWriter(at: path)
            try database.inTransaction {
                let insert = try database.prepare(
                    "INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?)")
                for row in tablesFirst.lazy.flatMap({ rows[$0] }) {
                    try insert.execute([
                        .text(row.type), .text(row.name), .text(row.table), .integer(row.rootPage),
                        row.sql.map(SQLValue.text) ?? .null,
                    ])
                }
            }
        }
        let database = try Database(path: path, mode: .readWrite)
        let check = try database.rows("PRAGMA integrity_check")
        guard check.count == 1, check[0].first?.string == "ok" else {
            throw SQLiteError(
                code: SQLITE_CORRUPT,
                message: "the schema written in batches failed its check: "
                    + check.prefix(3).compactMap { $0.first?.string }.joined(separator: "; "))
        }
        try database.inTransaction {
            for offset in tablesFirst where later.contains(offset) { try objects[offset].execute(in: database) }
            try fill(database)
        }
    }

    /// Creates `batch` (object offsets) on a new connection and takes its rows out of `sqlite_schema` again.
    private func createBatch(_ batch: [Int], at path: String, into rows: inout [[SchemaRow]]) throws {
        let database = try Self.schemaWriter(at: path)
        try database.inTransaction {
            let select = try database.prepare(
                "SELECT rowid, type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE rowid > ? ORDER BY rowid")
            var last: Int64 = 0
            for offset in batch {
                try objects[offset].execute(in: database)
                select.reset()
                select.bind(last, at: 1)
                while try select.step() {
                    last = select.int64(at: 0)
                    rows[offset].append(
                        SchemaRow(
                            type: select.text(at: 1) ?? "", name: select.text(at: 2) ?? "",
                            table: select.text(at: 3) ?? "", rootPage: select.int64(at: 4), sql: select.text(at: 5)))
                }
                select.reset()
            }
            try database.execute("DELETE FROM sqlite_schema")
        }
    }

    /// A connection on the private file that may write `sqlite_schema`, without a rollback journal (a failure
    /// discards the whole file).
    private static func schemaWriter(at path: String) throws(SQLiteError) -> Database {
        let database = try Database(path: path, mode: .readWrite)
        tasks_sqlite3_disable_defensive(database.handle)
        // As Core Data makes its stores; set before the first table, and a no-op on later connections.
        try database.execute("PRAGMA auto_vacuum = 2")
        _ = try database.rows("PRAGMA journal_mode = OFF")
        try database.execute("PRAGMA synchronous = OFF")
        try database.execute("PRAGMA writable_schema = ON")
        return database
    }

    /// The plain identifier right after `marker` in `sql` (`CREATE TABLE ZTASK (`, `… ON ZTASK (ZTITLE)`), or nil.
    static func name(after marker: String, in sql: String) -> String? {
        guard let range = sql.range(of: marker, options: .caseInsensitive) else { return nil }
        let name = sql[range.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard !name.isEmpty, let next = sql[range.upperBound...].dropFirst(name.count).first,
            next == " " || next == "("
        else { return nil }
        return String(name)
    }
}
