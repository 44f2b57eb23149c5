import TaskInterchange

enum ExportCommand {
    static let description = CommandDescription(name: "export", abstract: "pending", options: [])
    static func run(_ arguments: [String]) throws -> Int32 { 70 }
}
