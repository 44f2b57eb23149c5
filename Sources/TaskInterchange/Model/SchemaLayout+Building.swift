/// Building the layout from a model with the names Core Data gives a new store's tables and columns. Verified on
/// the real stores we hold (see `SchemaFixtureTests`); what none of them shows is listed in `caveats` when a model
/// uses it.
extension SchemaLayout {
    /// Lays out `model`. Never fails: what cannot be laid out with confidence is added to `caveats`, and a property
    /// that cannot be stored at all (a non-transient attribute of an undefined type) gets no column.
    /// - Parameter numbers: the entity numbers a store already gives the model's entities (its `Z_PRIMARYKEY`); the
    ///   layout of an existing store follows them. Ignored unless they number every entity of the model.
    init(model: ObjectModel, numbers: [String: Int64]? = nil) {
        // Every lookup by name goes through this dictionary: a model may have tens of thousands of entities.
        let byName = model.entitiesByName
        let names = byName.keys.sorted(by: Self.nameOrder)

        var children: [String: [String]] = [:]
        for name in names {
            if let parent = byName[name]?.superentity, byName[parent] != nil {
                children[parent, default: []].append(name)
            }
        }
        var rootOf: [String: String] = [:]
        func root(of name: String) -> String {
            var current = name
            var seen: Set<String> = []
            while let parent = byName[current]?.superentity, byName[parent] != nil, seen.insert(current).inserted {
                current = parent
            }
            return current
        }
        if let numbers, Set(numbers.keys).isSuperset(of: byName.keys) {
            entityOrder = byName.keys.sorted { numbers[$0]! < numbers[$1]! }
            for name in entityOrder {
                entityNumbers[name] = numbers[name]
                rootOf[name] = root(of: name)
            }
        } else {
            // Numbering, as `Z_PRIMARYKEY` shows it in real stores: roots in name order, each followed depth-first by
            // its sub-entities in name order.
            func number(_ name: String, root: String) {
                guard entityNumbers[name] == nil else { return }
                entityOrder.append(name)
                entityNumbers[name] = Int64(entityOrder.count)
                rootOf[name] = root
                for child in children[name] ?? [] { number(child, root: root) }
            }
            for name in names where byName[name]?.superentity.flatMap({ byName[$0] }) == nil {
                number(name, root: name)
            }
            for name in names where entityNumbers[name] == nil {
                caveats.append("\(name) is part of a superentity cycle; it is numbered and stored as a root")
                number(name, root: name)
            }
        }
        var tableOfRoot: [String: Int] = [:]
        for name in entityOrder where rootOf[name] == name {
            tableOfRoot[name] = tables.count
            tables.append(
                EntityTable(name: "Z" + name.uppercased(), root: name, hasSubentities: !(children[name] ?? []).isEmpty))
        }
        func table(of entity: String) -> Int? { rootOf[entity].flatMap { tableOfRoot[$0] } }

        // First pass, entities in Z_ENT order: own attributes, then to-one keys with their entity and order columns.
        for name in entityOrder {
            guard let entity = byName[name], let t = table(of: name) else { continue }
            for attribute in entity.attributes.sorted(by: { Self.byteOrder($0.name, $1.name) })
            where !attribute.isTransient {
                if attribute.type == .composite {
                    caveats.append(
                        """
                        \(name).\(attribute.name) is a composite attribute: its columns are \
                        named Z<COMPOSITE>_<ELEMENT> here, a guess no real store confirms
                        """
                    )
                    for (path, leaf) in Self.flattenedLeaves(of: attribute) {
                        guard let storage = Self.storage(of: leaf.type) else { continue }
                        _ = tables[t].claim("Z" + path.uppercased(), storage: storage)
                    }
                    continue
                }
                guard let storage = Self.storage(of: attribute.type) else {
                    caveats.append(
                        """
                        \(name).\(attribute.name) has attribute type \
                        \(attribute.type.rawValue), which has no column type; it gets no column
                        """
                    )
                    continue
                }
                let column = tables[t].claim("Z" + attribute.name.uppercased(), storage: storage)
                placements[PropertyKey(entity: name, property: attribute.name)] = .attribute(
                    table: tables[t].name, column: column, storage: storage)
            }
            // Order columns come after all of the entity's keys (Bookmarks_V2 and _V3 have two: ZFAVORITEFOLDER,
            // ZPARENT, Z_FOK_FAVORITEFOLDER, Z_FOK_PARENT).
            var orderColumns: [String] = []
            for relationship in entity.relationships.sorted(by: { Self.byteOrder($0.name, $1.name) })
            where !relationship.isTransient && !relationship.isToMany {
                let key = tables[t].claim("Z" + relationship.name.uppercased(), storage: .integer)
                let suffix = key.dropFirst()
                tables[t].keyColumns.append(key)
                var entityColumn: String?
                if let destination = entityNumbers[relationship.destination],
                    !(children[relationship.destination] ?? []).isEmpty
                {
                    entityColumn = "Z\(destination)_\(suffix)"
                    tables[t].append(entityColumn!, storage: .integer)
                }
                var order: String?
                if let inverse = Self.inverse(of: relationship, in: model, byName: byName),
                    inverse.relationship.isToMany,
                    inverse.relationship.isOrdered
                {
                    order = "Z_FOK_\(suffix)"
                    orderColumns.append(order!)
                }
                placements[PropertyKey(entity: name, property: relationship.name)] = .toOne(
                    table: tables[t].name, key: key, entity: entityColumn, order: order)
            }
            for column in orderColumns { tables[t].append(column, storage: .integer) }
        }

        // Second pass, entities in name order: to-many relationships — the inverse's key, hidden keys of those without
        // an inverse, join tables.
        var joined: Set<PropertyKey> = []
        for name in names {
            guard let entity = byName[name], let source = entityNumbers[name], let t = table(of: name) else { continue }
            for relationship in entity.relationships.sorted(by: { Self.byteOrder($0.name, $1.name) })
            where !relationship.isTransient && relationship.isToMany
                && !joined.contains(PropertyKey(entity: name, property: relationship.name))
            {
                let key = PropertyKey(entity: name, property: relationship.name)
                guard let destination = entityNumbers[relationship.destination],
                    let d = table(of: relationship.destination)
                else {
                    caveats.append(
                        """
                        \(name).\(relationship.name) points at \(relationship.destination), \
                        which the model lacks; it gets no storage
                        """
                    )
                    continue
                }
                guard let inverse = Self.inverse(of: relationship, in: model, byName: byName) else {
                    let column = tables[d].claim("Z\(source)\(relationship.name.uppercased())", storage: .integer)
                    tables[d].keyColumns.append(column)
                    placements[key] = .hiddenKey(table: tables[d].name, column: column)
                    continue
                }
                let inverseKey = PropertyKey(entity: inverse.declaredBy.name, property: inverse.relationship.name)
                guard inverse.relationship.isToMany else {
                    // The destination's to-one key holds it.
                    if case .toOne(let table, let column, let entityColumn, let order)? = placements[inverseKey] {
                        placements[key] = .inverseKey(table: table, key: column, entity: entityColumn, order: order)
                    }
                    continue
                }
                joined.insert(key)
                joined.insert(inverseKey)
                if inverseKey == key {
                    // A relationship that is its own inverse: the second column is REFLEXIVE (Photos' Person has
                    // three such, `Z_47MERGECANDIDATES (Z_47MERGECANDIDATES, REFLEXIVE)`).
                    let column = tables[t].reserve("Z_\(destination)\(relationship.name.uppercased())")
                    let order = relationship.isOrdered ? "Z_FOK_" + column.dropFirst(2) : nil
                    let join = JoinTable(
                        name: "Z_\(source)\(relationship.name.uppercased())", first: column, second: "REFLEXIVE",
                        orderColumns: order.map { [$0] } ?? [])
                    tables[t].joinTables.append(join)
                    placements[key] = .join(
                        JoinDirection(
                            table: join.name, ownerColumn: column, memberColumn: "REFLEXIVE", orderColumn: order,
                            inverseOrderColumn: nil, namesTable: true))
                    continue
                }
                // R names the table. Between two entities the side visited first does. On one entity no rule seen in
                // real stores fixes the choice; the relationship whose name sorts last named it in both such real
                // stores we hold.
                var (r, i) = (relationship, inverse.relationship)
                var (rKey, iKey) = (key, inverseKey)
                if inverse.declaredBy.name == name {
                    caveats.append(
                        """
                        \(name).\(relationship.name) and \(name).\(inverse.relationship.name) are \
                        a many-to-many pair on one entity: which of them names the join table is \
                        not reproducible; take the name from a template store when there is one
                        """
                    )
                    if Self.byteOrder(r.name, i.name) {
                        swap(&r, &i)
                        swap(&rKey, &iKey)
                    }
                }
                guard let first = entityNumbers[i.destination], let second = entityNumbers[r.destination],
                    let firstTable = table(of: i.destination), let secondTable = table(of: r.destination)
                else { continue }
                // Each key column is named in the generator of the table whose keys it holds.
                let firstColumn = tables[firstTable].reserve("Z_\(first)\(i.name.uppercased())")
                let secondColumn = tables[secondTable].reserve("Z_\(second)\(r.name.uppercased())")
                let firstOrder = i.isOrdered ? "Z_FOK_" + firstColumn.dropFirst(2) : nil
                let secondOrder = r.isOrdered ? "Z_FOK_" + secondColumn.dropFirst(2) : nil
                let join = JoinTable(
                    name: "Z_\(source)\(r.name.uppercased())", first: firstColumn, second: secondColumn,
                    orderColumns: [firstOrder, secondOrder].compactMap { $0 })
                tables[t].joinTables.append(join)
                placements[rKey] = .join(
                    JoinDirection(
                        table: join.name, ownerColumn: firstColumn, memberColumn: secondColumn,
                        orderColumn: secondOrder, inverseOrderColumn: firstOrder, namesTable: true))
                placements[iKey] = .join(
                    JoinDirection(
                        table: join.name, ownerColumn: secondColumn, memberColumn: firstColumn,
                        orderColumn: firstOrder, inverseOrderColumn: secondOrder, namesTable: false))
            }
        }

        // The model's own indexes, entities in Z_ENT order: uniqueness constraints, then fetch indexes.
        for name in entityOrder {
            guard let entity = byName[name], let t = table(of: name) else { continue }
            let lineage = model.ancestry(of: entity, in: byName).map(\.name)
            // The placements, not the whole layout: a copy of `self` would make the next index copy every table.
            let placed = placements
            func column(_ property: String) -> String? {
                lineage.lazy.compactMap { Self.column(of: placed[PropertyKey(entity: $0, property: property)]) }.first
            }
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                let found = constraint.compactMap(column)
                guard found.count == constraint.count else {
                    caveats.append(
                        """
                        the uniqueness constraint (\(constraint.joined(separator: ", "))) \
                        of \(name) names a property without a column; it gets no index
                        """
                    )
                    continue
                }
                tables[t].indexes.append(
                    Index(
                        name: "Z_\(name)_UNIQUE_" + constraint.joined(separator: "_"), table: tables[t].name,
                        terms: found.map { Index.Term(column: $0, ascending: true) }, isUnique: true))
            }
            for fetchIndex in entity.indexes where !fetchIndex.elements.isEmpty {
                // R-tree indexes are virtual tables, made below.
                if fetchIndex.elements.allSatisfy({ $0.kind == .rTree }) { continue }
                let isAttribute = fetchIndex.elements.map { element in
                    element.expression != nil
                        || lineage.contains { byName[$0]?.attributes.contains { $0.name == element.property } == true }
                }
                // An index on one relationship is not created: a to-one key is indexed anyway, a to-many has no column
                // (Accounts3's model has such indexes and its store none). With attributes, a to-one's key column is
                // indexed with them (Wire's `hiddenInConversation_isExpired_serverTimestamp_delivered`).
                if fetchIndex.elements.count == 1 && !isAttribute[0] { continue }
                let columns = fetchIndex.elements.map { Self.indexedColumn($0, column: column) }
                let condition = fetchIndex.partialIndexPredicate.map { Self.indexCondition($0, column: column) }
                var problem: String?
                if fetchIndex.elements.contains(where: { $0.kind != .binary }) {
                    problem = "mixes R-tree and binary elements"
                } else if let missing = zip(fetchIndex.elements, columns).first(where: { $0.1 == nil })?.0 {
                    problem =
                        "indexes \(missing.expression ?? missing.property), which has no column "
                        + "(a to-many relationship, or an expression other than SELF, entity or a property)"
                } else if let predicate = fetchIndex.partialIndexPredicate, condition == .some(nil) {
                    problem = "is partial with a predicate (\(predicate)) of a form not translated to SQL here"
                }
                if let problem {
                    caveats.append("fetch index \(fetchIndex.name) of \(name) \(problem); it is not created")
                    continue
                }
                let terms = zip(fetchIndex.elements, columns).map { element, column in
                    Index.Term(column: column!, ascending: element.ascending)
                }
                tables[t].indexes.append(
                    Index(
                        name: CoreDataNames.fetchIndexName(fetchIndex.name, of: name), table: tables[t].name,
                        terms: terms,
                        condition: condition ?? nil))
            }
            for (index, properties) in entity.rTreeIndexes {
                let columns = properties.compactMap(column)
                guard columns.count == properties.count else {
                    caveats.append(
                        """
                        the R-tree index \(index) of \(name) names a property without a column \
                        (\(properties.joined(separator: ", "))); it is not created
                        """
                    )
                    continue
                }
                rTrees.append(RTree(name: "Z_RT_\(name)_\(index)", table: tables[t].name, columns: columns))
            }
        }
        for table in tables
        where table.claimed.contains(where: { $0.storage == .uri })
            && table.claimed.contains(where: { $0.storage == .uuid })
        {
            caveats.append(
                """
                \(table.name) has URI and UUID columns: that URIs come before UUIDs in its \
                column order is unconfirmed (order carries no meaning to Core Data)
                """
            )
        }

