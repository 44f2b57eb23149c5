import TaskInterchange

/// `--mapping FILE`: the path given, read by the library when the command runs.
struct MappingFile {
    var path: String?

    init(_ arguments: ParsedArguments, _ option: Option<String>) throws(UsageError) {
        path = try arguments.optional(option)
    }

    /// The mapping, nil when none was given.
    /// - Throws: `TaskInterchangeError` (`.noInput`, `.invalidData` with a JSON path).
    func load() throws(TaskInterchangeError) -> StoreMapping? {
        try path.map { path throws(TaskInterchangeError) in try StoreMapping(contentsOf: path) }
    }

    /// Loads the mapping into an export's or import's options, with its path to name it in messages.
    /// - Throws: `TaskInterchangeError` (`.noInput`, `.invalidData` with a JSON path).
    func load(into mapping: inout StoreMapping?, source: inout String) throws(TaskInterchangeError) {
        guard let path else { return }
        mapping = try load()
        source = path
    }
}
