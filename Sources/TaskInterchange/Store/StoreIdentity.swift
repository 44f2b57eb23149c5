import Foundation

/// How rows get their exchange ids: the UUID attribute when it holds a usable, unique value; otherwise an id derived from
/// the row's object URI, so every export of the same store gives the same id.
enum StoreIdentity {
    /// Reads (Z_PK, id) for every row of a kind, recording every derived id in `log`.
    static func read(_ kind: ResolvedMapping.ResolvedKind, from database: Database, storeUUID: String,
                     log: inout FindingLog) throws -> [(key: Int64, id: UUID)] {
        let entity = kind.entity
        let idColumn = kind.columns["id"]
        let statement = try database.prepare(
            "SELECT Z_PK, \(idColumn.map(Database.quote) ?? "NULL") FROM \(Database.quote(kind.table)) WHERE \(kind.entityFilter)")
        var pairs: [(key: Int64, id: UUID)] = []
        var seen: Set<UUID> = []
        let property = idColumn.map { String($0.dropFirst()).lowercased() } ?? "id"
        while try statement.step() {
            let key = statement.int64(at: 0)
            var id: UUID?
            switch statement.columnType(at: 1) {
            case 5:  // NULL
                log.add(.derivedID, entity: entity.name, property: property,
                        message: idColumn == nil ? "the entity has no UUID attribute; ids derived from object URIs" : "NULL UUID; id derived from the object URI",
                        example: "p\(key)")
            case 4:  // BLOB
                id = statement.withBytes(at: 1) { $0.flatMap(UUID.init(bytes:)) }
                if id == nil { log.add(.invalidID, entity: entity.name, property: property, message: "UUID blob is not 16 bytes; id derived from the object URI", example: "p\(key)") }
            case 3:  // TEXT
                id = statement.text(at: 1).flatMap { UUID(uuidString: $0.trimmingCharacters(in: .whitespaces)) }
                if id == nil { log.add(.invalidID, entity: entity.name, property: property, message: "UUID text is not a UUID; id derived from the object URI", example: "p\(key)") }
            default:
                log.add(.invalidID, entity: entity.name, property: property, message: "UUID column holds a number; id derived from the object URI", example: "p\(key)")
            }
            if let found = id, !seen.insert(found).inserted {
                log.add(.duplicateID, entity: entity.name, property: property,
                        message: "UUID \(found.uuidString) is used by more than one row; later rows got ids derived from their object URIs",
                        example: "p\(key)")
                id = nil
            }
            let final = id ?? UUID.derived(storeUUID: storeUUID, entity: entity.name, primaryKey: key)
            if id == nil { seen.insert(final) }
            pairs.append((key, final))
        }
        return pairs
    }
}
