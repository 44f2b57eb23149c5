/// How the elements and partial-index predicates of fetch indexes become SQL, in the forms Photos' store shows
/// (`… (ZFAVORITE COLLATE BINARY ASC, …, Z_PK COLLATE BINARY ASC, …) WHERE ZFAVORITE = 1`). Forms none of the real
/// stores shows are left untranslated, and the index is then listed in `caveats` rather than guessed at.
extension SchemaLayout {
    /// The column an element indexes: its property's column (an attribute's, or a to-one's key), `Z_PK` for the
    /// expression `SELF`, `Z_ENT` for the key path `entity` (when no property has that name).
    static func indexedColumn(_ element: ObjectModel.FetchIndex.Element, column: (String) -> String?) -> String? {
        guard let expression = element.expression else { return column(element.property) }
        switch expression {
        case "SELF": return "Z_PK"
        case "entity": return column(expression) ?? "Z_ENT"
        default: return column(expression)
        }
    }

    /// The SQL of a partial-index predicate: one comparison of a property with an integer or `nil`, or several
    /// joined by one kind of connective (`a == 2 OR a == 4` becomes `(ZA = 2 OR ZA = 4)`). Nil for anything else
    /// (nested compounds, strings, functions, properties without a column).
    static func indexCondition(_ predicate: String, column: (String) -> String?) -> String? {
        guard !predicate.contains("("), !predicate.contains("\""), !predicate.contains("'") else { return nil }
        let words = predicate.split(separator: " ").map(String.init)
        guard words.count % 4 == 3 else { return nil }
        let connectives = Set(stride(from: 3, to: words.count, by: 4).map { words[$0] })
        guard connectives.isSubset(of: ["AND", "OR"]), connectives.count <= 1 else { return nil }
        var terms: [String] = []
        for start in stride(from: 0, to: words.count, by: 4) {
            guard let term = comparison(words[start], words[start + 1], words[start + 2], column: column) else {
                return nil
            }
            terms.append(term)
        }
        guard let connective = connectives.first else { return terms.first }
        return "(" + terms.joined(separator: " \(connective) ") + ")"
    }

    private static func comparison(_ key: String, _ operation: String, _ value: String, column: (String) -> String?)
        -> String?
    {
        guard let column = column(key) else { return nil }
        let name = identifier(column)
        if value == "nil" {
            switch operation {
            case "==": return "\(name) IS NULL"
            case "!=": return "\(name) IS NOT NULL"
            default: return nil
            }
        }
        guard let number = Int64(value) else { return nil }
        let operators = ["==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="]
        return operators[operation].map { "\(name) \($0) \(number)" }
    }
}
