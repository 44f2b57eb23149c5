import TaskInterchange

/// Names generated Swift must treat with care: type names that an entity's class would shadow (Swift, Foundation,
/// Swift Concurrency, SwiftData and SwiftUI types apps use every day), and keywords a property name must escape.
enum SwiftNames {
    /// Types an entity class of the same name would hide from the app's code (or from the generated code itself).
    static let collidingTypes: Set<String> = [
        // Swift and Swift Concurrency
        "Any", "Array", "Bool", "Character", "Dictionary", "Double", "Error", "Float", "Int", "Int16", "Int32", "Int64",
        "Never", "Optional", "Result", "Sequence", "Set", "String", "Task", "Type", "Actor", "Void",
        // Foundation
        "Bundle", "Calendar", "Data", "Date", "DateComponents", "Decimal", "Locale", "Measurement", "Notification",
        "NSObject", "Operation", "Process", "Progress", "Thread", "Timer", "TimeZone", "URL", "URLRequest", "UUID",
        "Predicate", "Expression", "SortDescriptor", "Index",
        // SwiftData
        "Attribute", "FetchDescriptor", "MigrationStage", "Model", "ModelContainer", "ModelContext", "PersistentModel",
        "Query", "Relationship", "Schema", "SchemaMigrationPlan", "Transaction", "Transient", "Unique",
        "VersionedSchema",
        "History", "HistoryTransaction",
        // SwiftUI
        "App", "Button", "Color", "Form", "Group", "Image", "Label", "List", "Section", "Text", "Toggle", "View",
    ]

    /// Swift keywords that cannot be a property name without backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as",
        "false",
        "is", "nil", "self", "Self", "super", "throws", "true", "try", "await", "async", "any", "some",
    ]

    /// Members every `@Model` class gets from `PersistentModel`: a property of the same name does not compile.
    static let persistentModelMembers: Set<String> = [
        "persistentModelID", "modelContext", "hasChanges", "isDeleted", "persistentBackingData", "schemaMetadata",
    ]

    /// Member names a type cannot declare even in backticks without ambiguity: `x.Type` and `x.Protocol` are the
    /// metatype.
    static let metatypeMembers: Set<String> = ["Type", "Protocol"]

    /// The Swift names of an entity's stored properties, its ancestors' included (a class cannot redeclare one):
    /// root first, and in each entity the names Swift can spell as they are before the ones it must respell; a
    /// metatype member gets a `_` suffix and a spelling already taken a number (`a__b`, `a__b_2`). Deterministic, so
    /// an ancestor's names are the same in every sub-entity. A name that differs from the model's is mapped back
    /// with `originalName:`.
    static func memberNames(of entity: ObjectModel.Entity, in model: ObjectModel) -> [String: String] {
        var names: [String: String] = [:]
        var taken: Set<String> = []
        for declaring in model.ancestry(of: entity).reversed() {
            let properties = (declaring.attributes.map(\.name) + declaring.relationships.map(\.name)).sorted()
            let asTheyAre = properties.filter { isIdentifier($0) && !metatypeMembers.contains($0) }
            for name in asTheyAre + properties.filter({ !asTheyAre.contains($0) }) where names[name] == nil {
                var base = swiftName(name)
                if metatypeMembers.contains(base) { base += "_" }
                var spelled = base
                var number = 2
                while taken.contains(spelled.trimmingBackticks) {
                    spelled = "\(base.trimmingBackticks)_\(number)"
                    number += 1
                }
                taken.insert(spelled.trimmingBackticks)
                names[name] = spelled
            }
        }
        return names
    }

    /// `name`, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// True when `name` is a Swift identifier as it is (letters, digits and underscores, not starting with a digit;
    /// a keyword still needs backticks).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The Swift spelling of a model's entity or property name: the name itself (in backticks when it is a keyword),
    /// or, for a name Swift cannot spell (`x-y`, `2nd`), one with `_` for each character it cannot have, which the
    /// caller maps back to the model's name (`@Attribute(originalName:)`).
    static func swiftName(_ name: String) -> String {
        guard !isIdentifier(name) else { return identifier(name) }
        var spelled = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" ? $0 : "_"
                }))
        if spelled.unicodeScalars.first.map({ ("0"..."9").contains($0) }) ?? true { spelled = "_" + spelled }
        return identifier(spelled)
    }

    /// Whether Swift spells the model's `name` as it is (backticks aside): otherwise `originalName:` keeps it.
    static func keeps(_ name: String, as member: String) -> Bool {
        member.trimmingBackticks == name
    }

    /// `name` as a Swift type-name fragment: letters, digits and underscores only, never starting with a digit.
    static func typeFragment(_ name: String) -> String {
        var result = String(
            name.unicodeScalars.filter {
                ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") && $0.isASCII
            }.map(Character.init))
        if result.isEmpty { result = "Model" }
        if result.first!.isNumber { result = "V" + result }
        return result
    }
}

extension String {
    /// The identifier without the backticks a keyword is written in.
    fileprivate var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self
    }
}
