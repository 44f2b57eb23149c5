/// The entities no interchange kind reads, as the generic `entities` section carries them — the one description of a
/// generic record: per concrete entity its stored attributes (column, model type, how values travel) and its carried
/// relationships (where their links are stored). Export reads by the source's layout; import writes by the target's.
///
/// With the store's model every property is named and typed. Without one, columns are typed by their declared type,
/// join tables still give relationships, and key and bookkeeping columns whose destination cannot be told travel as
/// raw integers under their column name (`Z_FOK_PARENT`, `ZRECIPE` as `recipe`), declared `untyped`.
struct GenericLayout {
    /// One attribute of a generic entity.
    struct Attribute {
        var property: String
        var column: String
        /// The model type's name in `source.model` (`EntityDeclaration.attributeTypes`).
        var type: String
        var value: StoreExtras.ValueKind
    }

    /// Where a carried relationship's links are stored.
    enum Storage {
        /// A to-one key column on the owner's row, with the column of the destination's entity number when the
        /// store has one; `mirror` is a one-to-one's key (and entity) column on the destination's row. Both sides of a
        /// one-to-one travel, each as its own column holds it; import sets the mirror only for an archive that
        /// carries one side.
        case column(key: String, entity: String?, mirror: (key: String, entity: String?)?)
        /// A key column on the destination's rows pointing back at the owner (with the owner's entity number column
        /// and the positions of an ordered relationship, when the store has them).
        case destinationColumn(key: String, entity: String?, order: String?)
        /// A many-to-many join table.
        case joinTable(StoreLocator.JoinDirection)
    }

    /// One carried relationship.
    struct Relationship {
        var property: String
        var declaration: EntityRelationship
        var storage: Storage
        /// The destination's table (its root entity's).
        var destinationTable: String
    }

    /// One concrete or abstract entity.
    struct Entity {
        var name: String
        var number: Int64
        var table: String
        var superentity: String?
        var isAbstract: Bool
        var attributes: [Attribute]
        var relationships: [Relationship]

        /// What `source.model` declares for it.
        var declaration: EntityDeclaration {
            EntityDeclaration(
                superentity: superentity, isAbstract: isAbstract,
                attributes: Dictionary(
                    attributes.map { ($0.property, $0.type) }, uniquingKeysWith: { first, _ in first }),
                relationships: Dictionary(
                    relationships.map { ($0.property, $0.declaration) }, uniquingKeysWith: { first, _ in first }),
                externalStorage: Set(attributes.filter { $0.value == .external }.map(\.property)))
        }
    }

    /// Generic entities by name: the model's name, which for an entity a lightweight migration renamed is not the
    /// store's (see `name(of:)`).
    private(set) var entities: [String: Entity] = [:]
    /// Store entity name (Z_PRIMARYKEY's) → the model's name, for renamed entities.
    private(set) var modelNames: [String: String] = [:]
    /// Names in export order (sorted).
    var names: [String] { entities.keys.sorted() }
    /// What could not be carried or typed: (entity, property, message), for findings.
    private(set) var notes: [(entity: String, property: String?, message: String)] = []

    /// No generic entities.
    init() {}

    /// Lays out every entity of `schema` whose number is not in `excluded` (the mapped kinds' entities and their
    /// sub-entities); `model` is the store's model cache, when it has one.
    /// `preferredSides` (`Entity.property`) travel whichever side of their pair the rule below would pick.
    init(schema given: StoreSchema, model: ObjectModel?, excluded: Set<Int64>, preferredSides: Set<String> = []) {
        var schema = given
        if schema.layout == nil { schema.locate(with: model) }
        for entity in schema.entities where !entity.isInternal && !excluded.contains(entity.number) {
            guard let table = entity.table, let columns = schema.columns(of: table) else { continue }
            let modelEntity = model.flatMap { Self.modelEntity(of: entity, in: $0, schema: schema) }
            let superentity = schema.entity(number: entity.superNumber)
            var laidOut = Entity(
                name: modelEntity?.name ?? entity.name, number: entity.number, table: table,
                superentity: superentity.map { superentity in
                    model.flatMap { Self.modelEntity(of: superentity, in: $0, schema: schema) }?.name
                        ?? superentity.name
                },
                isAbstract: modelEntity?.isAbstract ?? false, attributes: [], relationships: [])
            if let model, let modelEntity {
                laidOut.attributes = Self.attributes(of: modelEntity, entity, in: model, schema: schema)
                laidOut.relationships = relationships(
                    of: entity, modelEntity, in: model, schema: schema, excluded: excluded,
                    preferredSides: preferredSides)
            } else {
                (laidOut.attributes, laidOut.relationships) = untypedProperties(
                    of: entity, columns: columns, schema: schema)
            }
            if laidOut.name != entity.name { modelNames[entity.name] = laidOut.name }
            entities[laidOut.name] = laidOut
        }
    }

