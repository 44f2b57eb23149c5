import Foundation

/// Linking the relationships carried under `extra`, after every record exists: found in the target's model (its model
/// cache) when it has one, else in its schema by Core Data's storage names.
extension StoreWriter {
    /// Where one relationship is stored in the target.
    enum LinkTarget {
        /// A to-one: a key column on the owner's row, plus the destination's `Z<n>_` entity column when it has one;
        /// for a one-to-one, also the inverse key column (and its entity column) on the destination's row.
        case ownerColumn(column: String, entityColumn: String?, inverse: (column: String, entityColumn: String?)?)
        /// A to-many whose inverse is a to-one (or that has no inverse): a key column on each destination row pointing
        /// back at the owner, its `Z<n>_` entity column, and `Z_FOK_` positions when ordered.
        case destinationColumn(column: String, entityColumn: String?, orderColumn: String?)
        /// A many-to-many join table.
        case joinTable(JoinTarget)
    }

    struct JoinTarget {
        var table: String
        var ownerColumn: String
        var memberColumn: String
        var orderColumn: String?
    }

    func link(
        _ kind: StoreMapping.Kind, _ key: Int64, relationship: String, _ declaration: ExtraRelationship,
        to destinations: [Int64], replacing: Bool
    ) throws {
        let cacheKey = "\(kind.rawValue).\(relationship)"
        if linkWriting.targets[cacheKey] == nil {
            linkWriting.targets[cacheKey] = .some(linkTarget(kind, relationship, declaration))
        }
        guard let owner = resolved.kinds[kind], let destination = resolved.kinds[declaration.destination],
            let target = linkWriting.targets[cacheKey] ?? nil
        else {
            diagnostics.unplacedExtras[
                "\(resolved.kinds[kind]?.entity.name ?? kind.rawValue).\(relationship)", default: 0] += 1
            return
        }
        try noteLink(
            target, of: kind, key, relationship: relationship, declaration, to: destinations, replacing: replacing)
        let ownerTable = Database.quote(owner.table)
        let destinationTable = Database.quote(destination.table)
        switch target {
        case .ownerColumn(let column, let entityColumn, let inverse):
            guard destinations.count <= 1 else {
                diagnostics.toOneOverflows["\(owner.entity.name).\(relationship)", default: 0] += 1
                return
            }
            let entity = entityAssignment(entityColumn, from: destinationTable, byKey: "?2")
            let update = try prepared(
                CoreDataNames.update(ownerTable, set: "\(Database.quote(column)) = ?2\(entity)", byKey: "?1"))
            update.bind(key, at: 1)
            update.bind(destinations.first, at: 2)
            try update.run()
            let carriedBoth =
                declaration.inverse.map {
                    archive.relationships?[declaration.destination.rawValue]?[$0] != nil
                } ?? false
            if let inverse, !carriedBoth {
                // A one-to-one keeps a key on both sides; carried from one side, both are set, and the destination's
                // previous owner (and the owner's previous destination) let go.
                let inverseEntity = inverse.entityColumn.map { ", \(Database.quote($0)) = NULL" } ?? ""
                let release = try prepared(
                    "UPDATE \(destinationTable) SET \(Database.quote(inverse.column)) = NULL\(inverseEntity) WHERE "
                        + "\(Database.quote(inverse.column)) = ?1"
                )
                release.bind(key, at: 1)
                try release.run()
                if let member = destinations.first {
                    let clearOwnEntity = entityColumn.map { ", \(Database.quote($0)) = NULL" } ?? ""
                    let previous = try prepared(
                        "UPDATE \(ownerTable) SET \(Database.quote(column)) = NULL\(clearOwnEntity) "
                            + "WHERE \(Database.quote(column)) = ?2 AND \(CoreDataNames.primaryKey) <> ?1"
                    )
                    previous.bind(key, at: 1)
                    previous.bind(member, at: 2)
                    try previous.run()
                    let setEntity = entityAssignment(inverse.entityColumn, from: ownerTable, byKey: "?1")
                    let link = try prepared(
                        CoreDataNames.update(
                            destinationTable, set: "\(Database.quote(inverse.column)) = ?1\(setEntity)", byKey: "?2"))
                    link.bind(key, at: 1)
                    link.bind(member, at: 2)
                    try link.run()
                }
            }
        case .destinationColumn(let column, let entityColumn, let orderColumn):
            if replacing {
                let clearOrder = orderColumn.map { ", \(Database.quote($0)) = NULL" } ?? ""
                let clearEntity = entityColumn.map { ", \(Database.quote($0)) = NULL" } ?? ""
                let clear = try prepared(
                    "UPDATE \(destinationTable) SET \(Database.quote(column)) = NULL\(clearEntity)\(clearOrder) WHERE "
                        + "\(Database.quote(column)) = ?1"
                )
                clear.bind(key, at: 1)
                try clear.run()
            }
            let entity = entityAssignment(entityColumn, from: ownerTable, byKey: "?1")
            let order = orderColumn.map { ", \(Database.quote($0)) = ?3" } ?? ""
            let update = try prepared(
                CoreDataNames.update(
                    destinationTable, set: "\(Database.quote(column)) = ?1\(entity)\(order)", byKey: "?2"))
            for (position, member) in destinations.enumerated() {
                update.bind(key, at: 1)
                update.bind(member, at: 2)
                // Core Data spaces ordered positions by 1024 from 2048, as for subtasks.
                if orderColumn != nil { update.bind(StoredPositions.fresh(at: position), at: 3) }
                try update.run()
            }
        case .joinTable(let join):
            if replacing {
                let unlink = try prepared(
                    "DELETE FROM \(Database.quote(join.table)) WHERE \(Database.quote(join.ownerColumn)) = ?")
                unlink.bind(key, at: 1)
                try unlink.run()
            }
            let orderName = join.orderColumn.map { ", \(Database.quote($0))" } ?? ""
            let insert = try prepared(
                "INSERT OR IGNORE INTO \(Database.quote(join.table)) "
                    + "(\(Database.quote(join.ownerColumn)), \(Database.quote(join.memberColumn))\(orderName)) "
                    + "VALUES (?, ?\(join.orderColumn == nil ? "" : ", ?"))"
            )
            for (position, member) in destinations.enumerated() {
                insert.bind(key, at: 1)
                insert.bind(member, at: 2)
                if join.orderColumn != nil { insert.bind(StoredPositions.fresh(at: position), at: 3) }
                try insert.run()
            }
        }
    }

