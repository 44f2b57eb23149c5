import Foundation
import TaskInterchange

/// The `tasks` command: dispatches to a subcommand and maps every error to a message and an exit code.
enum Tasks {
    static let version = "0.1.0"

    // Immutable after initialization; the closures are static functions.
    nonisolated(unsafe) static let commands: [String: (description: CommandDescription, run: ([String]) throws -> Int32)] = [
        "export": (ExportCommand.description, ExportCommand.run),
        "import": (ImportCommand.description, ImportCommand.run),
        "validate": (ValidateCommand.description, ValidateCommand.run),
        "inspect": (InspectCommand.description, InspectCommand.run),
        "generate": (GenerateCommand.description, GenerateCommand.run),
        "model": (ModelCommand.description, ModelCommand.run),
        "diff": (DiffCommand.description, DiffCommand.run),
        "verify": (VerifyCommand.description, VerifyCommand.run),
        "migrate": (MigrateCommand.description, MigrateCommand.run),
    ]

    static let help = """
        OVERVIEW: Move task-manager data out of Core Data stores into a versioned JSON interchange file, check its
        referential integrity, and rebuild the object graph in another store.

        USAGE: tasks <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          export                  Export a Core Data store to an interchange file.
          import                  Validate an interchange file and import it into a store, all or nothing.
          validate                Check an interchange file's structure and referential integrity.
          inspect                 Describe a store: entities, columns, join tables, mapping and integrity.
          model                   Read the app's model: hashes, identify a store's version, new stores, SwiftData code, lint.
          diff                    Compare two graphs (archives or stores) record by record (exit 0 same, 1 different).
          verify                  Check that a store holds what an interchange file holds (exit 0 yes, 1 no).
          migrate                 Back up a legacy store, validate, migrate it into a new store, verify.

          See 'tasks help <subcommand>' for detailed help.

        """

    static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            Console.error(help)
            return ExitCode.usage
        }
        switch first {
        case "-h", "--help":
            Console.output(help)
            return ExitCode.ok
        case "--version":
            Console.output(version + "\n")
            return ExitCode.ok
        case "help":
            guard arguments.count > 1 else {
                Console.output(help)
                return ExitCode.ok
            }
            guard let command = commands[arguments[1]] else {
                return report(UsageError("Unknown subcommand '\(arguments[1])'", command: nil))
            }
            Console.output(command.description.help)
            return ExitCode.ok
        default:
            guard let command = commands[first] else {
                return report(UsageError("Unknown subcommand '\(first)'", command: nil))
            }
            let rest = Array(arguments.dropFirst())
            if rest.contains("-h") || rest.contains("--help") {
                Console.output(command.description.help)
                return ExitCode.ok
            }
            do {
                return try Cancellation.$current.withValue(SignalTrap.cancellation) { try command.run(rest) }
            } catch let error as TaskInterchangeError where error.kind == .usage {
                return report(UsageError(error.message, command: command.description))
            } catch {
                return report(error)
            }
        }
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
            Console.error("Error: interrupted by \(SignalTrap.name); \(error.message)\n")
            return ExitCode.code(for: error.kind)
        case let error as TaskInterchangeError:
            Console.error("Error: \(error.message)\n")
            return ExitCode.code(for: error.kind)
        case let error as ArchiveValidationError:
            Console.error(ReportRenderer.text(error.report))
            Console.error("Error: the archive is invalid (\(error.report.errorCount) error\(error.report.errorCount == 1 ? "" : "s")); nothing was written\n")
            return ExitCode.dataError
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
