import Foundation

/// The `Z_DA_*` triggers that keep derived attributes up to date. Only the shapes seen in real stores are
/// generated — `count:(toMany)` over a to-many whose inverse is a to-one key (SampleModel2's `Book.pagesCount`) and
/// `toOne.attribute` (Photos' `Asset.derivedCameraCaptureDevice`), both reproduced byte for byte; any other
/// derivation is listed in `caveats`. The triggers call a function only Core Data
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
                if let keyPath = Self.toOneKeyPath(attribute, of: entity, in: model, byName: byName),
                    let key = columns(keyPath.owner, keyPath.relationship.name),
                    let value = columns(keyPath.destination, keyPath.attribute),
                    let column = columns(name, attribute.name),
                    let source = table(name), let destination = table(keyPath.destination)
                {
                    triggers += Self.keyPathTriggers(
                        entity: name, attribute: attribute.name, sourceTable: source, column: column, key: key,
                        destinationTable: destination, value: value)
                    continue
                }
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
                        only count:(to-many) and to-one.attribute derivations get their Z_DA_ triggers here
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

    /// The to-one and the destination's attribute of a derivation `toOne.attribute` without a filter.
    static func toOneKeyPath(
        _ attribute: ObjectModel.Attribute, of entity: ObjectModel.Entity, in model: ObjectModel,
        byName: [String: ObjectModel.Entity]
    ) -> (owner: String, relationship: ObjectModel.Relationship, destination: String, attribute: String)? {
        guard let derivation = attribute.derivation, attribute.derivationFilter == nil else { return nil }
        let parts = derivation.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2,
            let (relationship, owner) = model.relationship(named: parts[0], in: entity, byName: byName),
            !relationship.isToMany, let destination = byName[relationship.destination],
            model.ancestry(of: destination, in: byName).contains(where: { entity in
                entity.attributes.contains { $0.name == parts[1] && !$0.isTransient }
            })
        else { return nil }
        let declaring = model.ancestry(of: destination, in: byName).first { entity in
            entity.attributes.contains { $0.name == parts[1] }
        }
        return (owner.name, relationship, declaring?.name ?? destination.name, parts[1])
    }

    /// The four triggers of `<attribute> = <toOne>.<value>`: the value is copied when a source row is inserted or
    /// its key changes (`SOURCE_*` on the source table), and when a destination row is inserted or its value
    /// changes (`PARAMETER_*` on the destination table).
    static func keyPathTriggers(
        entity: String, attribute: String, sourceTable: String, column: String, key: String,
        destinationTable: String, value: String
    ) -> [Trigger] {
        let (s, d, k, c, v) = (
            identifier(sourceTable), identifier(destinationTable), identifier(key), identifier(column),
            identifier(value)
        )
        let literal = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        func notify(_ function: String, where condition: String) -> String {
            "SELECT \(function)(\(literal(sourceTable)), Z_ENT, Z_PK, \(literal(attribute)), \(c)) FROM \(s) "
                + "WHERE \(condition); END"
        }
        let (inserted, updated) = (
            "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue", "NSCoreDataDATriggerUpdatedAffectedObjectValue"
        )
        let copy = "UPDATE \(s) SET \(c) = (SELECT \(v) FROM \(d) WHERE Z_PK = NEW.\(k)) WHERE Z_PK = NEW.Z_PK; "
        let push = "UPDATE \(s) SET \(c) = NEW.\(v) WHERE \(k) = NEW.Z_PK; "
        let source = "Z_DA_\(sourceTable)_\(entity)_\(attribute)_SOURCE_"
        let parameter = "Z_DA_\(destinationTable)_\(entity)_\(attribute)_PARAMETER_"
        let shapes: [(String, String, String, String, String)] = [
            (source + "INSERT", "AFTER INSERT ON \(s)", copy, inserted, "Z_PK = NEW.Z_PK"),
            (source + "UPDATE", "AFTER UPDATE OF \(k) ON \(s)", copy, updated, "Z_PK = NEW.Z_PK"),
            (parameter + "INSERT", "AFTER INSERT ON \(d)", push, inserted, "\(k) = NEW.Z_PK"),
            (parameter + "UPDATE", "AFTER UPDATE OF \(v) ON \(d)", push, updated, "\(k) = NEW.Z_PK"),
        ]
        return shapes.map { name, event, body, function, condition in
            Trigger(
                name: name,
                sql: "CREATE TRIGGER \(identifier(name)) \(event) FOR EACH ROW BEGIN " + body
                    + notify(function, where: condition))
        }
    }
}
