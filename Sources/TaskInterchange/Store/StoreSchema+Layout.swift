/// Finding a property's columns. With the store's model (`locate(with:)`) every answer comes from `StoreLayout`;
/// without one (stores of frameworks that kept no model cache) a property can only be found under `Z` + its name
/// uppercased, which is what such a store's column names say and all they say.
extension StoreSchema {
    /// Computes the layout of `model` over this store; nil leaves the store located by column names alone.
    mutating func locate(with model: ObjectModel?) {
        layout = model.map { StoreLayout(model: $0, schema: self) }
    }

    /// How `entity` sees `property`: its own or an ancestor's, the exact name first, then the one name that matches
    /// ignoring case (mappings written from column names are upper- or lower-case).
    func placement(of property: String, in entity: Entity) -> SchemaLayout.Placement? {
        guard let layout else { return nil }
        let lineage = ancestors(of: entity).map(\.name)
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
    func column(of property: String, in entity: Entity) -> String? {
        guard layout != nil else {
            let column = "Z" + property.uppercased()
            return entity.table.flatMap { columns(of: $0) }?.contains { $0.name == column } == true ? column : nil
        }
        switch placement(of: property, in: entity) {
        case .attribute(_, let column, _)?: return column
        case .toOne(_, let key, _, _)?: return key
        default: return nil
        }
    }

    /// The key, entity-number and position columns of a to-one `property` of `entity`, in `entity`'s table.
    func toOne(_ property: String, in entity: Entity) -> (key: String, entity: String?, order: String?)? {
        guard layout != nil else {
            guard let table = entity.table, let key = column(of: property, in: entity) else { return nil }
            let names = Set(columns(of: table)?.map(\.name) ?? [])
            let order = "Z_FOK_" + property.uppercased()
            return (key, entityColumn(of: property.uppercased(), in: table), names.contains(order) ? order : nil)
        }
        guard case .toOne(_, let key, let entityColumn, let order)? = placement(of: property, in: entity) else {
            return nil
        }
        return (key, entityColumn, order)
    }

    /// The entity and its ancestors, nearest first.
    func ancestors(of entity: Entity) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<Int64> = []
        var current: Entity? = entity
        while let found = current, seen.insert(found.number).inserted {
            result.append(found)
            current = self.entity(number: found.superNumber)
        }
        return result
    }
}
