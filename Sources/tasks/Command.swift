/// A subcommand of `tasks`, in swift-argument-parser's manner: its options as typed properties, read from the
/// parsed arguments by `init`, checked together by `validate`, then `run` calls the library and prints.
///
/// Adding an option: declare it as a static `Option`/`Flag` (or use a shared one from `SharedOptions`), list it in
/// `description`, and read it into a property in `init`. Adding a command: a type conforming to this protocol in its
/// own file, and its name in `Tasks.commands` (or `ModelCommand.subcommands`).
protocol Command: Subcommand {
    /// Reads the parsed arguments into the command's properties.
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Checks the options together (combinations that contradict each other); called after `init`.
    func validate() throws(UsageError)
    /// Does the work; the exit status.
    func run() throws -> Int32
}

extension Command {
    func validate() throws(UsageError) {}

    /// Parses, validates and runs `arguments` (those after the command's name).
    static func main(_ arguments: [String]) throws -> Int32 {
        let command: Self
        do {
            command = try Self(ParsedArguments(arguments, for: description))
            try command.validate()
        } catch {
            throw UsageError(error.message, command: error.command ?? description)
        }
        return try command.run()
    }
}

/// What `tasks` dispatches to: a command, or a group of commands (`model`).
protocol Subcommand: Sendable {
    /// Name, help text, options and positionals.
    static var description: CommandDescription { get }
    /// The description whose help `--help` after these arguments (those after the subcommand's name) shows: a group
    /// shows the one of the subcommand they name.
    static func description(for arguments: [String]) -> CommandDescription
    /// Runs the arguments after the subcommand's name; the exit status.
    static func main(_ arguments: [String]) throws -> Int32
}

extension Subcommand {
    static func description(for arguments: [String]) -> CommandDescription { description }
}
