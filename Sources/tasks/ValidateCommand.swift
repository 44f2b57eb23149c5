import TaskInterchange

enum ValidateCommand {
    static let description = CommandDescription(name: "validate", abstract: "pending", options: [])
    static func run(_ arguments: [String]) throws -> Int32 { 70 }
}
