import Foundation
import TaskInterchange

/// A command's arguments after parsing, in swift-argument-parser's manner (`--name value`, `--name=value`,
/// `-o value`, `--` ends options): the given options' texts and the positionals, read back through the typed
/// `Option` and `Flag` declarations, so each value is converted and checked in one place.
struct ParsedArguments {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Parses `arguments` against a command's declared options and positionals.
    init(_ arguments: [String], for command: CommandDescription) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = command.option(named: name) else {
                let names = command.options.map(\.name) + ["--help"]
                throw UsageError("Unknown option '\(name)'" + Suggestion.phrase(for: name, among: names))
            }
            guard let valueName = option.valueName else {
                guard inline == nil else { throw UsageError("The option '\(name)' takes no value") }
                flags.insert(option.name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else {
                    throw UsageError("Missing value for '\(name) <\(valueName)>'")
                }
                value = arguments[index]
                index += 1
            }
            if let allowed = option.allowedValues, !allowed.contains(value) {
                throw UsageError(
                    "The value '\(value)' is invalid for '\(name) <\(valueName)>' (expected one of: "
                        + allowed.joined(separator: ", ") + ")" + Suggestion.phrase(for: value, among: allowed))
            }
            if let earlier = values[option.name] {
                guard option.joinsRepeats else { throw UsageError("The option '\(option.name)' was given twice") }
                values[option.name] = earlier + "," + value
            } else {
                values[option.name] = value
            }
        }
        if positionals.count > command.positionals.count {
            let extra = positionals[command.positionals.count]
            var message = "Unexpected argument '\(extra)'"
            if command.option(named: "--store") != nil, values["--store"] == nil, Self.looksLikeStore(extra) {
                message += ShellWord.suggestion(["--store", extra])
            }
            throw UsageError(message)
        }
    }

    /// An option's value: the given one, else its default.
    /// - Throws: `UsageError` when the option is absent and has no default, or its text is not a valid value.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let value = try optional(option) else {
            throw UsageError("Missing expected argument '\(option.spec.name) <\(option.spec.valueName ?? "value")>'")
        }
        return value
    }

    /// An option's value: the given one, else its default, else nil.
    /// - Throws: `UsageError` when the given text is not a valid value.
    func optional<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        guard let text = values[option.spec.name] else { return option.defaultValue }
        guard let value = option.convert(text) else {
            let expected = option.expected.map { " (\($0))" } ?? ""
            throw UsageError(
                "The value '\(text)' is invalid for '\(option.spec.name) "
                    + "<\(option.spec.valueName ?? "value")>'"
                    + expected)
        }
        return value
    }

    /// True when the option was given (as opposed to taking its default).
    func isGiven(_ option: some OptionDeclaration) -> Bool {
        values[option.spec.name] != nil || flags.contains(option.spec.name)
    }

    /// True when the flag was given.
    func flag(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// True when `path` names an SQLite file (by its header) or, when it is no readable file, ends like a store name.
    static func looksLikeStore(_ path: String) -> Bool {
        Database.isDatabaseFile(atPath: path)
            || [".sqlite", ".sqlite3", ".db", ".store"].contains { path.lowercased().hasSuffix($0) }
    }
}
