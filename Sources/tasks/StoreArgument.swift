/// The store a command reads: `--store PATH`, or, for a command that takes no other argument, the path alone
/// (`tasks export old.sqlite`).
enum StoreArgument {
    /// The positional form, for the commands that accept it.
    static let positional = CommandDescription.Positional(
        name: "store", help: "The store, as a shorter way to write --store <path>.")

    /// The store named by `option` or, when `acceptsPositional`, by the one positional.
    /// - Throws: `UsageError` when it is missing or given both ways.
    static func read(
        _ arguments: ParsedArguments, _ option: Option<String>,
        acceptsPositional: Bool = false
    ) throws(UsageError) -> String {
        let positional = acceptsPositional ? arguments.positionals.first : nil
        switch (try arguments.optional(option), positional) {
        case (let store?, nil):
            return store
        case (nil, let store?):
            return store
        case (_?, let other?):
            throw UsageError("Give the store once: '\(option.spec.name) <path>' or the argument '\(other)', not both")
        case (nil, nil):
            var message = "Missing expected argument '\(option.spec.name) <path>'"
            if let store = arguments.positionals.first(where: ParsedArguments.looksLikeStore) {
                message += ShellWord.suggestion([option.spec.name, store])
            }
            throw UsageError(message)
        }
    }
}
