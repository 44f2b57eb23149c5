import Foundation

/// The `predicateFormat` text of archived `NSExpression`s and `NSPredicate`s. Core Data hashes a derived attribute by
/// this text, so it must be what Foundation prints; forms without a known format are reported as unsupported rather
/// than guessed.
extension ModelCacheDecoder {
    /// The format of an archived expression.
    func expressionFormat(_ value: KeyedArchive.Value, nesting: Int, _ context: String) throws(ModelCacheError)
        -> String
    {
        guard nesting <= Self.maximumNesting else {
            throw .malformed("\(context) nests deeper than \(Self.maximumNesting) levels (or refers to itself)")
        }
        guard let fields = try fields(value, context) else { return "nil" }
        let classes = try classNames(fields)
        let type = try integer(fields["NSExpressionType"], "\(context)'s NSExpressionType")
        if classes.contains("NSKeyPathSpecifierExpression") || type == 10 {
            guard let path = try string(fields["NSKeyPath"], "\(context)'s NSKeyPath") else {
                throw .malformed("\(context) has no key path")
            }
            return path
        }
        if classes.contains("NSSelfExpression") || type == 1 {
            return "SELF"
        }
        if classes.contains("NSVariableExpression") || type == 2 {
            guard let name = try string(fields["NSVariable"], "\(context)'s NSVariable") else {
                throw .malformed("\(context) names no variable")
            }
            return "$" + name
        }
        if classes.contains("NSConstantValueExpression") || type == 0 {
            return try constantFormat(fields["NSConstantValue"], nesting: nesting + 1, context)
        }
        // NSKeyPathExpression subclasses NSFunctionExpression, so it is tested first: a key path applied to an operand,
        // printed as `path` on SELF and `operand.path` otherwise (its expression type is 3 or, on a variable, 4).
        if classes.contains("NSKeyPathExpression") || type == 3 {
            let operand = try operandFormat(fields, nesting: nesting, context)
            let path = try arguments(fields, nesting: nesting, context).joined(separator: ".")
            return operand == "SELF" ? path : operand + "." + path
        }
        if classes.contains("NSFunctionExpression") || type == 4 {
            guard let selector = try string(fields["NSSelectorName"], "\(context)'s NSSelectorName") else {
                throw .malformed("\(context) is a function without a selector")
            }
            let arguments = try arguments(fields, nesting: nesting, context)
            if try isPredicateUtilities(fields["NSOperand"], context) {
                // Built-in functions (`count:`, `sum:`, `now`) print as `count:(pages)`.
                return "\(selector)(\(arguments.joined(separator: ", ")))"
            }
            let operand = try operandFormat(fields, nesting: nesting, context)
            return "FUNCTION(" + ([operand, "\"\(selector)\""] + arguments).joined(separator: ", ") + ")"
        }
        if classes.contains("NSAggregateExpression") || type == 14 {
            var parts: [String] = []
            for element in try elements(fields["NSCollection"], "\(context)'s NSCollection") {
                parts.append(try expressionFormat(element, nesting: nesting + 1, context))
            }
            return "{" + parts.joined(separator: ", ") + "}"
        }
        throw .unsupported(
            """
            \(context) is an \(classes[0]) (expression type \
            \(type.map(String.init) ?? "?")), whose text form tasks does not know
            """
        )
    }

    /// The format of an archived predicate.
    func predicateFormat(_ value: KeyedArchive.Value, nesting: Int, _ context: String) throws(ModelCacheError) -> String
    {
        guard nesting <= Self.maximumNesting else {
            throw .malformed("\(context) nests deeper than \(Self.maximumNesting) levels (or refers to itself)")
        }
        guard let fields = try fields(value, context) else { throw .malformed("\(context) is nil") }
        let classes = try classNames(fields)
        if classes.contains("NSTruePredicate") { return "TRUEPREDICATE" }
        if classes.contains("NSFalsePredicate") { return "FALSEPREDICATE" }
        if classes.contains("NSCompoundPredicate") {
            let type = try integer(fields["NSCompoundPredicateType"], "\(context)'s NSCompoundPredicateType") ?? -1
            var parts: [String] = []
            for sub in try elements(fields["NSSubpredicates"], "\(context)'s NSSubpredicates") {
                let text = try predicateFormat(sub, nesting: nesting + 1, context)
                let subFields = try self.fields(sub, context)
                let compound =
                    try subFields.map { (fields: Fields) throws(ModelCacheError) in
                        try classNames(fields).contains("NSCompoundPredicate")
                    } ?? false
                parts.append(compound ? "(\(text))" : text)
            }
            switch type {
            case 0:
                guard parts.count == 1 else { throw .malformed("\(context) is a NOT of \(parts.count) predicates") }
                return "NOT " + parts[0]
            case 1: return parts.joined(separator: " AND ")
            case 2: return parts.joined(separator: " OR ")
            default: throw .malformed("\(context) is a compound predicate of type \(type)")
            }
        }
        if classes.contains("NSComparisonPredicate") {
            guard let left = fields["NSLeftExpression"], let right = fields["NSRightExpression"],
                let operatorFields = try self.fields(fields["NSPredicateOperator"], "\(context)'s operator")
            else {
                throw .malformed("\(context) is a comparison without both sides and an operator")
            }
            let symbol = try operatorSymbol(operatorFields, context)
            let modifier =
                try integer(fields["NSModifier"] ?? operatorFields["NSModifier"], "\(context)'s NSModifier") ?? 0
            let prefix = modifier == 1 ? "ALL " : modifier == 2 ? "ANY " : ""
            return prefix + (try expressionFormat(left, nesting: nesting + 1, context)) + " " + symbol + " "
                + (try expressionFormat(right, nesting: nesting + 1, context))
        }
        throw .unsupported("\(context) is an \(classes[0]), whose text form tasks does not know")
    }

