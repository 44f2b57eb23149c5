/// What a command accepts, used for parsing and for its help text.
struct CommandDescription: Sendable {
    struct Option: Sendable {
        var name: String
        var short: String?
        var valueName: String?
        var help: String
        var allowedValues: [String]?
        var defaultValue: String?
        var isRequired = false
        /// Given more than once, the values join with commas (a list) instead of being refused.
        var joinsRepeats = false
    }

    struct Positional: Sendable {
        var name: String
        var help: String
    }

    var name: String
    var abstract: String
    /// The line in `tasks --help`, when it says more than the abstract.
    var summary: String?
    var discussion: String?
    var positionals: [Positional] = []
    var options: [Option]

    init(
        name: String, abstract: String, summary: String? = nil, discussion: String? = nil,
        positionals: [Positional] = [], options: [any OptionDeclaration]
    ) {
        self.name = name
        self.abstract = abstract
        self.summary = summary
        self.discussion = discussion
        self.positionals = positionals
        self.options = options.map(\.spec)
    }

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
        for option in options { text += Self.row(option) }
        text += Self.row("-h, --help", "Show help information.")
        return text
    }

    /// One option's line of help: its names, value and text, with its default.
    static func row(_ option: Option) -> String {
        var label = option.short.map { "\($0), \(option.name)" } ?? option.name
        if let valueName = option.valueName { label += " <\(valueName)>" }
        return row(label, option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
    }

    static func row(_ label: String, _ help: String) -> String {
        let padded =
            label.count < 24
            ? label + String(repeating: " ", count: 24 - label.count)
            : label + "\n" + String(repeating: " ", count: 26)
        return "  \(padded)\(help)\n"
    }
}
