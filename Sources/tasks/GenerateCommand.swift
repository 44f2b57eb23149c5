import Foundation
import TaskInterchange

/// `tasks generate` (for tests, benchmarks and the README's examples): a deterministic synthetic store of any size
/// in the Core Data layout.
struct GenerateCommand: Command {
    static let tasks = Option<Int>("--tasks", valueName: "count", help: "How many tasks.", isRequired: true)
    static let output = SharedOptions.output("path", "The store to create; must not exist.", isRequired: true)
    static let seed = Option<UInt64>("--seed", valueName: "number", help: "Random seed.", default: 1)

    static let description = CommandDescription(
        name: "generate",
        abstract:
            "Create a synthetic task store for tests and examples (100 projects, 20 tags, 2 tags per task, 3 subtasks "
            + "on every 10th task, notes on half, due dates on a third).",
        summary: "Create a synthetic task store of any size, for tests, benchmarks and examples.",
        options: [tasks, output, seed])

    var tasks: Int
    var output: String
    var seed: UInt64

    init(_ arguments: ParsedArguments) throws(UsageError) {
        tasks = try arguments.value(Self.tasks)
        output = try arguments.value(Self.output)
        seed = try arguments.value(Self.seed)
    }

    func run() throws -> Int32 {
        let started = Date()
        let result = try SyntheticArchive(tasks: tasks, seed: seed).makeStore(at: output)
        Console.error(
            "Generated \(result.report.counts) in \(output) in "
                + "\(String(format: "%.2f", Date().timeIntervalSince(started))) s\n")
        return ExitCode.ok
    }
}
