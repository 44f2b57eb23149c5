/// A command's arguments after parsing: option values, flags and positionals, in swift-argument-parser's manner
/// (`--name value`, `--name=value`, `-o value`, `--` ends options).
struct ParsedArguments {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    /// Parses `arguments` against a command's declared options.
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
                throw UsageError("Unknown option '\(name)'", command: command)
            }
            if option.valueName == nil {
                guard inline == nil else { throw UsageError("The option '\(name)' takes no value", command: command) }
                flags.insert(option.name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else {
                    throw UsageError("Missing value for '\(name) <\(option.valueName!)>'", command: command)
                }
                value = arguments[index]
                index += 1
            }
            if let allowed = option.allowedValues, !allowed.contains(value) {
                throw UsageError("The value '\(value)' is invalid for '\(name) <\(option.valueName!)>' (expected one of: \(allowed.joined(separator: ", ")))", command: command)
            }
            guard values[option.name] == nil else { throw UsageError("The option '\(option.name)' was given twice", command: command) }
            values[option.name] = value
        }
        if positionals.count > command.positionals.count {
            throw UsageError("Unexpected argument '\(positionals[command.positionals.count])'", command: command)
        }
    }

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A required option's value.
    func required(_ name: String, for command: CommandDescription) throws(UsageError) -> String {
        guard let value = values[name] else {
            let option = command.option(named: name)!
            throw UsageError("Missing expected argument '\(name) <\(option.valueName ?? "value")>'", command: command)
        }
        return value
    }
}

/// A usage mistake: printed with the command's usage line, exit 64.
struct UsageError: Error {
    var message: String
    var command: CommandDescription?
    init(_ message: String, command: CommandDescription?) {
        self.message = message
        self.command = command
    }
}
