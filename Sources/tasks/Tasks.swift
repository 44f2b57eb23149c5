import Foundation
import TaskInterchange

/// The `tasks` command: dispatches to a subcommand and maps every error to a message and an exit code.
enum Tasks {
    /// Every subcommand, in the order `tasks --help` lists them; `model` has subcommands of its own.
    static let commands: [any Subcommand.Type] = [
        ExportCommand.self, ImportCommand.self, ValidateCommand.self, InspectCommand.self, GenerateCommand.self,
        ModelCommand.self, DiffCommand.self, VerifyCommand.self, MigrateCommand.self,
    ]

    static let help = """
        OVERVIEW: Move task-manager data out of Core Data stores into a versioned JSON interchange file, check its
        referential integrity, and rebuild the object graph in another store.

        USAGE: tasks <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:

        """
        + commands.map {
            CommandDescription.row($0.description.name, $0.description.summary ?? $0.description.abstract)
        }.joined() + """

              See 'tasks help <subcommand>' for detailed help.

            """

    static func main(_ arguments: [String]) -> Int32 {
        do {
            return try dispatch(arguments)
        } catch {
            return report(error)
        }
    }

    /// Runs the subcommand, or prints help or the version; the exit status.
    static func dispatch(_ arguments: [String]) throws -> Int32 {
        guard let first = arguments.first else {
            Console.error(help)
            return ExitCode.usage
        }
        switch first {
        case "-h", "--help":
            try Console.output(help)
            return ExitCode.ok
        case "--version":
            try Console.output(ToolInfo.version + "\n")
            return ExitCode.ok
        case "help":
            guard arguments.count > 1 else {
                try Console.output(help)
                return ExitCode.ok
            }
            guard let command = command(named: arguments[1]) else { throw unknownSubcommand(arguments[1]) }
            try Console.output(command.description(for: Array(arguments.dropFirst(2))).help)
            return ExitCode.ok
        default:
            guard let command = command(named: first) else { throw unknownSubcommand(first) }
            let rest = Array(arguments.dropFirst())
            if rest.contains("-h") || rest.contains("--help") {
                try Console.output(command.description(for: rest).help)
                return ExitCode.ok
            }
            do {
                return try Cancellation.$current.withValue(SignalTrap.cancellation) { try command.main(rest) }
            } catch let error as TaskInterchangeError where error.kind == .usage {
                throw UsageError(error.commandLineMessage, command: command.description)
            }
        }
    }

    static func command(named name: String) -> (any Subcommand.Type)? {
        commands.first { $0.description.name == name }
    }

    static func unknownSubcommand(_ name: String) -> UsageError {
        let names = commands.map { $0.description.name }
        return UsageError("Unknown subcommand '\(name)'" + Suggestion.phrase(for: name, among: names))
    }

    /// Prints an error in swift-argument-parser's wording and returns its exit code.
    static func report(_ error: any Error) -> Int32 {
        switch error {
        case let error as UsageError:
            var text = "Error: \(error.message)\n"
            if let command = error.command {
                text += "Usage: \(command.usage)\n  See 'tasks \(command.name) --help' for more information.\n"
            } else {
                text += "Usage: tasks <subcommand>\n  See 'tasks --help' for more information.\n"
            }
            Console.error(text)
            return ExitCode.usage
        case let error as TaskInterchangeError where error.kind == .cancelled:
            Console.error("Error: interrupted by \(SignalTrap.name); \(error.commandLineMessage)\n")
            return ExitCode.code(for: error.kind)
        case let error as TaskInterchangeError:
            Console.error("Error: \(error.commandLineMessage)\n")
            return ExitCode.code(for: error.kind)
        case let error as ArchiveValidationError:
            Console.error(CommandLineText.rewrite(error.report.notices))
            if error.report.issues.contains(where: \.concernsWholeFile) {
                Console.error("Error: \(CommandLineText.rewrite(error.description))\n")
            } else if error.report.existingRecordCount != nil {
                Console.error(
                    "Error: \(error.report.verdict), so nothing was written; \(CommandLineText.existingIDsAdvice)\n")
            } else {
                let count = error.report.errorCount
                Console.error(
                    "Error: the archive is invalid (\(count) error\(count == 1 ? "" : "s")); nothing was written\n")
            }
            return ExitCode.dataError
        case let error as ByteSinkError where error.code == EBADF && Console.standardOutputIsClosed:
            Console.error("Error: standard output is closed, so nothing could be written; redirect it to a file\n")
            return ExitCode.ioError
        case let error as ByteSinkError:
            Console.error("Error: \(error.description)\n")
            return ExitCode.ioError
        case let error as ArchiveWritingError:
            // A value the format cannot hold is bad data; the other cases are bugs in the caller.
            if case .unrepresentable = error {
                Console.error("Error: \(error)\n")
                return ExitCode.dataError
            }
            Console.error("Error: internal error: \(error)\n")
            return ExitCode.internalError
        case let error as ArchiveDecodingError:
            Console.error("Error: \(error)\n")
            return ExitCode.dataError
        default:
            Console.error("Error: internal error: \(error)\n")
            return ExitCode.internalError
        }
    }
}
