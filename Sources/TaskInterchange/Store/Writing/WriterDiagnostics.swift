/// What a store writer has to tell: warnings about the target, and counts of values it had no place for, by
/// `Entity.property` (or `Entity.field`), which become one warning each at the end of a transaction.
struct WriterDiagnostics {
    /// Things the user should know about the target (history tables it cannot write, repaired `Z_MAX`, ids it cannot
    /// keep, values it had no place for).
    var warnings: [String] = []
    /// Extra values that had no column in the target.
    var unplacedExtras: [String: Int] = [:]
    /// Interchange fields the target maps no property to: values counted for a warning.
    var unplacedFields: [String: Int] = [:]
    /// Owners whose archive value had several ids for a to-one in the target.
    var toOneOverflows: [String: Int] = [:]
    /// References to external files the source lacked, which a target keeping the attribute in its rows has no place
    /// for (there is no value to write).
    var missingFileReferences: [String: Int] = [:]
    /// Generic values the target had no place for, since the last `takeLackingEntityValues()`.
    var lackingEntityValues: [String: Int] = [:]
    /// Dangling keys left out (an import that does not keep identity), since the last report.
    var droppedDanglingKeys: [String: Int] = [:]

    /// What had nowhere to go so far in this transaction (extra properties, mapped fields, several ids for a to-one,
    /// external files the source lacked), with counts: what a strict import refuses.
    var unplaced: [String: Int] {
        unplacedExtras.merging(unplacedFields, uniquingKeysWith: +).merging(toOneOverflows, uniquingKeysWith: +)
            .merging(missingFileReferences, uniquingKeysWith: +)
    }

    /// The generic values counted as lacking since the last call; the count starts again.
    mutating func takeLackingEntityValues() -> [String: Int] {
        defer { lackingEntityValues = [:] }
        return lackingEntityValues
    }

    /// Turns the counts of values that had nowhere to go into one warning each, sorted by name, and clears them.
    mutating func reportCounts() {
        Self.report(&unplacedExtras, into: &warnings) { property, count in
            "\(property): the target has no such property; \(count) extra value\(count == 1 ? "" : "s") not imported"
        }
        Self.report(&unplacedFields, into: &warnings) { field, count in
            "\(field): the target maps no property to this field; \(count) value\(count == 1 ? "" : "s") not imported"
        }
        Self.report(&toOneOverflows, into: &warnings) { relationship, count in
            "\(relationship): the target's relationship is to-one; \(count) record\(count == 1 ? "" : "s") with "
                + "several ids not linked"
        }
        Self.report(&missingFileReferences, into: &warnings) { property, count in
            "\(property): \(count) value\(count == 1 ? "" : "s") the source kept in external files it lacked; the "
                + "target keeps \(property) in its rows (its model does not allow external storage), so there "
                + "is nothing to write: not imported"
        }
        Self.report(&droppedDanglingKeys, into: &warnings) { property, count in
            "\(property): \(count) key\(count == 1 ? "" : "s") that named no row in the source (dangling) not "
                + "imported; only a restore that keeps identity writes them"
        }
    }

    private static func report(
        _ counts: inout [String: Int], into warnings: inout [String], _ message: (String, Int) -> String
    ) {
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) { warnings.append(message(name, count)) }
        counts = [:]
    }
}
