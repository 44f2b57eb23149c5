import Foundation
import Testing

/// Every help text, compared verbatim with the reviewed file beside the tests (`Fixtures/help/NAME.txt`). After an
/// intended change, `TASKS_UPDATE_GOLDEN=1 swift test --filter HelpGoldenTests` rewrites them; review the diff.
@Suite("Help texts (golden files)")
struct HelpGoldenTests {
    static let directory = TasksBinary.repository.appendingPathComponent("Tests/tasksTests/Fixtures/help")
    static let commands = ["export", "import", "validate", "inspect", "diff", "verify", "generate", "model", "migrate"]

    /// Compares `text` with the golden file, or rewrites the file when asked to.
    static func check(_ text: String, golden name: String) throws {
        let url = directory.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["TASKS_UPDATE_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "tasks \(name) --help differs from Fixtures/help/\(name).txt")
    }

    @Test("tasks --help is the golden text; with no arguments it goes to stderr with exit 64")
    func top() throws {
        let help = try TasksBinary.run(["--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        try Self.check(help.stdout, golden: "tasks")
        #expect(try TasksBinary.run(["help"]).stdout == help.stdout)
        let bare = try TasksBinary.run([])
        #expect(bare.status == 64 && bare.stdout.isEmpty && bare.stderr == help.stdout)
    }

    @Test(
        "each command's help is the golden text, the same through --help, -h and 'tasks help'",
        arguments: commands)
    func command(_ name: String) throws {
        let help = try TasksBinary.run([name, "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        try Self.check(help.stdout, golden: name)
        #expect(try TasksBinary.run([name, "-h"]).stdout == help.stdout)
        #expect(try TasksBinary.run(["help", name]).stdout == help.stdout)
    }

    @Test("tasks --help lists every command")
    func listing() throws {
        let help = try TasksBinary.run(["--help"]).stdout
        for name in Self.commands { #expect(help.contains("\n  \(name) "), "\(name)") }
    }

    @Test(
        "each model subcommand's help is its own golden text, the same through --help, -h and 'tasks help model'",
        arguments: ModelCommandTests.subcommands)
    func modelSubcommand(_ name: String) throws {
        let help = try TasksBinary.run(["model", name, "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        try Self.check(help.stdout, golden: "model-" + name)
        #expect(help.stdout.contains("\nUSAGE: tasks model \(name) "))
        #expect(try TasksBinary.run(["model", name, "-h"]).stdout == help.stdout)
        #expect(try TasksBinary.run(["help", "model", name]).stdout == help.stdout)
        // Only this subcommand: model's own help lists them all.
        let others = ModelCommandTests.subcommands.filter { $0 != name }
        #expect(others.allSatisfy { !help.stdout.contains("tasks model \($0) ") }, "\(help.stdout)")
    }

    @Test("model's help lists every subcommand's usage line")
    func modelListing() throws {
        let model = try TasksBinary.run(["model", "--help"]).stdout
        for name in ModelCommandTests.subcommands { #expect(model.contains("\n  tasks model \(name) "), "\(name)") }
    }
}
