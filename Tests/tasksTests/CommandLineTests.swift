import Foundation
import Testing

@Suite("Command line")
struct CommandLineTests {
    @Test("--help and --version print to stdout and exit 0")
    func help() throws {
        let help = try TasksBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
        #expect(help.stdout.contains("SUBCOMMANDS:"))
        #expect(help.stderr.isEmpty)
        for command in ["export", "import", "validate", "inspect"] {
            let sub = try TasksBinary.run([command, "--help"])
            #expect(sub.status == 0)
            #expect(sub.stdout.contains("USAGE: tasks \(command)"), "\(command)")
            #expect(try TasksBinary.run(["help", command]).stdout == sub.stdout)
        }
        let version = try TasksBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
    }

    @Test("usage errors say what, show the usage line and exit 64")
    func usageErrors() throws {
        let missing = try TasksBinary.run(["export"])
        #expect(missing.status == 64)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("Error: Missing expected argument '--store <path>'\nUsage: tasks export --store <path>"))
        #expect(missing.stderr.hasSuffix("  See 'tasks export --help' for more information.\n"))
        let unknown = try TasksBinary.run(["import", "--store", "x.sqlite", "--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: Unknown option '--frobnicate'\n"))
        let badValue = try TasksBinary.run(["export", "--store", "x", "--format-version", "3"])
        #expect(badValue.status == 64)
        #expect(badValue.stderr.hasPrefix("Error: The value '3' is invalid for '--format-version <version>' (expected one of: 1, 2)"))
        let subcommand = try TasksBinary.run(["frob"])
        #expect(subcommand.status == 64)
        #expect(subcommand.stderr.hasPrefix("Error: Unknown subcommand 'frob'\n"))
        #expect(try TasksBinary.run([]).status == 64)
    }

    @Test("missing inputs exit 66, unreadable data 65, uncreatable outputs 73")
    func fileErrors() throws {
        let scratch = try Scratch()
        let noStore = try TasksBinary.run(["export", "--store", scratch.path("absent.sqlite")])
        #expect(noStore.status == 66)
        #expect(noStore.stderr == "Error: \(scratch.path("absent.sqlite")): no such store file\n")
        let noFile = try TasksBinary.run(["validate", scratch.path("absent.json")])
        #expect(noFile.status == 66)
        #expect(noFile.stderr.contains("absent.json: no such file"))
        try Data("not a database at all, just text".utf8).write(to: scratch.url.appendingPathComponent("junk.sqlite"))
        let junk = try TasksBinary.run(["export", "--store", scratch.path("junk.sqlite")])
        #expect(junk.status == 65)
        #expect(junk.stderr.contains("not an SQLite database"))
        let store = try scratch.sampleStore()
        let noDirectory = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("missing/dir/out.json")])
        #expect(noDirectory.status == 73)
        #expect(noDirectory.stdout.isEmpty)
        let noMapping = try TasksBinary.run(["export", "--store", store, "--mapping", scratch.path("absent-mapping.json")])
        #expect(noMapping.status == 66)
    }
}
