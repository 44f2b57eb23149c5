/// Where everything of one store lives: the table of an entity, the column of a property (a `Z<NAME>1` of a table
/// shared by an inheritance tree included), the entity-number and position columns of a to-one, join tables and their
/// direction, the property a column holds (for messages) and the index on a key column. With the store's model
/// (`StoreSchema.locate(with:)`) every answer comes from `StoreLayout`; without one (stores of frameworks that kept no
/// model cache) from Core Data's storage names (`CoreDataNames`), which is what such a store's names say and all they
/// say. Detection, mapping resolution, the reader, the writer, identity, inspection and accounting ask here.
struct StoreLocator {
    /// The store's schema, with its layout when its model is known.
    let schema: StoreSchema

    /// The computed layout, when the store's model is known.
    var layout: StoreLayout? { schema.layout }

    /// The table holding `entity`'s rows, when it exists.
    func table(of entity: StoreSchema.Entity) -> String? {
        entity.table
    }

    /// How `entity` sees `property`: its own or an ancestor's, the exact name first, then the one name that matches
    /// ignoring case (mappings written from column names are upper- or lower-case).
    func placement(of property: String, in entity: StoreSchema.Entity) -> SchemaLayout.Placement? {
        guard let layout else { return nil }
        let lineage = schema.ancestors(of: entity).map(\.name)
        for name in lineage {
            if let found = layout.placements[SchemaLayout.PropertyKey(entity: name, property: property)] {
                return found
            }
        }
        let lowered = property.lowercased()
        let matches = layout.placements.filter {
            lineage.contains($0.key.entity) && $0.key.property.lowercased() == lowered
        }
        return matches.count == 1 ? matches.first?.value : nil
    }

    /// The column of an attribute, or the key column of a to-one, as `entity` sees it; nil when the store has none.
    func column(of property: String, in entity: StoreSchema.Entity) -> String? {
        guard layout != nil else {
            let column = CoreDataNames.column(of: property)
            return entity.table.flatMap { schema.columns(of: $0) }?.contains { $0.name == column } == true
                ? column : nil
        }
        switch placement(of: property, in: entity) {
        case .attribute(_, let column, _)?: return column
        case .toOne(_, let key, _, _)?: return key
        default: return nil
        }
    }

    /// The column of attribute `property` as `entity` sees it (never a relationship's key column); nil when the store
    /// has none.
    func attributeColumn(_ property: String, of entity: StoreSchema.Entity) -> String? {
        guard layout != nil else { return column(of: property, in: entity) }
        guard case .attribute(_, let column, _)? = placement(of: property, in: entity) else { return nil }
        return column
    }

    /// The key, entity-number and position columns of a to-one `property` of `entity`, in `entity`'s table.
    func toOne(_ property: String, in entity: StoreSchema.Entity) -> (key: String, entity: String?, order: String?)? {
        guard layout != nil else {
            guard let table = entity.table, let key = column(of: property, in: entity) else { return nil }
            return (
                key, entityColumn(of: property, in: table),
                existing(CoreDataNames.orderColumn(of: property), in: table)
            )
        }
        guard case .toOne(_, let key, let entityColumn, let order)? = placement(of: property, in: entity) else {
            return nil
        }
        return (key, entityColumn, order)
    }

    /// `Z<n>_<NAME>` in `table`: the concrete entity number of the row a to-one `name` points at (present when the
    /// destination has sub-entities).
    func entityColumn(of name: String, in table: String) -> String? {
        schema.columns(of: table)?.map(\.name).first { CoreDataNames.isEntityColumn($0, of: name.uppercased()) }
    }

    /// The position column `table` keeps for the ordered to-many opposite its to-one `relationship`, when it has one.
    func orderColumn(opposite relationship: String, in table: String) -> String? {
        existing(CoreDataNames.orderColumn(of: relationship), in: table)
    }

    /// `column` when `table` has it.
    private func existing(_ column: String, in table: String) -> String? {
        schema.columns(of: table)?.contains { $0.name == column } == true ? column : nil
    }

    /// The property `table`.`column` holds, for messages: the model's name when the layout places one there, else
    /// the name the column spells, lowercased.
    func property(ofColumn column: String, in table: String) -> String {
        if let layout {
            if let (key, _) = layout.attribute(at: column, in: table) { return key.property }
            for (key, placement) in layout.placements {
                if case .toOne(table, column, _, _) = placement { return key.property }
            }
        }
        return CoreDataNames.property(ofColumn: column)
    }

    /// Whether `column` of `table` is a to-one key by the marks Core Data leaves without a model: an INTEGER column
    /// with its `<TABLE>_<COLUMN>_INDEX`.
    func isKeyColumn(_ column: StoreSchema.Column, in table: String) -> Bool {
        schema.indexes.contains(CoreDataNames.keyIndex(of: column.name, in: table)) && column.declaredType == "INTEGER"
    }

    /// The key column of a to-one `relationship` in `table`, found by its name and its key marks alone; nil when
    /// `table` has no such key column.
    func keyColumn(of relationship: String, in table: String) -> String? {
        let name = CoreDataNames.column(of: relationship)
        guard let column = schema.columns(of: table)?.first(where: { $0.name == name }), isKeyColumn(column, in: table)
        else { return nil }
        return name
    }

    /// The names of `entity`'s properties stored in its table's columns (attributes and to-one keys, its ancestors'
    /// included), lowercased: the model's names when it is known, else the names the columns spell (bookkeeping and
    /// entity-number columns left out).
    func propertyNames(of entity: StoreSchema.Entity) -> [String] {
        if let layout {
            let lineage = Set(schema.ancestors(of: entity).map(\.name))
            return layout.placements.compactMap { key, placement -> String? in
                guard lineage.contains(key.entity) else { return nil }
                switch placement {
                case .attribute, .toOne: return key.property.lowercased()
                case .inverseKey, .hiddenKey, .join: return nil
                }
            }.sorted()
        }
        guard let table = entity.table, let columns = schema.columns(of: table) else { return [] }
        return columns.map(\.name).filter(CoreDataNames.isPropertyColumn).map(CoreDataNames.property(ofColumn:))
    }
}
