import Foundation

/// To-many relationships carried under `extra`: read ahead into memory per owner (only rows that have links cost
/// anything: 8 bytes a link), then added to each owner's record as it is emitted.
extension StoreReader {
    /// One carried to-many relationship's links, by owner key. A class, so that taking an owner's links out mutates
    /// the dictionary in place (a struct held in a dictionary would copy it on every record).
    final class LinkTable {
        let property: String
        let destination: KeyIndex
        let ordered: Bool
        /// Owner key → destination keys, in the relationship's order.
        var byOwner: [Int64: [Int64]] = [:]

        init(property: String, destination: KeyIndex, ordered: Bool) {
            self.property = property
            self.destination = destination
            self.ordered = ordered
        }
    }

    /// Reads every carried to-many relationship; links to rows that are not exported are reported and dropped.
    func readLinks() throws {
        for (kind, list) in relationships.carried.sorted(by: { $0.key < $1.key }) {
            for relationship in list {
                let sql: String
                switch relationship.storage {
                case .column:
                    continue
                case .destinationColumn(let table, let filter, let column, let order):
                    let owner = Database.quote(column)
                    sql =
                        "SELECT \(owner), \(CoreDataNames.primaryKey) FROM \(Database.quote(table)) "
                        + "WHERE \(filter) AND \(owner) IS NOT NULL\(selected(kind, column)) "
                        + "ORDER BY \(owner), \(order.map { "\(Database.quote($0)), " } ?? "")"
                        + CoreDataNames.primaryKey
                case .joinTable(let direction):
                    let owner = Database.quote(direction.ownerColumn)
                    let member = Database.quote(direction.memberColumn)
                    let order = direction.orderColumn.map { "\(Database.quote($0)), " } ?? ""
                    sql =
                        "SELECT \(owner), \(member) FROM \(Database.quote(direction.table)) "
                        + "WHERE \(owner) IS NOT NULL AND \(member) IS NOT NULL"
                        + "\(selected(kind, direction.ownerColumn)) ORDER BY \(owner), \(order)\(member)"
                }
                let table = LinkTable(
                    property: relationship.property,
                    destination: indexes[relationship.declaration.destination] ?? KeyIndex([]),
                    ordered: relationship.declaration.ordered)
                let entity = resolved.kinds[kind]?.entity.name
                let statement = try database.prepare(sql)
                while try statement.step() {
                    let owner = statement.int64(at: 0)
                    let member = statement.int64(at: 1)
                    guard statement.exactInteger(at: 0) != nil,
                        statement.exactInteger(at: 1).flatMap(table.destination.rank(of:)) != nil
                    else {
                        if isExcluded(relationship.declaration.destination) {
                            log.add(
                                .excludedReference, entity: entity, property: relationship.property,
                                message:
                                    "link points at a \(relationship.declaration.destination.rawValue) of an excluded "
                                    + "entity; not exported",
                                example: "p\(owner)→p\(member)")
                            continue
                        }
                        log.add(
                            .danglingReference, entity: entity, property: relationship.property,
                            message:
                                "link points at no \(relationship.declaration.destination.rawValue) row; not exported",
                            example: "p\(owner)→p\(member)")
                        continue
                    }
                    table.byOwner[owner, default: []].append(member)
                }
                linkTables[kind, default: []].append(table)
            }
        }
    }

    /// Adds the to-many relationships of the row `key` to its `extra` (and forgets them: what is left at the end
    /// belongs to no exported row). Unordered ones are sorted by id.
    func addLinks(to extra: inout [String: ExtraValue]?, of kind: StoreMapping.Kind, key: Int64) {
        guard let tables = linkTables[kind] else { return }
        for table in tables {
            guard let members = table.byOwner.removeValue(forKey: key) else { continue }
            // Ranks follow id order, so sorting ranks sorts ids.
            var ranks = members.compactMap(table.destination.rank(of:))
            if !table.ordered { ranks.sort() }
            extra = (extra ?? [:]).merging([
                table.property: .array(ranks.map { CanonicalUUID.string(table.destination.ids[$0]) })
            ]) { $1 }
        }
    }

    /// Links whose owner row was not exported.
    func reportUnreadLinks() {
        for (kind, tables) in linkTables.sorted(by: { $0.key < $1.key }) {
            for table in tables where !table.byOwner.isEmpty {
                log.add(
                    .danglingReference, entity: resolved.kinds[kind]?.entity.name, property: table.property,
                    message: "links from rows that are not exported (missing or not of this entity); not exported",
                    count: table.byOwner.values.reduce(0) { $0 + $1.count })
            }
        }
        linkTables = [:]
    }
}
