/// An option that takes a value, read as `Value`: its declaration (name, help, default) and its conversion, in one
/// place. Commands declare them as static constants, list them in their `CommandDescription`, and read them with
/// `ParsedArguments.value(_:)` or `optional(_:)`, so a value is converted and checked once, by name nowhere else.
struct Option<Value: Sendable>: OptionDeclaration, Sendable {
    let spec: CommandDescription.Option
    /// The value when the option is absent.
    let defaultValue: Value?
    /// The value a text stands for, or nil when it stands for none (a usage error naming the option follows).
    let convert: @Sendable (String) -> Value?
    /// What a valid value is, for that error ("expected milliseconds").
    let expected: String?

    /// An option whose value is converted by `convert`.
    init(
        _ name: String, short: String? = nil, valueName: String, help: String, default defaultValue: Value? = nil,
        defaultText: String? = nil, isRequired: Bool = false, allowedValues: [String]? = nil, expected: String? = nil,
        joinsRepeats: Bool = false, convert: @escaping @Sendable (String) -> Value?
    ) {
        spec = CommandDescription.Option(
            name: name, short: short, valueName: valueName, help: help,
            allowedValues: allowedValues, defaultValue: defaultText,
            isRequired: isRequired, joinsRepeats: joinsRepeats)
        self.defaultValue = defaultValue
        self.convert = convert
        self.expected = expected
    }
}

extension Option where Value == String {
    /// An option whose value is the text itself (a path, a name).
    init(
        _ name: String, short: String? = nil, valueName: String, help: String, default defaultValue: String? = nil,
        isRequired: Bool = false, joinsRepeats: Bool = false
    ) {
        self.init(
            name, short: short, valueName: valueName, help: help, default: defaultValue,
            defaultText: defaultValue, isRequired: isRequired, joinsRepeats: joinsRepeats
        ) { $0 }
    }
}

extension Option where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// An option whose value is one of an enumeration's raw values (listed in the help and in errors).
    init(_ name: String, valueName: String, help: String, default defaultValue: Value? = nil) {
        self.init(
            name, valueName: valueName, help: help, default: defaultValue, defaultText: defaultValue?.rawValue,
            allowedValues: Value.allCases.map(\.rawValue)
        ) { Value(rawValue: $0) }
    }
}

extension Option where Value: FixedWidthInteger & Sendable {
    /// A whole-number option; `range` bounds it, and `expected` says what it counts in the error for a bad value.
    init(
        _ name: String, short: String? = nil, valueName: String, help: String, default defaultValue: Value? = nil,
        isRequired: Bool = false, range: PartialRangeFrom<Value> = 0..., expected: String? = nil
    ) {
        self.init(
            name, short: short, valueName: valueName, help: help, default: defaultValue,
            defaultText: defaultValue.map { String($0) }, isRequired: isRequired, expected: expected
        ) { text in
            Value(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

/// An option without a value: present or not.
struct Flag: OptionDeclaration, Sendable {
    let spec: CommandDescription.Option

    init(_ name: String, help: String) {
        spec = CommandDescription.Option(name: name, help: help)
    }
}

/// What a command's option list holds: any option or flag, by its declaration.
protocol OptionDeclaration: Sendable {
    var spec: CommandDescription.Option { get }
}
