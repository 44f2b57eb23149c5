import Foundation

/// The `Z_DA_*` triggers that keep derived attributes up to date. Only the shape seen in a real store is
/// generated — `count:(toMany)` over a to-many whose inverse is a to-one key (SampleModel2's `Book.pagesCount`,
/// reproduced byte for byte); any other derivation is listed in `caveats`. The triggers call a function only Core Data
/// registers, so plain SQLite cannot write to those tables (they never fire on `tasks`' own connections).
extension SchemaLayout {
    mutating func addDerivedAttributeTriggers(
        model: ObjectModel, byName: [String: ObjectModel.Entity],
        columns: (String, String) -> String?, table: (String) -> String?
    ) {
        for name in entityOrder {
            guard let entity = byName[name] else { continue }
            for attribute in entity.attributes.sorted(by: { Self.byteOrder($0.name, $1.name) })
            where !attribute.isTransient && attribute.derivation != nil {
                guard let derivation = attribute.derivation, attribute.derivationFilter == nil,
                    derivation.hasPrefix("count:("), derivation.hasSuffix(")"),
                    case let path = String(derivation.dropFirst("count:(".count).dropLast()),
                    let relationship = model.relationship(named: path, in: entity, byName: byName)?.relationship,
                    relationship.isToMany,
                    let inverse = Self.inverse(of: relationship, in: model, byName: byName),
                    !inverse.relationship.isToMany,
                    let key = columns(inverse.declaredBy.name, inverse.relationship.name),
                    let column = columns(name, attribute.name),
                    let source = table(name), let destination = table(relationship.destination)
                else {
                    caveats.append(
                        """
                        \(name).\(attribute.name) is derived as \(attribute.derivation ?? ""): \
                        only count:(to-many) derivations get their Z_DA_ triggers here
                        """
                    )
                    continue
                }
                triggers += Self.countTriggers(
                    entity: name, attribute: attribute.name, sourceTable: source, column: column,
                    destinationTable: destination, key: key)
            }
        }
    }

    /// The five triggers of `<attribute> = count:(<to-many>)`: the count follows inserts, re-parenting and deletes
    /// of destination rows (`PARAMETER_*` on the destination table) and is computed for a new source row
    /// (`SOURCE_INSERT`).
    static func countTriggers(
        entity: String, attribute: String, sourceTable: String, column: String,
        destinationTable: String, key: String
    ) -> [Trigger] {
        let (s, d, k, c) = (identifier(sourceTable), identifier(destinationTable), identifier(key), identifier(column))
        let literal = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        let prefix = "Z_DA_\(destinationTable)_\(entity)_\(attribute)_PARAMETER_"
        func notify(_ row: String, _ function: String = "NSCoreDataDATriggerUpdatedAffectedObjectValue") -> String {
            """
            SELECT \(function)(\(literal(sourceTable)), Z_ENT, Z_PK, \(literal(attribute)), \(c)) \
            FROM \(s) WHERE Z_PK = \(row); END
            """
        }
        let parameter: [(String, String, String, String)] = [
            ("INSERT", "AFTER INSERT ON", "NEW", "IFNULL(\(c), 0) + 1"),
            ("UPDATE_INCREMENT", "AFTER UPDATE OF \(k) ON", "NEW", "\(c) + 1"),
            ("UPDATE_DECREMENT", "AFTER UPDATE OF \(k) ON", "OLD", "\(c) - 1"),
            ("DELETE", "AFTER DELETE ON", "OLD", "\(c) - 1"),
        ]
        var triggers = parameter.map { suffix, event, row, value in
            let name = identifier(prefix + suffix)
            return Trigger(
                name: prefix + suffix,
                sql: "CREATE TRIGGER \(name) \(event) \(d) FOR EACH ROW WHEN (\(row).\(k) NOT NULL) BEGIN "
                    + "UPDATE \(s) SET \(c) = \(value) WHERE Z_PK = \(row).\(k); " + notify("\(row).\(k)"))
        }
        let insert = "Z_DA_\(sourceTable)_\(entity)_\(attribute)_SOURCE_INSERT"
        triggers.append(
            Trigger(
                name: insert,
                sql: "CREATE TRIGGER \(identifier(insert)) AFTER INSERT ON \(s) FOR EACH ROW BEGIN "
                    + "UPDATE \(s) SET \(c) = (SELECT IFNULL(COUNT(\(k)), 0) FROM \(d) WHERE \(k) = NEW.Z_PK) "
                    + "WHERE Z_PK = NEW.Z_PK; "
                    + notify("NEW.Z_PK", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue")))
        return triggers
    }
}
