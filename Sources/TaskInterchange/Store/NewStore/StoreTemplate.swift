import Foundation

/// The schema and metadata of an existing store, to create new stores an app opens without a migration: its tables,
/// indexes and triggers exactly as written, its entities (with `Z_MAX` 0), its `Z_METADATA` plist (model version
/// hashes and all) under a new store UUID, and its model cache.
public struct StoreTemplate: Sendable {
    /// One schema object, in the template's creation order.
    struct SchemaObject: Sendable {
        var type: String
        var sql: String
        /// Its name in the template store's `sqlite_master` (nil for a template made from a model).
        var name: String?

        /// Runs the statement once SQLite's parser has found it creates just this object (a store's `sqlite_master`
        /// is data: a `CREATE TABLE … AS SELECT` or a second statement there must not run).
        /// - Throws: `TaskInterchangeError.invalidData` for a statement that is not what its row says; `SQLiteError`.
        func execute(in database: Database) throws {
            let expected: Database.SchemaObjectType
            switch type {
            case "table":
                expected = sql.prefix(20).uppercased() == "CREATE VIRTUAL TABLE" ? .virtualTable : .table
            case "index": expected = .index
            case "trigger": expected = .trigger
            default:
                throw TaskInterchangeError(
                    .invalidData, "the template's \(type) \(name ?? ""): not a table, index or trigger")
            }
            do {
                try database.executeSchemaStatement(sql, type: expected, name: name)
            } catch let error as SchemaStatementError {
                throw TaskInterchangeError(
                    .invalidData, "the template's \(type) \(name ?? ""): \(error.message); no store was made")
            }
        }
    }

    var objects: [SchemaObject]
    var entities: [(number: Int64, name: String, superNumber: Int64)]
    var metadata: [UInt8]?
    var modelCache: [UInt8]?
    /// Why a template made from a model has no model cache (the part of the model it cannot archive); nil otherwise.
    package var modelCacheOmission: String?
    var versionIdentifier: Int64
    /// The model a template made from a model was built for (nil for a store's template: its model cache says).
    package var model: ObjectModel?

    /// Reads the template store (through a read-only snapshot; its files are not touched).
    /// - Throws: ``TaskInterchangeError`` when it cannot be read or is not a Core Data store.
    public init(path: String) throws(TaskInterchangeError) {
        let snapshot = try StoreSnapshot(path: path)
        let schema = try StoreSchema(reading: snapshot.database, path: path)
        do {
            let database = snapshot.database
            objects = try database.rows(
                """
                SELECT type, sql, name FROM sqlite_master \
                WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
                ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid
                """
            )
            .compactMap { row in
                guard let type = row[0].string, let sql = row[1].string, let name = row[2].string, type != "view"
                else { return nil }
                // A virtual table's shadow tables are SQLite's to make, when its own statement runs.
                if case .shadow? = schema.kind(of: name) { return nil }
                return SchemaObject(type: type, sql: sql, name: name)
            }
            entities = try database.rows(CoreDataNames.readEntities).compactMap {
                row in
                guard let number = row[0].int64, let name = row[1].string else { return nil }
                return (number, name, row[2].int64 ?? 0)
            }
            let version = CoreDataNames.metadataVersionColumn
            let metadataRow = try database.rows(
                "SELECT \(version), \(CoreDataNames.metadataPlistColumn) FROM \(CoreDataNames.metadataTable) "
                    + "ORDER BY \(version) LIMIT 1"
            ).first
            versionIdentifier = metadataRow?[0].int64 ?? 1
            if case .blob(let bytes)? = metadataRow?[1] { metadata = bytes }
            // Stores from frameworks that kept no model cache have no model cache table.
            let cache = CoreDataNames.modelCacheTable
            if objects.contains(where: { $0.type == "table" && $0.sql.contains(cache) }),
                case .blob(let bytes)? = try database.scalar(
                    "SELECT \(CoreDataNames.modelCacheColumn) FROM \(cache) LIMIT 1")
            {
                modelCache = bytes
            }
        } catch {
            throw TaskInterchangeError.sqlite(error, path: path, doing: "cannot read the template store")
        }
    }

    /// `CREATE TABLE` and `CREATE VIRTUAL TABLE` statements (run before the bulk load).
    var tables: [SchemaObject] { objects.filter { $0.type == "table" } }

    /// Writes the template into a new, empty database: its tables, its entities in `Z_PRIMARYKEY` (with `Z_MAX` 0),
    /// its `Z_METADATA` row under a new store UUID, and its model cache; the indexes and triggers
    /// (`laterStatements`) are the caller's to create, after any bulk load.
    /// - Throws: `SQLiteError` from the statements; `TaskInterchangeError.invalidData` for a statement that is not
    ///   what its `sqlite_master` row says.
    func create(in database: Database) throws {
        for table in tables { try table.execute(in: database) }
        try fill(database)
    }

    /// Writes the entities into `Z_PRIMARYKEY`, the `Z_METADATA` row and the model cache.
    func fill(_ database: Database) throws(SQLiteError) {
        let insert = try database.prepare(CoreDataNames.insertEntity)
        for entity in entities {
            try insert.execute([.integer(entity.number), .text(entity.name), .integer(entity.superNumber)])
        }
        try database.prepare(CoreDataNames.insertMetadata)
            .execute([.integer(versionIdentifier), .text(UUID().uuidString), metadata.map(SQLValue.blob) ?? .null])
        if let modelCache {
            try database.prepare(CoreDataNames.insertModelCache).execute([.blob(modelCache)])
        }
    }

    /// Indexes and triggers (created after the bulk load; triggers never fire on `tasks`' own connection).
    var laterStatements: [SchemaObject] { objects.filter { $0.type != "table" } }
}
