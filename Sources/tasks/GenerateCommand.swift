import Foundation
import TaskInterchange

/// `tasks generate` (hidden, for `bench/run`): a deterministic synthetic store of any size in the Core Data layout.
enum GenerateCommand {
    static let description = CommandDescription(
        name: "generate",
        abstract: "Create a synthetic task store for benchmarks (100 projects, 20 tags, 2 tags per task, 3 subtasks on every 10th task, notes on half, due dates on a third).",
        options: [
            .init(name: "--tasks", valueName: "count", help: "How many tasks.", isRequired: true),
            .init(name: "--output", short: "-o", valueName: "path", help: "The store to create; must not exist.", isRequired: true),
            .init(name: "--seed", valueName: "number", help: "Random seed.", defaultValue: "1"),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        let countText = try parsed.required("--tasks", for: description)
        guard let count = Int(countText), count >= 0 else {
            throw UsageError("The value '\(countText)' is invalid for '--tasks <count>'", command: description)
        }
        let output = try parsed.required("--output", for: description)
        guard let seed = UInt64(parsed.value("--seed") ?? "1") else {
            throw UsageError("The value '\(parsed.value("--seed")!)' is invalid for '--seed <number>'", command: description)
        }
        let started = Date()
        let result = try SyntheticArchive(tasks: count, seed: seed).makeStore(at: output)
        Console.error("Generated \(ReportRenderer.counts(result.report.counts)) in \(output) in \(String(format: "%.2f", Date().timeIntervalSince(started))) s\n")
        return ExitCode.ok
    }
}
