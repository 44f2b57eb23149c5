import Foundation

/// To-many relationships carried under `extra`: read ahead into memory per owner (only rows that have links cost
/// anything), then added to each owner's record as it is emitted.
extension StoreReader {
    /// Reads every carried to-many relationship, with destination keys turned into ids.
    func readLinks() throws {
        for (kind, list) in relationships.carried {
            for relationship in list {
                let sql: String
                switch relationship.storage {
                case .column:
                    continue
                case .destinationColumn(let table, let filter, let column, let order):
                    let owner = Database.quote(column)
                    sql = "SELECT \(owner), Z_PK FROM \(Database.quote(table)) WHERE \(filter) AND \(owner) IS NOT NULL ORDER BY \(owner), \(order.map { "\(Database.quote($0)), " } ?? "")Z_PK"
                case .joinTable(let direction):
                    let owner = Database.quote(direction.ownerColumn)
                    let member = Database.quote(direction.memberColumn)
                    sql = "SELECT \(owner), \(member) FROM \(Database.quote(direction.table)) WHERE \(owner) IS NOT NULL AND \(member) IS NOT NULL ORDER BY \(owner), \(direction.orderColumn.map { "\(Database.quote($0)), " } ?? "")\(member)"
                }
                let destination = indexes[relationship.declaration.destination] ?? KeyIndex([])
                let entity = resolved.kinds[kind]?.entity.name
                var byOwner: [Int64: [String]] = [:]
                let statement = try database.prepare(sql)
                while try statement.step() {
                    let owner = statement.int64(at: 0)
                    let member = statement.int64(at: 1)
                    guard let id = destination.id(of: member) else {
                        log.add(.danglingReference, entity: entity, property: relationship.property,
                                message: "link points at no \(relationship.declaration.destination.rawValue) row; not exported", example: "p\(owner)→p\(member)")
                        continue
                    }
                    byOwner[owner, default: []].append(id.uuidString)
                }
                if !relationship.declaration.ordered {
                    for owner in byOwner.keys { byOwner[owner]!.sort() }
                }
                links[kind, default: [:]][relationship.property] = byOwner
            }
        }
    }

    /// Adds the to-many relationships of the row `key` to its `extra` (and forgets them: what is left at the end
    /// belongs to no exported row).
    func addLinks(to extra: inout [String: ExtraValue]?, of kind: StoreMapping.Kind, key: Int64) {
        guard let properties = links[kind] else { return }
        for property in properties.keys {
            guard let ids = links[kind]?[property]?.removeValue(forKey: key) else { continue }
            extra = (extra ?? [:]).merging([property: .array(ids)]) { $1 }
        }
    }

    /// Links whose owner row was not exported.
    func reportUnreadLinks() {
        for (kind, properties) in links.sorted(by: { $0.key < $1.key }) {
            for (property, owners) in properties.sorted(by: { $0.key < $1.key }) where !owners.isEmpty {
                log.add(.danglingReference, entity: resolved.kinds[kind]?.entity.name, property: property,
                        message: "links from rows that are not exported (missing or not of this entity); not exported",
                        count: owners.values.reduce(0) { $0 + $1.count })
            }
        }
        links = [:]
    }
}
