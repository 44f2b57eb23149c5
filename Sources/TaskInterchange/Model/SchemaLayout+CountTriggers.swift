import Foundation

/// The `ZT_*` triggers Core Data writes for an attribute whose user info has `NSTriggerKey`: the attribute counts the
/// rows across one relationship that match a predicate (Photos: `DetectedFace.assetVisible` over the to-one `asset`,
/// `Person.faceCount` over the to-many `detectedFaces`), and seven triggers keep the count as rows come, change and
/// go. Both shapes are reproduced byte for byte from that store; a predicate of another form (not one relationship,
/// not comparisons of its attributes with integers or YES/NO joined by `&&`) is listed in `caveats`.
extension SchemaLayout {
    /// The user-info key whose predicate an attribute counts.
    static let triggerKey = "NSTriggerKey"

    mutating func addTriggerKeyTriggers(
        model: ObjectModel, byName: [String: ObjectModel.Entity],
        columns: (String, String) -> String?, table: (String) -> String?
    ) {
        for name in entityOrder {
            guard let entity = byName[name] else { continue }
            for attribute in entity.attributes.sorted(by: { Self.byteOrder($0.name, $1.name) })
            where !attribute.isTransient {
                guard let predicate = attribute.userInfo[Self.triggerKey] else { continue }
                guard
                    let found = Self.countedRelationship(
                        predicate, of: entity, in: model, byName: byName, columns: columns),
                    let sourceTable = table(name), let column = columns(name, attribute.name),
                    let destinationTable = table(found.relationship.destination)
                else {
                    caveats.append(
                        """
                        \(name).\(attribute.name) counts \(predicate) (\(Self.triggerKey)): only comparisons \
                        across one relationship with a to-one side get their ZT_ triggers here
                        """
                    )
                    continue
                }
                let counted = CountedRows(
                    table: sourceTable, column: column, destination: destinationTable, key: found.key,
                    terms: found.terms)
                triggers += found.relationship.isToMany ? counted.toManyTriggers : counted.toOneTriggers
            }
        }
    }

    /// The relationship a trigger predicate crosses, the key column joining the two tables (the to-one's own, or the
    /// to-many's inverse on the destination) and the comparisons as SQL on the destination's columns.
    private static func countedRelationship(
        _ predicate: String, of entity: ObjectModel.Entity, in model: ObjectModel,
        byName: [String: ObjectModel.Entity], columns: (String, String) -> String?
    ) -> (relationship: ObjectModel.Relationship, key: String, terms: [CountedRows.Term])? {
        var path: String?
        var comparisons: [(attribute: String, operation: String, value: String)] = []
        for part in predicate.components(separatedBy: " && ") {
            var text = Substring(part)
            if text.hasPrefix("(") && text.hasSuffix(")") { text = text.dropFirst().dropLast() }
            let words = text.split(separator: " ").map(String.init)
            guard words.count == 3, ["==", "!=", "<", "<=", ">", ">="].contains(words[1]) else { return nil }
            let keyPath = words[0].split(separator: ".").map(String.init)
            guard keyPath.count == 2, path == nil || path == keyPath[0] else { return nil }
            path = keyPath[0]
            let value = ["YES": "1", "NO": "0"][words[2]] ?? words[2]
            guard Int64(value) != nil else { return nil }
            comparisons.append((keyPath[1], words[1], value))
        }
        guard let path, let (relationship, owner) = model.relationship(named: path, in: entity, byName: byName),
            let destination = byName[relationship.destination]
        else { return nil }
        let key: String?
        if relationship.isToMany {
            key = inverse(of: relationship, in: model, byName: byName).flatMap { inverse in
                inverse.relationship.isToMany ? nil : columns(inverse.declaredBy.name, inverse.relationship.name)
            }
        } else {
            key = columns(owner.name, relationship.name)
        }
        let lineage = model.ancestry(of: destination, in: byName).map(\.name)
        var terms: [CountedRows.Term] = []
        for comparison in comparisons {
            guard let column = lineage.compactMap({ columns($0, comparison.attribute) }).first else { return nil }
            terms.append(CountedRows.Term(column: column, operation: comparison.operation, value: comparison.value))
        }
        guard let key else { return nil }
        return (relationship, key, terms)
    }