    /// How the target stores `relationship` of `kind`. With a model cache, only the model's relationship of that name
    /// (ignoring case) whose destination is the destination kind's entity; without one, Core Data's storage names, and
    /// only key columns (INTEGER with their `<TABLE>_<COLUMN>_INDEX`), never an attribute's column. Nil when it has
    /// none.
    func linkTarget(_ kind: StoreMapping.Kind, _ relationship: String, _ declaration: ExtraRelationship) -> LinkTarget?
    {
        guard let owner = resolved.kinds[kind], let destination = resolved.kinds[declaration.destination] else {
            return nil
        }
        func keyColumn(_ name: String, in kind: ResolvedMapping.ResolvedKind) -> String? {
            schema.locator.keyColumn(of: name, in: kind.table).flatMap { kind.usedColumns.contains($0) ? nil : $0 }
        }
        func destinationColumn(_ column: String?, inverse: String?, ordered: Bool) -> LinkTarget? {
            guard let column else { return nil }
            let order = inverse.flatMap { schema.locator.orderColumn(opposite: $0, in: destination.table) }
            return .destinationColumn(
                column: column,
                entityColumn: inverse.flatMap { schema.locator.entityColumn(of: $0, in: destination.table) },
                orderColumn: ordered ? order : nil)
        }
        func joinTable(_ name: String) -> LinkTarget? {
            schema.locator.joinDirection(from: owner.entity, to: destination.entity, relationship: name).map {
                .joinTable(
                    JoinTarget(
                        table: $0.table, ownerColumn: $0.ownerColumn, memberColumn: $0.memberColumn,
                        orderColumn: $0.orderColumn))
            }
        }
        guard let model = targetModel else {
            if !declaration.toMany {
                return keyColumn(relationship, in: owner).map {
                    .ownerColumn(
                        column: $0, entityColumn: schema.locator.entityColumn(of: relationship, in: owner.table),
                        inverse: nil)
                }
            }
            return joinTable(relationship)
                ?? declaration.inverse.flatMap {
                    destinationColumn(keyColumn($0, in: destination), inverse: $0, ordered: declaration.ordered)
                }
        }
        guard let ownerEntity = model.entity(named: owner.entity.name),
            let (found, _) = model.storedRelationship(matching: relationship, in: ownerEntity),
            let target = schema.entity(named: found.destination),
            schema.lineage(of: destination.entity).contains(target.number)
        else { return nil }
        let inverse = found.inverse.flatMap { name in
            model.entity(named: found.destination).flatMap { model.relationship(named: name, in: $0)?.relationship }
        }
        if !found.isToMany {
            guard let toOne = schema.locator.toOne(found.name, in: owner.entity) else { return nil }
            let inverseColumn = inverse.flatMap { inverse -> (column: String, entityColumn: String?)? in
                guard !inverse.isToMany, let other = schema.locator.toOne(inverse.name, in: destination.entity) else {
                    return nil
                }
                return (other.key, other.entity)
            }
            return .ownerColumn(column: toOne.key, entityColumn: toOne.entity, inverse: inverseColumn)
        }
        switch schema.locator.placement(of: found.name, in: owner.entity) {
        case .inverseKey(let table, let key, let entityColumn, let order)? where table == destination.table:
            return .destinationColumn(
                column: key, entityColumn: entityColumn, orderColumn: found.isOrdered ? order : nil)
        case .hiddenKey(let table, let column)? where table == destination.table:
            return .destinationColumn(column: column, entityColumn: nil, orderColumn: nil)
        case .join?:
            return joinTable(found.name)
        default:
            return nil
        }
    }

    /// `, column = (SELECT Z_ENT … WHERE Z_PK = parameter)`: a key's companion entity column set from the row it
    /// points at; nothing when the key has none.
    private func entityAssignment(_ column: String?, from table: String, byKey parameter: String) -> String {
        guard let column else { return "" }
        let number = CoreDataNames.select(CoreDataNames.entityNumber, from: table, byKey: parameter)
        return ", \(Database.quote(column)) = (\(number))"
    }
}