        var tableNames: [String: String] = [:]
        for name in entityOrder { tableNames[name] = table(of: name).map { tables[$0].name } }
        let placed = self
        // Counting triggers come before the derived attributes' ones in Photos' store.
        addTriggerKeyTriggers(
            model: model, byName: byName, columns: { placed.column(PropertyKey(entity: $0, property: $1)) },
            table: { tableNames[$0] })
        addDerivedAttributeTriggers(
            model: model, byName: byName, columns: { placed.column(PropertyKey(entity: $0, property: $1)) },
            table: { tableNames[$0] })
        let modelNames = model.entities.flatMap { entity in
            [entity.name] + entity.attributes.map(\.name) + entity.relationships.map(\.name)
                + entity.fetchIndexes.map(\.name)
        }
        if let odd = modelNames.first(where: { Self.identifier($0) != $0 }) {
            caveats.append(
                "the name \(odd) is not a plain SQL identifier; Core Data's would be bare, these statements quote it")
        }
        if let foreign = modelNames.first(where: { $0.utf8.contains { $0 >= 0x80 } }) {
            caveats.append(
                """
                the name \(foreign) is not ASCII: how Core Data uppercases it \
                for its columns is unconfirmed (Swift's uppercasing is used)
                """
            )
        }
    }

    /// The column of an attribute or the key column of a to-one.
    func column(_ key: PropertyKey) -> String? {
        Self.column(of: placements[key])
    }

    /// The column of an attribute's or a to-one's placement.
    static func column(of placement: Placement?) -> String? {
        switch placement {
        case .attribute(_, let column, _)?: return column
        case .toOne(_, let column, _, _)?: return column
        default: return nil
        }
    }

    /// Case-insensitive name order, byte order between names that differ only in case: the order Core Data numbers
    /// entities in (a store of DuckDuckGo's has `SyncableSettingsMetadata` = 1 before `SyncFeatureEntity` = 2).
    static func nameOrder(_ a: String, _ b: String) -> Bool {
        let (lowerA, lowerB) = (Array(a.lowercased().utf8), Array(b.lowercased().utf8))
        return lowerA == lowerB ? byteOrder(a, b) : lowerA.lexicographicallyPrecedes(lowerB)
    }

    /// The storage of an attribute type; nil for types without a column (undefined, object ID).
    static func storage(of type: ObjectModel.AttributeType) -> Storage? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return .integer
        case .date: return .timestamp
        case .double, .float: return .float
        case .decimal: return .decimal
        case .string: return .text
        case .uri: return .uri
        case .uuid: return .uuid
        case .transformable: return .transformable
        case .binaryData: return .blob
        case .undefined, .objectID, .composite: return nil
        }
    }

    /// A composite attribute's stored leaves in element order, each with its underscore-joined path from the composite.
    private static func flattenedLeaves(of composite: ObjectModel.Attribute) -> [(
        path: String, leaf: ObjectModel.Attribute
    )] {
        composite.elements.filter { !$0.isTransient }.flatMap { element in
            element.type == .composite
                ? flattenedLeaves(of: element).map { (composite.name + "_" + $0.path, $0.leaf) }
                : [(composite.name + "_" + element.name, element)]
        }
    }

    /// The inverse of `relationship`, looked up on its destination (and the destination's ancestors).
    static func inverse(
        of relationship: ObjectModel.Relationship, in model: ObjectModel,
        byName: [String: ObjectModel.Entity]
    ) -> (relationship: ObjectModel.Relationship, declaredBy: ObjectModel.Entity)? {
        guard let name = relationship.inverse, let destination = byName[relationship.destination] else { return nil }
        return model.relationship(named: name, in: destination, byName: byName)
    }

    static func byteOrder(_ names: some Sequence<String>) -> [String] {
        names.sorted(by: byteOrder)
    }

    static func byteOrder(_ a: String, _ b: String) -> Bool {
        Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }
}
