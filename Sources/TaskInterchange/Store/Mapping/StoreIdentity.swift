import Foundation

/// How rows get their exchange ids: the UUID attribute when it holds a usable, unique value; otherwise an id derived
/// from
/// the row's object URI, so every export of the same store gives the same id.
enum StoreIdentity {
    /// One row: its id as two big-endian halves (so integer order is byte order, which is also the order of the
    /// uppercase strings) and its primary key. 24 bytes, so a million rows fit in 24 MB.
    struct Entry {
        var high: UInt64
        var low: UInt64
        var key: Int64

        init(id: UUID, key: Int64) {
            (high, low) = withUnsafeBytes(of: id.uuid) { bytes in
                (
                    UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                    UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                )
            }
            self.key = key
        }

        var id: UUID {
            UUID(uuid: withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { $0.loadUnaligned(as: uuid_t.self) })
        }

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.high, lhs.low, lhs.key) < (rhs.high, rhs.low, rhs.key)
        }
    }

    /// The primary key in `column` of the statement's row. A key stored as anything but an integer is read only when
    /// it reads exactly (text `'7'`, real `7.0`: a table whose `Z_PK` is not its rowid may hold such); any other value
    /// would silently become another key (`'abc'` and NULL read as 0, `7.5` as 7).
    /// - Throws: `.invalidData` naming `table` and the value: the row cannot be named.
    static func key(_ statement: Statement, at column: Int32, table: String) throws(TaskInterchangeError) -> Int64 {
        if let key = statement.exactInteger(at: column) { return key }
        let stored: String
        switch statement.columnType(at: column) {
        case .text: stored = "the text '\((statement.text(at: column) ?? "").prefix(40))'"
        case .real: stored = "the real number \(statement.double(at: column))"
        case .null: stored = "NULL"
        case .blob, .integer: stored = "a blob"
        }
        throw damagedKey(stored + ", not an integer key", table: table)
    }

    /// A row of a damaged table that cannot be named: its key is `stored`.
    static func damagedKey(_ stored: String, table: String) -> TaskInterchangeError {
        TaskInterchangeError(
            .invalidData,
            "\(table): a row's \(CoreDataNames.primaryKey) is \(stored), so the row cannot be named (the table is damaged)"
        )
    }

    /// Reads every row of a kind, sorted by id (then key), recording every derived or repaired id in `log`.
    /// `selected` is a further condition on the rows (`AND …`), empty for all of them; `store` names the store in
    /// errors.
    static func read(
        _ kind: ResolvedMapping.ResolvedKind, from database: Database, storeUUID: String,
        log: inout FindingLog, selected: String = "", store: String
    ) throws -> [Entry] {
        let entity = kind.entity
        let idColumn = kind.columns["id"]
        let statement = try database.prepare(
            "SELECT \(CoreDataNames.primaryKey), \(idColumn.map(Database.quote) ?? "NULL") "
                + "FROM \(Database.quote(kind.table)) "
                + "WHERE \(kind.entityFilter)\(selected)"
        )
        var entries: [Entry] = []
        let property = idColumn.map(kind.property(ofColumn:)) ?? "id"
        let identity = DerivedIdentity(storeUUID: storeUUID, entity: entity.name)
        func derived(_ key: Int64) -> Entry {
            Entry(id: identity.id(of: key), key: key)
        }
        while try statement.step() {
            let key = try Self.key(statement, at: 0, table: "\(store): \(kind.table)")
            var id: UUID?
            switch statement.columnType(at: 1) {
            case .null:
                log.add(
                    .derivedID, entity: entity.name, property: property,
                    message: idColumn == nil
                        ? "the entity has no UUID attribute; ids derived from object URIs"
                        : "NULL UUID; id derived from the object URI",
                    example: "p\(key)")
            case .blob:
                id = statement.withBytes(at: 1) { $0.flatMap(UUID.init(bytes:)) }
                if id == nil {
                    log.add(
                        .invalidID, entity: entity.name, property: property,
                        message: "UUID blob is not 16 bytes; id derived from the object URI", example: "p\(key)")
                }
            case .text:
                id = statement.text(at: 1).flatMap { UUID(uuidString: $0.trimmingCharacters(in: .whitespaces)) }
                if id == nil {
                    log.add(
                        .invalidID, entity: entity.name, property: property,
                        message: "UUID text is not a UUID; id derived from the object URI", example: "p\(key)")
                }
            case .integer, .real:
                log.add(
                    .invalidID, entity: entity.name, property: property,
                    message: "UUID column holds a number; id derived from the object URI", example: "p\(key)")
            }
            entries.append(id.map { Entry(id: $0, key: key) } ?? derived(key))
        }
        sortByID(&entries)
        // Equal ids sit side by side now; the row with the lowest key keeps its UUID, later ones get derived ids.
        var repaired = false
        var index = 1
        var kept = entries.first
        while index < entries.count {
            defer { index += 1 }
            guard let previous = kept, entries[index].high == previous.high && entries[index].low == previous.low else {
                kept = entries[index]
                continue
            }
            do {
                log.add(
                    .duplicateID, entity: entity.name, property: property,
                    message:
                        "UUID \(entries[index].id.uuidString) is used by more than one row; later rows got ids derived "
                        + "from their object URIs",
                    example: "p\(entries[index].key)")
                entries[index] = derived(entries[index].key)
                repaired = true
            }
        }
        if repaired { sortByID(&entries) }
        return entries
    }

    /// Sorts by id, then key: distributed by the id's first 16 bits (even for random and name-based UUIDs), then
    /// each group sorted (0.05 s of CPU instead of 0.23 s for the 1.3 million rows of a store of 1M tasks). Ids
    /// sharing their first bits only make a group larger.
    static func sortByID(_ entries: inout [Entry]) {
        let groups = 1 << 16
        guard entries.count > groups / 16 else {
            entries.sort(by: <)
            return
        }
        var starts = [Int](repeating: 0, count: groups + 1)
        for entry in entries { starts[Int(entry.high >> 48) + 1] += 1 }
        for group in 0..<groups { starts[group + 1] += starts[group] }
        var next = starts
        var sorted = [Entry](unsafeUninitializedCapacity: entries.count) { buffer, initialized in
            for entry in entries {
                let group = Int(entry.high >> 48)
                (buffer.baseAddress! + next[group]).initialize(to: entry)
                next[group] += 1
            }
            initialized = entries.count
        }
        for group in 0..<groups where starts[group + 1] - starts[group] > 1 {
            sorted[starts[group]..<starts[group + 1]].sort(by: <)
        }
        entries = sorted
    }
}