    /// The model's entity for a store entity: the one of its name, else (an entity a lightweight migration renamed
    /// keeps its old name in Z_PRIMARYKEY) the one whose renaming identifier names it.
    static func modelEntity(of entity: StoreSchema.Entity, in model: ObjectModel, schema: StoreSchema)
        -> ObjectModel.Entity?
    {
        model.entity(named: entity.name)
            ?? model.entities.first { $0.renamingIdentifier == entity.name && schema.entity(named: $0.name) == nil }
    }

    /// The name records of a store entity carry: the model's.
    func name(of entity: StoreSchema.Entity) -> String {
        modelNames[entity.name] ?? entity.name
    }

    /// The store's entity for a model entity name.
    static func storeEntity(named name: String, in model: ObjectModel, schema: StoreSchema) -> StoreSchema.Entity? {
        schema.entity(named: name) ?? model.entity(named: name)?.renamingIdentifier.flatMap { schema.entity(named: $0) }
    }

    /// The join tables the carried relationships read.
    var joinTables: Set<String> {
        Set(
            entities.values.flatMap {
                $0.relationships.compactMap {
                    if case .joinTable(let direction) = $0.storage { return direction.table } else { return nil }
                }
            })
    }

    /// The `source.model` declarations.
    var declarations: [String: EntityDeclaration] {
        entities.mapValues(\.declaration)
    }

    /// The model's stored attributes (inherited ones included) that have a column.
    private static func attributes(
        of entity: ObjectModel.Entity, _ stored: StoreSchema.Entity, in model: ObjectModel, schema: StoreSchema
    ) -> [Attribute] {
        StoreExtras.attributes(of: entity.name, in: model).compactMap { attribute in
            guard let column = schema.locator.column(of: attribute.name, in: stored) else { return nil }
            let value = StoreExtras.kind(of: attribute)
            return Attribute(
                property: attribute.name, column: column, type: attribute.type.archiveType.name, value: value)
        }
    }

    /// One side of every relationship pair travels: the to-one side of a one-to-many (the to-many side when it is
    /// ordered, to keep the order and its positions), the ordered or named side of a join table. When the preferred
    /// side belongs to a typed kind, the generic side carries the pair instead. A one-to-one keeps a key column on
    /// both sides and stores fill them independently (often only one), so both sides travel, each as its column holds
    /// it.
    private mutating func relationships(
        of entity: StoreSchema.Entity, _ modelEntity: ObjectModel.Entity, in model: ObjectModel,
        schema: StoreSchema, excluded: Set<Int64>, preferredSides: Set<String>
    ) -> [Relationship] {
        var result: [Relationship] = []
        for (relationship, _) in model.storedRelationships(of: modelEntity) {
            // A side asked for travels; its other side then does not.
            let preferred = preferredSides.contains("\(modelEntity.name).\(relationship.name)")
            let otherPreferred =
                relationship.inverse.map { inverse in
                    preferredSides.contains { side in
                        let parts = side.split(separator: ".", maxSplits: 1).map(String.init)
                        guard parts.count == 2, parts[1] == inverse, let owner = model.entity(named: parts[0]) else {
                            return false
                        }
                        return model.ancestry(of: owner).contains { $0.name == relationship.destination }
                    }
                } ?? false
            guard let destination = Self.storeEntity(named: relationship.destination, in: model, schema: schema),
                let destinationTable = destination.table,
                let destinationModel = model.entity(named: relationship.destination)
            else {
                notes.append(
                    (
                        entity.name, relationship.name,
                        "destination entity \(relationship.destination) has no table; relationship not exported"
                    ))
                continue
            }
            let otherIsTyped = excluded.contains(destination.number)
            let inverse = relationship.inverse.flatMap {
                model.relationship(named: $0, in: destinationModel)?.relationship
            }
            var declaration = EntityRelationship(
                destination: relationship.destination, toMany: relationship.isToMany,
                ordered: relationship.isToMany && relationship.isOrdered, inverse: inverse?.name)
            func add(_ storage: Storage) {
                result.append(
                    Relationship(
                        property: relationship.name, declaration: declaration, storage: storage,
                        destinationTable: destinationTable))
            }
            let placement = schema.locator.placement(of: relationship.name, in: entity)
            let isOneToOne = !relationship.isToMany && inverse.map { !$0.isToMany } == true
            if otherPreferred && !preferred && !isOneToOne { continue }
            if !relationship.isToMany {
                if !preferred, let inverse, inverse.isToMany && inverse.isOrdered && !otherIsTyped { continue }
                guard let toOne = schema.locator.toOne(relationship.name, in: entity) else { continue }
                var mirror: (key: String, entity: String?)?
                if let inverse, !inverse.isToMany, let other = schema.locator.toOne(inverse.name, in: destination) {
                    mirror = (other.key, other.entity)
                }
                add(.column(key: toOne.key, entity: toOne.entity, mirror: mirror))
                if let inverse, inverse.isToMany && inverse.isOrdered {
                    notes.append(
                        (
                            entity.name, relationship.name,
                            "the order of \(relationship.destination).\(inverse.name) is not exported "
                                + "(typed kinds carry no order for generic records)"
                        ))
                }
            } else if let inverse, !inverse.isToMany {
                guard relationship.isOrdered || otherIsTyped || preferred,
                    case .inverseKey(let table, let key, let entityColumn, let order)? = placement,
                    table == destinationTable
                else { continue }
                let stored = relationship.isOrdered ? order : nil
                // An order the store keeps no positions for cannot travel: the ids go sorted, as for any set.
                declaration.ordered = stored != nil
                add(.destinationColumn(key: key, entity: entityColumn, order: stored))
            } else if inverse == nil, case .hiddenKey(let table, let column)? = placement, table == destinationTable {
                declaration.ordered = false
                add(.destinationColumn(key: column, entity: nil, order: nil))
            } else if let direction = schema.locator.joinDirection(
                from: entity, to: destination, relationship: relationship.name)
            {
                // Both sides of a pair ordered: both travel, each with its own positions.
                let bothOrdered =
                    StoreRelationships.otherOrderColumn(of: direction, in: schema) != nil
                    && direction.orderColumn != nil
                guard
                    inverse == nil || StoreRelationships.travels(direction, in: schema).0 || otherIsTyped
                        || bothOrdered || preferred
                else { continue }
                declaration.ordered = relationship.isOrdered && direction.orderColumn != nil
                add(.joinTable(direction))
            } else {
                notes.append((entity.name, relationship.name, "no storage found for this relationship; not exported"))
            }
        }
        return result
    }

