import TaskInterchange

/// The archive a command reads: the positional path, or stdin for nothing or '-'.
struct ArchiveArgument {
    static func positional(_ help: String) -> CommandDescription.Positional {
        CommandDescription.Positional(name: "file", help: help)
    }

    var path: String?

    init(_ arguments: ParsedArguments) {
        path = arguments.positionals.first.flatMap { $0 == "-" ? nil : $0 }
    }

    /// Opens the archive (stdin is read once into memory, so it can be streamed more than once).
    /// - Throws: `TaskInterchangeError` (`.noInput` for a missing file, `.io`).
    func open() throws -> ArchiveInput {
        guard let path else { return try ArchiveInput.standardInput() }
        return try ArchiveInput(path: path)
    }
}
