import TaskInterchange

enum ImportCommand {
    static let description = CommandDescription(name: "import", abstract: "pending", options: [])
    static func run(_ arguments: [String]) throws -> Int32 { 70 }
}
