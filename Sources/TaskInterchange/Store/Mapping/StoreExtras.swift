import Foundation

/// The columns of a mapped entity that the interchange has no field for, carried as `extra` values: each with the
/// property name it is exported under and how its value is typed.
struct StoreExtras {
    /// How a column's values become JSON.
    enum ValueKind: Sendable, Equatable {
        /// `integer` is a 64-bit integer (or a column declared INTEGER, of a width nobody says).
        case bool, integer16, integer32, integer, float, double, date, uuid, binary, string, automatic
        /// A decimal: its stored number or text as a string, so no digit is lost to a Double.
        case decimal
        /// A to-one relationship's key, exported as the destination record's id.
        case reference(StoreMapping.Kind)
        /// Binary data of an attribute that allows external storage: a marker byte, then the value or the name of
        /// the file that holds it (`ExternalData`).
        case external
    }

    struct Column {
        var column: String
        var property: String
        var kind: ValueKind
    }

    /// Extra columns per kind.
    var columns: [StoreMapping.Kind: [Column]] = [:]
    /// Columns left out because they hold relationships (keys, entity numbers, ordering), not attribute values.
    var relationshipColumns: [StoreMapping.Kind: [String]] = [:]

    /// No extras.
    init() {}

    /// Works out the extras of every mapped kind; `model` (from the store's cache) gives exact names and types, and
    /// `relationships` the to-one relationships read as columns.
    init(resolved: ResolvedMapping, schema: StoreSchema, model: ObjectModel?, relationships: StoreRelationships) {
        for (kind, mapped) in resolved.kinds {
            let attributes = Self.attributes(of: mapped.entity.name, in: model)
            let covered = relationships.coveredColumns[mapped.table] ?? []
            if let layout = schema.layout {
                carry(kind, mapped, layout: layout, model: model, covered: covered)
            } else {
                for column in schema.columns(of: mapped.table) ?? [] {
                    let name = column.name
                    guard !CoreDataNames.rowColumns.contains(name), !mapped.usedColumns.contains(name),
                        !covered.contains(name)
                    else { continue }
                    let isForeignKey = schema.locator.isKeyColumn(column, in: mapped.table)
                    let isPlumbing = CoreDataNames.isPlumbing(name)
                    let attribute = attributes.first { CoreDataNames.column(of: $0.name) == name }
                    if isPlumbing || (attribute == nil && (isForeignKey || model != nil)) {
                        relationshipColumns[kind, default: []].append(name)
                        continue
                    }
                    let property = attribute?.name ?? CoreDataNames.property(ofColumn: name)
                    columns[kind, default: []].append(
                        Column(
                            column: name, property: property,
                            kind: attribute.map(Self.kind(of:)) ?? Self.kind(declared: column.declaredType)))
                }
            }
            for relationship in relationships.carried[kind] ?? [] {
                if case .column(let column) = relationship.storage {
                    columns[kind, default: []].append(
                        Column(
                            column: column, property: relationship.property,
                            kind: .reference(relationship.declaration.destination)))
                }
            }
        }
    }

    /// With the store's layout: the attribute columns owned by rows of the kind's entity and its sub-entities, under
    /// their property names; the rest of what those rows own (keys, entity numbers, positions) is relationships'.
    private mutating func carry(
        _ kind: StoreMapping.Kind, _ mapped: ResolvedMapping.ResolvedKind, layout: StoreLayout, model: ObjectModel?,
        covered: Set<String>
    ) {
        let owned = mapped.entity.numbersIncludingSubentities.reduce(into: Set<String>()) {
            $0.formUnion(layout.ownedColumns[mapped.table]?[$1] ?? [])
        }
        for name in owned.sorted() where !mapped.usedColumns.contains(name) && !covered.contains(name) {
            guard let (key, storage) = layout.attribute(at: name, in: mapped.table) else {
                relationshipColumns[kind, default: []].append(name)
                continue
            }
            let attribute = Self.attributes(of: key.entity, in: model).first { $0.name == key.property }
            columns[kind, default: []].append(
                Column(
                    column: name, property: key.property,
                    kind: attribute.map(Self.kind(of:)) ?? Self.kind(declared: storage.declaredType)))
        }
    }

    static func attributes(of entity: String, in model: ObjectModel?) -> [ObjectModel.Attribute] {
        guard let model else { return [] }
        var result: [ObjectModel.Attribute] = []
        var current = model.entity(named: entity)
        var depth = 0
        while let found = current, depth <= model.entities.count {
            result += found.attributes.filter { !$0.isTransient }
            current = found.superentity.flatMap(model.entity(named:))
            depth += 1
        }
        return result
    }

    /// How an attribute's values travel: decimals as exact text, externally storable data through its marker.
    static func kind(of attribute: ObjectModel.Attribute) -> ValueKind {
        switch attribute.type {
        case .decimal: return .decimal
        case .binaryData where attribute.allowsExternalStorage, .transformable where attribute.allowsExternalStorage:
            return .external
        default: return kind(of: attribute.type)
        }
    }

    static func kind(of type: ObjectModel.AttributeType) -> ValueKind {
        switch type {
        case .boolean: return .bool
        case .integer16: return .integer16
        case .integer32: return .integer32
        case .integer64: return .integer
        case .float: return .float
        case .double: return .double
        case .date: return .date
        case .uuid: return .uuid
        case .binaryData, .transformable: return .binary
        case .string, .uri: return .string
        default: return .automatic
        }
    }

    static func kind(declared: String) -> ValueKind {
        switch declared {
        case "INTEGER": return .integer
        case "FLOAT": return .double
        case "TIMESTAMP": return .date
        case "BLOB": return .binary
        case "VARCHAR": return .string
        default: return .automatic
        }
    }
}
