/// Where relationships live in a store, read from Core Data's storage names alone. Many-to-many join tables:
/// `Z_<n><REL>(Z_<n><INVERSE>, Z_<m><REL>[, Z_FOK_<m><REL>])`. The column named after a relationship holds that
/// relationship's destinations (its members); the other column holds the objects that own them; the table bears the
/// name of one of the pair's relationships.
extension StoreSchema {
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
        for (table, columns) in tables.sorted(by: { $0.key < $1.key }) where kind(of: table) == .join {
            let names = columns.map(\.name)
            let keys = names.filter { !$0.hasPrefix("Z_FOK_") }
            guard keys.count == 2 else { continue }
            for (owner, member) in [(keys[0], keys[1]), (keys[1], keys[0])] {
                guard let (ownerNumber, _) = StoreMapping.splitJoinColumn(owner),
                    let (memberNumber, relationship) = StoreMapping.splitJoinColumn(member)
                else { continue }
                let order = "Z_FOK_" + member.dropFirst(2)
                result.append(
                    JoinDirection(
                        table: table, ownerColumn: owner, memberColumn: member, ownerNumber: ownerNumber,
                        memberNumber: memberNumber, relationship: relationship,
                        orderColumn: names.contains(order) ? order : nil,
                        namesTable: table == "Z_\(ownerNumber)\(relationship)"))
            }
        }
        return result
    }

    /// The join table of `relationship` from `owner` to `member` entities (matched through their inheritance chains).
    func joinDirection(from owner: Entity, to member: Entity, relationship: String) -> JoinDirection? {
        if layout != nil {
            guard case .join(let direction)? = placement(of: relationship, in: owner),
                let found = joinDirection(direction, relationship: relationship),
                Set(lineage(of: member)).contains(found.memberNumber)
            else { return nil }
            return found
        }
        let ownerNumbers = Set(lineage(of: owner))
        let memberNumbers = Set(lineage(of: member))
        return joinDirections.first {
            $0.relationship == relationship.uppercased() && ownerNumbers.contains($0.ownerNumber)
                && memberNumbers.contains($0.memberNumber)
        }
    }

    /// The numbers an entity's rows may be known by in storage names: its own, its ancestors' and its sub-entities'.
    func lineage(of entity: Entity) -> [Int64] {
        var numbers = entity.numbersIncludingSubentities
        var current = entity
        while current.superNumber != 0, let parent = self.entity(number: current.superNumber),
            !numbers.contains(parent.number)
        {
            numbers.append(parent.number)
            current = parent
        }
        return numbers
    }

    /// `Z<n>_<NAME>` in `table`: the concrete entity number of the row a to-one `NAME` points at (present when the
    /// destination has sub-entities).
    func entityColumn(of name: String, in table: String) -> String? {
        columns(of: table)?.map(\.name).first { column in
            guard column.hasPrefix("Z"), column.hasSuffix("_" + name) else { return false }
            let digits = column.dropFirst().dropLast(name.count + 1)
            return !digits.isEmpty && digits.allSatisfy(\.isNumber)
        }
    }

    /// A layout's join direction with the entity numbers its key columns carry (`Z_<n>…`).
    private func joinDirection(_ direction: SchemaLayout.JoinDirection, relationship: String) -> JoinDirection? {
        guard let (ownerNumber, _) = StoreMapping.splitJoinColumn(direction.ownerColumn) else { return nil }
        let memberNumber = StoreMapping.splitJoinColumn(direction.memberColumn)?.0 ?? ownerNumber
        return JoinDirection(
            table: direction.table, ownerColumn: direction.ownerColumn, memberColumn: direction.memberColumn,
            ownerNumber: ownerNumber, memberNumber: memberNumber, relationship: relationship.uppercased(),
            orderColumn: direction.orderColumn, namesTable: direction.namesTable)
    }
}
