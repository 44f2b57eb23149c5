import Foundation

/// Prepared INSERT and UPDATE statements for one kind, with every column in a fixed slot, so a row costs a few binds
/// and one step (no SQL text, dictionaries or boxed values per row).
final class RowStatements {
    /// Kind fields other than `id`, in `Kind.fields` order → their column, when the target has one.
    let fieldColumns: [String?]
    /// Extra columns written with every row (foreign keys, entity-number columns, order columns).
    let referenceColumns: [String]
    let idColumn: String?
    let idIsText: Bool
    let insert: Statement
    let update: Statement
    /// First parameter of the field columns in `insert` (after Z_PK, Z_ENT, Z_OPT and the id).
    let insertBase: Int32
    let entityNumber: Int64

    init(kind: ResolvedMapping.ResolvedKind, referenceColumns: [String], schema: StoreSchema, database: Database) throws {
        let fields = kind.kind.fields.filter { $0 != "id" }
        fieldColumns = fields.map { kind.columns[$0] }
        self.referenceColumns = referenceColumns
        idColumn = kind.columns["id"]
        let declared = idColumn.flatMap { column in schema.columns(of: kind.table)?.first { $0.name == column }?.declaredType } ?? "BLOB"
        idIsText = declared.contains("CHAR") || declared.contains("TEXT") || declared.contains("CLOB")
        entityNumber = kind.entity.number
        let written = fieldColumns.compactMap { $0 } + referenceColumns
        let leading = ["Z_PK", "Z_ENT", "Z_OPT"] + (idColumn.map { [$0] } ?? [])
        insertBase = Int32(leading.count + 1)
        let table = Database.quote(kind.table)
        let insertColumns = (leading + written).map(Database.quote).joined(separator: ", ")
        insert = try database.prepare("INSERT INTO \(table) (\(insertColumns)) VALUES (\(Array(repeating: "?", count: leading.count + written.count).joined(separator: ", ")))")
        let assignments = written.enumerated().map { "\(Database.quote($0.element)) = ?\($0.offset + 1)" } + ["Z_OPT = coalesce(Z_OPT, 0) + 1"]
        update = try database.prepare("UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?\(written.count + 1)")
    }

    /// Parameter numbers of the field columns, in `fieldColumns` order (nil where the target has no column), for a
    /// statement whose field columns start at `base`.
    func fieldSlots(base: Int32) -> [Int32?] {
        var next = base
        return fieldColumns.map { column in
            guard column != nil else { return nil }
            defer { next += 1 }
            return next
        }
    }

    var writtenFieldCount: Int32 { Int32(fieldColumns.compactMap { $0 }.count) }

    /// Inserts a row: binds the fixed columns and the id, lets `bind` fill the field and reference slots, steps.
    func insertRow(key: Int64, id: UUID, _ bind: (Statement, [Int32?], Int32) -> Void) throws {
        insert.bind(key, at: 1)
        insert.bind(entityNumber, at: 2)
        insert.bind(Int64(1), at: 3)
        if idColumn != nil {
            if idIsText {
                insert.bind(id.uuidString, at: 4)
            } else {
                withUnsafeBytes(of: id.uuid) { insert.bind(blob: $0, at: 4) }
            }
        }
        bind(insert, fieldSlots(base: insertBase), insertBase + writtenFieldCount)
        try insert.run()
    }

    /// Updates a row's fields and references and increments `Z_OPT`.
    func updateRow(key: Int64, _ bind: (Statement, [Int32?], Int32) -> Void) throws {
        let referenceBase = 1 + writtenFieldCount
        bind(update, fieldSlots(base: 1), referenceBase)
        update.bind(key, at: referenceBase + Int32(referenceColumns.count))
        try update.run()
    }
}

extension Statement {
    /// Binds an optional value, or NULL.
    func bind(_ value: String?, at index: Int32?) {
        guard let index else { return }
        if let value { bind(value, at: index) } else { bindNull(at: index) }
    }

    func bind(_ value: Date?, at index: Int32?) {
        guard let index else { return }
        if let value { bind(value.timeIntervalSinceReferenceDate, at: index) } else { bindNull(at: index) }
    }

    func bind(_ value: Bool, at index: Int32?) {
        guard let index else { return }
        bind(Int64(value ? 1 : 0), at: index)
    }

    func bind(_ value: Int64?, at index: Int32?) {
        guard let index else { return }
        if let value { bind(value, at: index) } else { bindNull(at: index) }
    }
}