    /// One counting attribute: `column` of `table` counts the rows of `destination` joined by `key` that match
    /// `terms`.
    struct CountedRows {
        struct Term {
            var column: String
            var operation: String
            var value: String
        }

        var table: String
        var column: String
        var destination: String
        var key: String
        var terms: [Term]

        /// The condition on one row (`NEW.`, `OLD.`) or on the rows counted (no prefix).
        private func condition(_ row: String) -> String {
            terms.map { "\(row)\(identifier($0.column)) \($0.operation) \($0.value)" }.joined(separator: " AND ")
        }

        /// Whether an update changed a column the condition reads.
        private var changed: String {
            "(" + watched.map { "NEW.\($0) != OLD.\($0)" }.joined(separator: " OR ") + ")"
        }

        private var watched: [String] {
            var result: [String] = []
            for term in terms where !result.contains(identifier(term.column)) { result.append(identifier(term.column)) }
            return result
        }

        private func trigger(_ suffix: String, _ event: String, _ body: String, notify condition: String) -> Trigger {
            let name = "ZT_\(table)_\(column)_\(destination)_\(suffix)"
            let (t, c) = (identifier(table), identifier(column))
            let notify =
                "SELECT NSCoreDataTriggerUpdateAffectedObjectValue('\(table)', Z_ENT, Z_PK, '\(column)', \(c)) "
                + "FROM \(t) WHERE \(condition); END"
            return Trigger(name: name, sql: "CREATE TRIGGER \(identifier(name)) \(event) BEGIN \(body) \(notify)")
        }

        private var increment: String { "\(identifier(column)) = IFNULL(\(identifier(column)),0) + 1" }
        private var decrement: String { "\(identifier(column)) = MAX(0,IFNULL(\(identifier(column)),0) - 1)" }

        /// The count across a to-one: `key` is in `table`, the counted row is in `destination`.
        var toOneTriggers: [Trigger] {
            let (t, d, k) = (identifier(table), identifier(destination), identifier(key))
            let update = "UPDATE \(t) SET"
            let columns = watched.joined(separator: ", ")
            let recount = "(SELECT COUNT(Z_PK) FROM \(d) WHERE"
            return [
                trigger(
                    "INSERT_INCREMENT", "AFTER INSERT ON \(d) FOR EACH ROW WHEN \(condition("NEW."))",
                    "\(update) \(increment) WHERE NEW.Z_PK = \(k);", notify: "\(k) = NEW.Z_PK"),
                trigger(
                    "UPDATE_INCREMENT",
                    "AFTER UPDATE OF \(columns) ON \(d) FOR EACH ROW WHEN (\(condition("NEW."))) AND \(changed)",
                    "\(update) \(increment) WHERE NEW.Z_PK = \(k);", notify: "\(k) = NEW.Z_PK"),
                trigger(
                    "UPDATE_DECREMENT",
                    "AFTER UPDATE OF \(columns) ON \(d) FOR EACH ROW WHEN (\(condition("OLD."))) AND \(changed)",
                    "\(update) \(decrement) WHERE OLD.Z_PK = \(k);", notify: "\(k) = NEW.Z_PK"),
                trigger(
                    "DELETE_DECREMENT", "AFTER DELETE ON \(d) FOR EACH ROW WHEN \(condition("OLD."))",
                    "\(update) \(decrement) WHERE OLD.Z_PK = \(k);", notify: "\(k) = OLD.Z_PK"),
                trigger(
                    "\(table)_INSERT_INCREMENT", "AFTER INSERT ON \(t) FOR EACH ROW",
                    "\(update) \(identifier(column)) = \(recount) (Z_PK = NEW.\(k)) AND (\(condition("")))) "
                        + "WHERE Z_PK = NEW.Z_PK;", notify: "Z_PK = NEW.Z_PK"),
                trigger(
                    "\(key)_UPDATE_TO_NULL",
                    "AFTER UPDATE OF \(k) ON \(t) WHEN (NEW.\(k) IS NULL AND OLD.\(k) IS NOT NULL)",
                    "\(update) \(identifier(column)) = 0 WHERE Z_PK = NEW.Z_PK;", notify: "Z_PK = NEW.Z_PK"),
                trigger(
                    "\(key)_UPDATE_INCREMENT",
                    "AFTER UPDATE OF \(k) ON \(t) WHEN ((NEW.\(k) IS NOT NULL AND OLD.\(k) IS NULL) OR (NEW.\(k) != OLD.\(k)))",
                    "\(update) \(identifier(column)) = \(recount) Z_PK = NEW.\(k) AND (\(condition("")))) "
                        + "WHERE Z_PK = NEW.Z_PK;", notify: "Z_PK = NEW.Z_PK"),
            ]
        }

