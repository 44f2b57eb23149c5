/// A usage mistake: printed with the command's usage line, exit 64. Commands throw it without a command; the
/// dispatcher names the command that was running.
struct UsageError: Error {
    var message: String
    var command: CommandDescription?

    init(_ message: String, command: CommandDescription? = nil) {
        self.message = message
        self.command = command
    }
}