    private func operatorSymbol(_ fields: Fields, _ context: String) throws(ModelCacheError) -> String {
        let type = try integer(fields["NSOperatorType"], "\(context)'s NSOperatorType") ?? -1
        let negate = try flag(fields["NSNegate"], context) ?? false
        let symbols: [Int64: String] = [
            0: "<", 1: "<=", 2: ">", 3: ">=", 4: negate ? "!=" : "==", 5: "!=", 6: "MATCHES",
            7: "LIKE", 8: "BEGINSWITH", 9: "ENDSWITH", 10: "IN", 99: "CONTAINS", 100: "BETWEEN",
        ]
        guard let symbol = symbols[type] else { throw .unsupported("\(context) uses comparison operator type \(type)") }
        // Comparison and equality operators archive their options as NSOptions, the string operators as NSFlags.
        let options = try integer(fields["NSOptions"] ?? fields["NSFlags"], "\(context)'s operator options") ?? 0
        var letters = ""
        if options & 1 != 0 { letters += "c" }
        if options & 2 != 0 { letters += "d" }
        if options & 4 != 0 { letters += "n" }
        return letters.isEmpty ? symbol : "\(symbol)[\(letters)]"
    }

    private func operandFormat(_ fields: Fields, nesting: Int, _ context: String) throws(ModelCacheError) -> String {
        guard let operand = fields["NSOperand"] else { return "SELF" }
        return try expressionFormat(operand, nesting: nesting + 1, context)
    }

    private func arguments(_ fields: Fields, nesting: Int, _ context: String) throws(ModelCacheError) -> [String] {
        var result: [String] = []
        for argument in try elements(fields["NSArguments"], "\(context)'s NSArguments") {
            result.append(try expressionFormat(argument, nesting: nesting + 1, context))
        }
        return result
    }

    /// True for the constant-class operand `_NSPredicateUtilities`, the receiver of built-in functions.
    private func isPredicateUtilities(_ value: KeyedArchive.Value?, _ context: String) throws(ModelCacheError) -> Bool {
        guard let fields = try fields(value, context) else { return false }
        return try string(fields["NSConstantValueClassName"], context) == "_NSPredicateUtilities"
    }

    private func constantFormat(_ value: KeyedArchive.Value?, nesting: Int, _ context: String) throws(ModelCacheError)
        -> String
    {
        guard nesting <= Self.maximumNesting else {
            throw .malformed("\(context) nests deeper than \(Self.maximumNesting) levels")
        }
        guard let value, let resolved = try archived({ () throws(KeyedArchiveError) in try archive.resolve(value) })
        else { return "nil" }
        switch resolved {
        case .string(let text):
            return Self.quoted(text)
        case .integer(let number):
            return String(number)
        case .real(let number):
            return Self.numberText(number)
        case .bool(let flag):
            // NSNumber's description of a boolean.
            return flag ? "1" : "0"
        case .dictionary(let fields) where fields["$class"] != nil:
            let classes = try classNames(fields)
            if classes.contains("NSString") || classes.contains("NSMutableString"),
                let text = try string(value, context)
            {
                return Self.quoted(text)
            }
            if classes.contains("NSArray") || classes.contains("NSSet") {
                var parts: [String] = []
                for element in try elements(value, context) {
                    parts.append(try constantFormat(element, nesting: nesting + 1, context))
                }
                return "{" + parts.joined(separator: ", ") + "}"
            }
            throw .unsupported("\(context) compares with a constant \(classes[0]), whose text form tasks does not know")
        default:
            throw .unsupported("\(context) compares with \(resolved.kindName), whose text form tasks does not know")
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A number as NSNumber prints it: integral values without a fraction.
    static func numberText(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}
