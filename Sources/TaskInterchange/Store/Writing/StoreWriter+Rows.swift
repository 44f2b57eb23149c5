import Foundation

/// A column a kind writes besides its fields: a relationship's key, its `Z<n>_` entity-number column, an ordered
/// relationship's position. Named, so each value is bound where its column is, whatever else the target has.
enum ReferenceColumn: Int, CaseIterable {
    case project, projectEntity, category, categoryEntity, task, taskEntity, position
}

/// Prepared INSERT and UPDATE statements for one kind, with every column in a fixed slot worked out once, so a row
/// costs a few binds and one step (no SQL text, dictionaries or boxed values per row).
final class RowStatements {
    /// Where each value goes in one statement.
    struct Slots {
        /// By the field's position in its record's `fields`; nil where the target has no column for it.
        let fields: [Int32?]
        /// By `ReferenceColumn.rawValue`; nil where the target has no such column.
        let references: [Int32?]
        /// By field position: whether the target may hold NULL there (the field's attribute is optional in the
        /// target's model, or the model is unknown), so a NULL the archive's store held can be written back.
        let nullable: [Bool]

        subscript(reference: ReferenceColumn) -> Int32? { references[reference.rawValue] }
    }

    let idColumn: String?
    let idIsText: Bool
    let insert: Statement
    let update: Statement
    let insertSlots: Slots
    let updateSlots: Slots
    /// The parameter of `Z_PK` in `update`.
    let updateKey: Int32
    let entityNumber: Int64

    /// - Parameters:
    ///   - fields: the kind's field names, in its record's `fields` order.
    ///   - references: the reference columns the target has.
    ///   - nullable: by field position, whether the target may hold NULL there.
    init(
        kind: ResolvedMapping.ResolvedKind, fields: [String], references: [(ReferenceColumn, String)],
        nullable: [Bool], schema: StoreSchema, database: Database
    ) throws {
        idColumn = kind.columns["id"]
        let declared =
            idColumn.flatMap { column in schema.columns(of: kind.table)?.first { $0.name == column }?.declaredType }
            ?? "BLOB"
        idIsText = declared.contains("CHAR") || declared.contains("TEXT") || declared.contains("CLOB")
        entityNumber = kind.entity.number
        let fieldColumns = fields.map { kind.columns[$0] }
        let written = fieldColumns.compactMap { $0 } + references.map(\.1)
        let leading = CoreDataNames.rowColumns + (idColumn.map { [$0] } ?? [])
        let table = Database.quote(kind.table)
        let insertColumns = (leading + written).map(Database.quote).joined(separator: ", ")
        insert = try database.prepare(
            "INSERT INTO \(table) (\(insertColumns)) VALUES "
                + "(\(Array(repeating: "?", count: leading.count + written.count).joined(separator: ", ")))"
        )
        let assignments =
            written.enumerated().map { "\(Database.quote($0.element)) = ?\($0.offset + 1)" } + [
                CoreDataNames.versionIncrement
            ]
        update = try database.prepare(
            CoreDataNames.update(table, set: assignments.joined(separator: ", "), byKey: "?\(written.count + 1)"))
        updateKey = Int32(written.count + 1)

        /// The written columns take consecutive parameters from `base`: the fields that have a column, then the
        /// references.
        func slots(from base: Int32) -> Slots {
            var next = base
            let fieldSlots = fieldColumns.map { column -> Int32? in
                guard column != nil else { return nil }
                defer { next += 1 }
                return next
            }
            var referenceSlots = [Int32?](repeating: nil, count: ReferenceColumn.allCases.count)
            for (reference, _) in references {
                referenceSlots[reference.rawValue] = next
                next += 1
            }
            return Slots(fields: fieldSlots, references: referenceSlots, nullable: nullable)
        }
        insertSlots = slots(from: Int32(leading.count + 1))
        updateSlots = slots(from: 1)
    }

    /// Inserts a row: binds the fixed columns and the id, lets `bind` fill the field and reference slots, steps.
    /// `version` is its `Z_OPT`: 1 for a new object.
    /// - Throws: `SQLiteError` (`SQLITE_CONSTRAINT_PRIMARYKEY` when `key` is taken).
    func insertRow(key: Int64, id: UUID, version: Int64 = 1, _ bind: (Statement, Slots) -> Void) throws {
        insert.bind(key, at: 1)
        insert.bind(entityNumber, at: 2)
        insert.bind(version, at: 3)
        if idColumn != nil {
            if idIsText {
                insert.bind(id.uuidString, at: 4)
            } else {
                withUnsafeBytes(of: id.uuid) { insert.bind(blob: $0, at: 4) }
            }
        }
        bind(insert, insertSlots)
        try insert.run()
    }

    /// Updates a row's fields and references and increments `Z_OPT`.
    func updateRow(key: Int64, _ bind: (Statement, Slots) -> Void) throws {
        bind(update, updateSlots)
        update.bind(key, at: updateKey)
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