        /// The count across a to-many: `key` (the inverse's) is in `destination`, the counted rows too.
        var toManyTriggers: [Trigger] {
            let (t, d, k) = (identifier(table), identifier(destination), identifier(key))
            let update = "UPDATE \(t) SET"
            let columns = watched.joined(separator: ", ")
            return [
                trigger(
                    "INSERT_INCREMENT", "AFTER INSERT ON \(d) FOR EACH ROW WHEN \(condition("NEW."))",
                    "\(update) \(increment) WHERE NEW.\(k) = Z_PK;", notify: "Z_PK = NEW.\(k)"),
                trigger(
                    "UPDATE_INCREMENT",
                    "AFTER UPDATE OF \(columns) ON \(d) FOR EACH ROW WHEN (\(condition("NEW."))) AND \(changed) "
                        + "AND (NEW.\(k) == OLD.\(k))",
                    "\(update) \(increment) WHERE NEW.\(k) = Z_PK;", notify: "Z_PK = NEW.\(k)"),
                trigger(
                    "UPDATE_DECREMENT",
                    "AFTER UPDATE OF \(columns) ON \(d) FOR EACH ROW WHEN (\(condition("OLD."))) AND \(changed) "
                        + "AND (OLD.\(k) == NEW.\(k))",
                    "\(update) \(decrement) WHERE OLD.\(k) = Z_PK;", notify: "Z_PK = NEW.\(k)"),
                trigger(
                    "DELETE_DECREMENT", "AFTER DELETE ON \(d) FOR EACH ROW WHEN \(condition("OLD."))",
                    "\(update) \(decrement) WHERE OLD.\(k) = Z_PK;", notify: "Z_PK = OLD.\(k)"),
                trigger(
                    "\(table)_INSERT_INCREMENT", "AFTER INSERT ON \(t) FOR EACH ROW",
                    "\(update) \(identifier(column)) = (SELECT COUNT(Z_PK) FROM \(d) WHERE (\(k) = NEW.Z_PK) "
                        + "AND (\(condition("")))) WHERE Z_PK = NEW.Z_PK;", notify: "Z_PK = NEW.Z_PK"),
                trigger(
                    "\(key)_UPDATE_INCREMENT",
                    "AFTER UPDATE OF \(k) ON \(d) WHEN (\(condition("NEW."))) AND "
                        + "((NEW.\(k) IS NOT NULL AND OLD.\(k) IS NULL) OR (NEW.\(k) != OLD.\(k)))",
                    "\(update) \(increment) WHERE Z_PK = NEW.\(k);", notify: "Z_PK = NEW.\(k)"),
                trigger(
                    "\(key)_UPDATE_DECREMENT",
                    "AFTER UPDATE OF \(k) ON \(d) WHEN (\(condition("OLD."))) AND "
                        + "((OLD.\(k) IS NOT NULL AND NEW.\(k) IS NULL) OR (NEW.\(k) != OLD.\(k)))",
                    "\(update) \(decrement) WHERE Z_PK = OLD.\(k);", notify: "Z_PK = OLD.\(k)"),
            ]
        }
    }
}
