/// The relationships between exported entities that the interchange has no field for, and where each is stored, so
/// that they travel under `extra` as ids. One side of every pair is carried: the to-one side of a one-to-many (the
/// to-many side when it is ordered, to keep the order), the side a many-to-many join table is named after, and the
/// to-many side of a relationship without an inverse. Both sides of a one-to-one travel, each as its column holds it.
///
/// With the store's model every kind of relationship is found; without one only join tables are (a key column alone
/// does not say what it points at), and the rest stay reported as unmapped columns.
struct StoreRelationships {
    /// Where a carried relationship's links are read.
    enum Storage {
        /// A to-one key column on the owner's row, read with the row.
        case column(String)
        /// A key column on the destination's rows pointing back at the owner, with the positions of an ordered one.
        case destinationColumn(table: String, filter: String, column: String, order: String?)
        /// A many-to-many join table.
        case joinTable(StoreLocator.JoinDirection)
    }

    /// One carried relationship.
    struct Carried {
        var kind: StoreMapping.Kind
        var property: String
        var declaration: ExtraRelationship
        var storage: Storage
    }

    /// Carried relationships, by kind.
    private(set) var carried: [StoreMapping.Kind: [Carried]] = [:]
    /// Columns (by table) and join tables the carried relationships account for: not reported as left behind.
    private(set) var coveredColumns: [String: Set<String>] = [:]
    private(set) var coveredTables: Set<String> = []
    /// `Z_FOK_` columns of join tables whose both sides are ordered: only one side's order travels.
    private(set) var uncarriedOrders: [(table: String, column: String)] = []

    /// No relationships.
    init() {}

    /// Works out the carried relationships of every mapped kind; `model` (from the store's cache) finds them all.
    init(resolved: ResolvedMapping, schema given: StoreSchema, model: ObjectModel?) {
        var schema = given
        if schema.layout == nil { schema.locate(with: model) }
        let mapped = Self.mappedRelationships(resolved)
        let kinds = resolved.kinds.values.sorted { $0.kind < $1.kind }
        func kind(of entityName: String) -> StoreMapping.Kind? {
            guard let entity = schema.entity(named: entityName) else { return nil }
            return kinds.first { schema.lineage(of: $0.entity).contains(entity.number) }?.kind
        }
        guard let model else {
            for direction in schema.locator.joinDirections
            where direction.table != resolved.tagJoin?.table && carries(direction, in: schema) {
                guard
                    let owner = kinds.first(where: {
                        $0.entity.numbersIncludingSubentities.contains(direction.ownerNumber)
                    }),
                    let member = kinds.first(where: {
                        $0.entity.numbersIncludingSubentities.contains(direction.memberNumber)
                    })
                else { continue }
                let inverse = direction.inverseRelationship
                add(
                    Carried(
                        kind: owner.kind, property: direction.relationship.lowercased(),
                        declaration: ExtraRelationship(
                            destination: member.kind, toMany: true, ordered: direction.orderColumn != nil,
                            inverse: inverse),
                        storage: .joinTable(direction)))
            }
            return
        }
        for ownerKind in resolved.kinds.values.sorted(by: { $0.kind < $1.kind }) {
            guard let entity = model.entity(named: ownerKind.entity.name) else { continue }
            for (relationship, _) in model.storedRelationships(of: entity) {
                guard !mapped.contains(Self.key(ownerKind.kind, relationship.name)),
                    let destinationKind = kind(of: relationship.destination),
                    let destination = resolved.kinds[destinationKind],
                    let destinationEntity = model.entity(named: relationship.destination)
                else { continue }
                let inverse = relationship.inverse.flatMap {
                    model.relationship(named: $0, in: destinationEntity)?.relationship
                }
                if let inverse, mapped.contains(Self.key(destinationKind, inverse.name)) { continue }
                let declaration = ExtraRelationship(
                    destination: destinationKind, toMany: relationship.isToMany,
                    ordered: relationship.isToMany && relationship.isOrdered, inverse: inverse?.name)
                let placement = schema.locator.placement(of: relationship.name, in: ownerKind.entity)
                if !relationship.isToMany {
                    if let inverse, inverse.isToMany && inverse.isOrdered { continue }
                    guard let toOne = schema.locator.toOne(relationship.name, in: ownerKind.entity) else { continue }
                    // A one-to-one stores a key on both sides, filled independently: both sides travel.
                    cover(ownerKind.table, [toOne.key, toOne.entity].compactMap { $0 })
                    add(
                        Carried(
                            kind: ownerKind.kind, property: relationship.name, declaration: declaration,
                            storage: .column(toOne.key)))
                } else if let inverse, !inverse.isToMany {
                    guard relationship.isOrdered,
                        case .inverseKey(let table, let column, let entityColumn, let order)? = placement,
                        table == destination.table
                    else { continue }
                    add(
                        Carried(
                            kind: ownerKind.kind, property: relationship.name, declaration: declaration,
                            storage: .destinationColumn(
                                table: destination.table, filter: destination.entityFilter, column: column,
                                order: order)))
                    cover(destination.table, [column, order, entityColumn].compactMap { $0 })
                } else if inverse == nil, case .hiddenKey(let table, let column)? = placement,
                    table == destination.table
                {
                    add(
                        Carried(
                            kind: ownerKind.kind, property: relationship.name, declaration: declaration,
                            storage: .destinationColumn(
                                table: destination.table, filter: destination.entityFilter, column: column,
                                order: nil)))
                    cover(destination.table, [column])
                } else if let direction = schema.locator.joinDirection(
                    from: ownerKind.entity, to: destination.entity, relationship: relationship.name),
                    inverse == nil || carries(direction, in: schema)
                {
                    var declaration = declaration
                    declaration.ordered = relationship.isOrdered && direction.orderColumn != nil
                    add(
                        Carried(
                            kind: ownerKind.kind, property: relationship.name, declaration: declaration,
                            storage: .joinTable(direction)))
                }
            }
        }
    }

