/// Where many-to-many relationships live. Join tables: `Z_<n><REL>(Z_<n><INVERSE>, Z_<m><REL>[, Z_FOK_<m><REL>])`.
/// The column named after a relationship holds that relationship's destinations (its members); the other column holds
/// the objects that own them; the table bears the name of one of the pair's relationships.
extension StoreLocator {
    /// One reading direction of a join table.
    struct JoinDirection: Sendable, Hashable {
        var table: String
        /// Holds the owners' keys.
        var ownerColumn: String
        /// Holds the members' keys; named `Z_<member entity number><RELATIONSHIP>`.
        var memberColumn: String
        /// The owner column's entity number.
        var ownerNumber: Int64
        /// The member column's entity number.
        var memberNumber: Int64
        /// The relationship's name as uppercased in the column.
        var relationship: String
        /// `Z_FOK_<m><REL>`: the members' positions, for an ordered relationship.
        var orderColumn: String?
        /// True when the table is named after this direction's relationship (so this side carries the pair).
        var namesTable: Bool

        /// The inverse relationship's name as its owner column spells it, lowercased (`Z_2TASKS` → `tasks`).
        var inverseRelationship: String? {
            CoreDataNames.splitJoinColumn(ownerColumn).map { $0.1.lowercased() }
        }
    }

    /// Both directions of every join table: from the layout when the store's model is known, else of every
    /// two-key-column `Z_` table other than Core Data's own, read from its column names.
    var joinDirections: [JoinDirection] {
        if let layout {
            return layout.placements.sorted { ($0.key.entity, $0.key.property) < ($1.key.entity, $1.key.property) }
                .compactMap { key, placement in
                    guard case .join(let direction) = placement else { return nil }
                    return joinDirection(direction, relationship: key.property)
                }
        }
        var result: [JoinDirection] = []
        for (table, columns) in schema.tables.sorted(by: { $0.key < $1.key }) where schema.kind(of: table) == .join {
            let names = columns.map(\.name)
            let keys = names.filter { !CoreDataNames.isOrderColumn($0) }
            guard keys.count == 2 else { continue }
            for (owner, member) in [(keys[0], keys[1]), (keys[1], keys[0])] {
                guard let (ownerNumber, _) = CoreDataNames.splitJoinColumn(owner),
                    let (memberNumber, relationship) = CoreDataNames.splitJoinColumn(member)
                else { continue }
                let order = CoreDataNames.orderColumn(ofJoinColumn: member)
                result.append(
                    JoinDirection(
                        table: table, ownerColumn: owner, memberColumn: member, ownerNumber: ownerNumber,
                        memberNumber: memberNumber, relationship: relationship,
                        orderColumn: names.contains(order) ? order : nil,
                        namesTable: table == CoreDataNames.joinName(number: ownerNumber, relationship: relationship)))
            }
        }
        return result
    }

    /// The join table of `relationship` from `owner` to `member` entities (matched through their inheritance chains).
    func joinDirection(from owner: StoreSchema.Entity, to member: StoreSchema.Entity, relationship: String)
        -> JoinDirection?
    {
        if layout != nil {
            guard case .join(let direction)? = placement(of: relationship, in: owner),
                let found = joinDirection(direction, relationship: relationship),
                Set(schema.lineage(of: member)).contains(found.memberNumber)
            else { return nil }
            return found
        }
        let ownerNumbers = Set(schema.lineage(of: owner))
        let memberNumbers = Set(schema.lineage(of: member))
        return joinDirections.first {
            $0.relationship == relationship.uppercased() && ownerNumbers.contains($0.ownerNumber)
                && memberNumbers.contains($0.memberNumber)
        }
    }

    /// Every join direction from rows of `source` (or its sub-entities) to rows of another entity, `destination` (or
    /// its sub-entities): the many-to-many relationships a mapping may name between them.
    func joinDirections(linking source: StoreSchema.Entity, to destination: StoreSchema.Entity) -> [JoinDirection] {
        guard source.name != destination.name else { return [] }
        return joinDirections.filter {
            destination.numbersIncludingSubentities.contains($0.memberNumber)
                && source.numbersIncludingSubentities.contains($0.ownerNumber)
        }
    }

    /// The join table a mapping's many-to-many `relationship` from `source` to `destination` names: the model's
    /// relationship when the store's model is known, else the join table whose column spells the name.
    func mappedJoin(from source: StoreSchema.Entity, to destination: StoreSchema.Entity, relationship: String)
        -> JoinDirection?
    {
        if layout != nil { return joinDirection(from: source, to: destination, relationship: relationship) }
        return joinDirections(linking: source, to: destination).first {
            $0.relationship.lowercased() == relationship.lowercased()
        }
    }

    /// A layout's join direction with the entity numbers its key columns carry (`Z_<n>…`).
    private func joinDirection(_ direction: SchemaLayout.JoinDirection, relationship: String) -> JoinDirection? {
        guard let (ownerNumber, _) = CoreDataNames.splitJoinColumn(direction.ownerColumn) else { return nil }
        let memberNumber = CoreDataNames.splitJoinColumn(direction.memberColumn)?.0 ?? ownerNumber
        return JoinDirection(
            table: direction.table, ownerColumn: direction.ownerColumn, memberColumn: direction.memberColumn,
            ownerNumber: ownerNumber, memberNumber: memberNumber, relationship: relationship.uppercased(),
            orderColumn: direction.orderColumn, namesTable: direction.namesTable)
    }
}
