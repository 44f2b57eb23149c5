/// What a command accepts, used for parsing and for its help text.
struct CommandDescription {
    struct Option {
        var name: String
        var short: String?
        var valueName: String?
        var help: String
        var allowedValues: [String]?
        var defaultValue: String?
        var isRequired = false
    }

    struct Positional {
        var name: String
        var help: String
    }

    var name: String
    var abstract: String
    var discussion: String?
    var positionals: [Positional] = []
    var options: [Option]

    func option(named name: String) -> Option? {
        options.first { $0.name == name || $0.short == name }
    }

    var usage: String {
        var parts = ["tasks", name]
        for option in options {
            let text = option.valueName.map { "\(option.short ?? option.name) <\($0)>" } ?? option.name
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        for positional in positionals { parts.append("[<\(positional.name)>]") }
        parts.append("[--help]")
        return parts.joined(separator: " ")
    }

    var help: String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usage)\n"
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in positionals { text += Self.row("<\(positional.name)>", positional.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            var label = option.short.map { "\($0), \(option.name)" } ?? option.name
            if let valueName = option.valueName { label += " <\(valueName)>" }
            var help = option.help
            if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
            text += Self.row(label, help)
        }
        text += Self.row("-h, --help", "Show help information.")
        return text
    }

    static func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 24 ? label + String(repeating: " ", count: 24 - label.count) : label + "\n" + String(repeating: " ", count: 26)
        return "  \(padded)\(help)\n"
    }
}