    /// Without a model: every column but `Z_PK`, `Z_ENT`, `Z_OPT` travels as an attribute typed by its declared
    /// type, key and bookkeeping columns raw; join tables whose both sides are known give relationships.
    private mutating func untypedProperties(
        of entity: StoreSchema.Entity, columns: [StoreSchema.Column],
        schema: StoreSchema
    ) -> ([Attribute], [Relationship]) {
        guard let table = entity.table else { return ([], []) }
        var attributes: [Attribute] = []
        var raw: [String] = []
        for column in columns where !CoreDataNames.rowColumns.contains(column.name) {
            let name = column.name
            let isPlumbing = CoreDataNames.isPlumbing(name)
            let isKey = schema.locator.isKeyColumn(column, in: table)
            if isPlumbing || isKey {
                attributes.append(
                    Attribute(
                        property: isPlumbing ? name : CoreDataNames.property(ofColumn: name), column: name,
                        type: "untyped", value: .integer))
                raw.append(name)
            } else {
                attributes.append(
                    Attribute(
                        property: CoreDataNames.property(ofColumn: name), column: name,
                        type: ArchiveType(declaredColumnType: column.declaredType).name,
                        value: StoreExtras.kind(declared: column.declaredType)))
            }
        }
        if !raw.isEmpty {
            notes.append(
                (
                    entity.name, nil,
                    "no usable model cache: \(raw.joined(separator: ", ")) travel as raw integers (untyped); "
                        + "their destinations are not known"
                ))
        }
        var relationships: [Relationship] = []
        var ancestors: Set<Int64> = [entity.number]
        var current = entity
        while let parent = schema.entity(number: current.superNumber), ancestors.insert(parent.number).inserted {
            current = parent
        }
        for direction in schema.locator.joinDirections where ancestors.contains(direction.ownerNumber) {
            guard StoreRelationships.travels(direction, in: schema).0,
                let member = schema.entity(number: direction.memberNumber),
                let memberTable = member.table
            else { continue }
            let inverse = direction.inverseRelationship
            relationships.append(
                Relationship(
                    property: direction.relationship.lowercased(),
                    declaration: EntityRelationship(
                        destination: member.name, toMany: true, ordered: direction.orderColumn != nil,
                        inverse: inverse),
                    storage: .joinTable(direction), destinationTable: memberTable))
        }
        return (attributes, relationships)
    }
}