    /// Whether `direction` is the side of its join table that travels: the ordered side (its positions are the
    /// relationship's order), else the side the table is named after. When both sides are ordered, the named side
    /// travels and the other side's positions are reported as left behind.
    private mutating func carries(_ direction: StoreLocator.JoinDirection, in schema: StoreSchema) -> Bool {
        let (travels, lost) = Self.travels(direction, in: schema)
        if let lost { uncarriedOrders.append((direction.table, lost)) }
        return travels
    }

    /// The positions column of the other side of `direction`'s join table, when that side is ordered.
    static func otherOrderColumn(of direction: StoreLocator.JoinDirection, in schema: StoreSchema) -> String? {
        schema.locator.joinDirections.first {
            $0.table == direction.table && $0.ownerColumn == direction.memberColumn
                && $0.memberColumn == direction.ownerColumn
        }?.orderColumn
    }

    /// Whether `direction` is the side of its join table that travels, and, for the travelling side of a table
    /// whose both sides are ordered, the other side's position column (left behind).
    static func travels(_ direction: StoreLocator.JoinDirection, in schema: StoreSchema) -> (Bool, lost: String?) {
        switch (direction.orderColumn, otherOrderColumn(of: direction, in: schema)) {
        case (.some, .some(let lost)): return (direction.namesTable, direction.namesTable ? lost : nil)
        case (.some, nil): return (true, nil)
        case (nil, .some): return (false, nil)
        case (nil, nil): return (direction.namesTable, nil)
        }
    }

    /// The `source.relationships` declarations of the carried relationships.
    var declarations: [String: [String: ExtraRelationship]] {
        var result: [String: [String: ExtraRelationship]] = [:]
        for (kind, list) in carried {
            for relationship in list {
                result[kind.rawValue, default: [:]][relationship.property] = relationship.declaration
            }
        }
        return result
    }

    private mutating func add(_ relationship: Carried) {
        carried[relationship.kind, default: []].append(relationship)
        if case .joinTable(let direction) = relationship.storage { coveredTables.insert(direction.table) }
    }

    private mutating func cover(_ table: String, _ columns: [String]) {
        coveredColumns[table, default: []].formUnion(columns)
    }

    /// `kind.RELATIONSHIP` of the relationships the interchange's own fields carry (and so their inverses).
    private static func mappedRelationships(_ resolved: ResolvedMapping) -> Set<String> {
        var result: Set<String> = []
        for (kind, references) in [(StoreMapping.Kind.task, ["project", "category", "tags"]), (.subtask, ["task"])] {
            guard resolved.kinds[kind] != nil else { continue }
            for reference in references {
                if let name = resolved.mapping[kind]?.relationship(for: reference) { result.insert(key(kind, name)) }
            }
        }
        return result
    }

    private static func key(_ kind: StoreMapping.Kind, _ name: String) -> String {
        "\(kind.rawValue).\(name.uppercased())"
    }
}
