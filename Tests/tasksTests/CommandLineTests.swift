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
        #expect(
            missing.stderr.hasPrefix(
                "Error: Missing expected argument '--store <path>'\nUsage: tasks export "
                    + "--store <path>"))
        #expect(missing.stderr.hasSuffix("  See 'tasks export --help' for more information.\n"))
        let unknown = try TasksBinary.run(["import", "--store", "x.sqlite", "--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: Unknown option '--frobnicate'\n"))
        let badValue = try TasksBinary.run(["export", "--store", "x", "--format-version", "3"])
        #expect(badValue.status == 64)
        #expect(
            badValue.stderr.hasPrefix(
                "Error: The value '3' is invalid for '--format-version <version>' (expected "
                    + "one of: 1, 2)"))
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
        let noMapping = try TasksBinary.run([
            "export", "--store", store, "--mapping", scratch.path("absent-mapping.json"),
        ])
        #expect(noMapping.status == 66)
    }

    @Test("near-miss options, values and subcommands get 'Did you mean'; a name nothing is near gets none")
    func didYouMean() throws {
        let option = try TasksBinary.run(["export", "--stor", "x.sqlite"])
        #expect(option.status == 64)
        #expect(
            option.stderr.hasPrefix(
                "Error: Unknown option '--stor'. Did you mean '--store'?\nUsage: tasks export "))
        let prefix = try TasksBinary.run(["import", "--store", "x.sqlite", "--busy", "10"])
        #expect(prefix.stderr.hasPrefix("Error: Unknown option '--busy'. Did you mean '--busy-timeout'?\n"))
        let value = try TasksBinary.run(["import", "--store", "x.sqlite", "--mode", "upsrt"])
        #expect(
            value.stderr.hasPrefix(
                "Error: The value 'upsrt' is invalid for '--mode <mode>' (expected one of: "
                    + "insert, upsert, skip, merge, replace). Did you mean 'upsert'?\n"))
        let subcommand = try TasksBinary.run(["exprot", "--store", "x.sqlite"])
        #expect(subcommand.status == 64)
        #expect(subcommand.stderr.hasPrefix("Error: Unknown subcommand 'exprot'. Did you mean 'export'?\n"))
        let model = try TasksBinary.run(["model", "hashs", "m"])
        #expect(model.status == 64)
        #expect(
            model.stderr.hasPrefix(
                "Error: Unknown subcommand 'model hashs' (expected one of: diagram, hashes, identify, "
                    + "lint, new-store, swiftdata). Did you mean 'model hashes'?\n"))
        #expect(
            try TasksBinary.run(["import", "--store", "x", "--frobnicate"]).stderr
                .hasPrefix("Error: Unknown option '--frobnicate'\n"))
        #expect(try TasksBinary.run(["zzz"]).stderr.hasPrefix("Error: Unknown subcommand 'zzz'\n"))
    }

    @Test("export and inspect take the store as their argument; given twice, or where another argument goes, a hint")
    func positionalStore() throws {
        let scratch = try Scratch()
        let store = try scratch.sampleStore()
        let named = try TasksBinary.run(["export", "--store", store])
        let positional = try TasksBinary.run(["export", store])
        #expect(named.status == 0 && positional.status == 0)
        #expect(contentLines(positional.stdout) == contentLines(named.stdout))
        #expect(contentLines(positional.stdout).count > 70)
        let inspectNamed = try TasksBinary.run(["inspect", "--store", store])
        let inspectPositional = try TasksBinary.run(["inspect", store])
        #expect(inspectPositional.status == 0 && inspectPositional.stdout == inspectNamed.stdout)
        let twice = try TasksBinary.run(["export", "--store", store, store])
        #expect(twice.status == 64)
        #expect(
            twice.stderr.hasPrefix(
                "Error: Give the store once: '--store <path>' or the argument '\(store)', not "
                    + "both\n"))
        // import's argument is the archive: a store there gets a hint instead.
        let importing = try TasksBinary.run(["import", store])
        #expect(importing.status == 64)
        #expect(
            importing.stderr.hasPrefix(
                "Error: Missing expected argument '--store <path>'. Did you mean '--store "
                    + "\(store)'?\n"))
        let identify = try TasksBinary.run(["model", "identify", "--model", "m.xcdatamodeld", store])
        #expect(identify.status == 64)
        #expect(identify.stderr.hasPrefix("Error: Unexpected argument '\(store)'. Did you mean '--store \(store)'?\n"))
        let sample = URL(fileURLWithPath: TasksBinary.sample("TaskManager.sqlite"))
        #expect(try scratch.bytes("TaskManager.sqlite") == Data(contentsOf: sample))
    }

    @Test("a suggestion with a path a shell would split is quoted so that pasting it works")
    func quotedSuggestion() throws {
        let scratch = try Scratch()
        let store = scratch.path("it's my store.sqlite")
        try FileManager.default.copyItem(atPath: try scratch.sampleStore(), toPath: store)
        let archive = TasksBinary.sample("TaskManager.v2.json")
        let verify = try TasksBinary.run(["verify", archive, store])
        #expect(verify.status == 64)
        let quoted = "'" + store.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let line = "Error: Unexpected argument '\(store)'. Did you mean: --store \(quoted)\n"
        #expect(verify.stderr.hasPrefix(line), "\(verify.stderr)")
        // Pasted after the command, the suggestion names the store as one argument.
        let pasted = try TasksBinary.shell("\"$TASKS\" verify --store \(quoted) '\(archive)'")
        #expect(pasted.status <= 1 && pasted.stdout.contains("Store: \(store)\n"), "\(pasted.stderr)")
        let missing = try TasksBinary.run(["import", store])
        #expect(
            missing.stderr.hasPrefix(
                "Error: Missing expected argument '--store <path>'. Did you mean: --store \(quoted)\n"))
    }

    @Test("an import's headline says what happened: all inserted, or how many were updated, unchanged or skipped")
    func headlines() throws {
        let scratch = try Scratch()
        let store = scratch.path("new.sqlite")
        let archive = TasksBinary.sample("TaskManager.v2.json")
        let first = try TasksBinary.run(["import", "--store", store, archive])
        #expect(first.status == 0)
        #expect(
            first.stderr.hasPrefix(
                "Imported 5 projects, 4 categories, 10 tags, 44 tasks, 84 subtasks into "
                    + "\(store) (new store) in "))
        for (mode, verb) in [("skip", "skipped"), ("upsert", "unchanged")] {
            let again = try TasksBinary.run(["import", "--store", store, "--mode", mode, archive])
            #expect(again.status == 0)
            let headline = again.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(headline.hasPrefix("Nothing written to \(store) in "), "\(mode)")
            #expect(
                headline.hasSuffix(
                    " s: 147 \(verb) (the archive holds 5 projects, 4 categories, 10 tags, 44 "
                        + "tasks, 84 subtasks)"), "\(mode)")
        }
        var text = try String(contentsOfFile: archive, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"name\":\"Archive 1999\"", with: "\"name\":\"Archive 2000\"")
        try Data(text.utf8).write(to: scratch.url.appendingPathComponent("edited.json"))
        let edited = try TasksBinary.run(["import", "--store", store, "--mode", "upsert", scratch.path("edited.json")])
        #expect(edited.status == 0)
        #expect(
            edited.stderr.split(separator: "\n").first?.hasSuffix(
                " s: 0 inserted, 1 updated, 146 unchanged (the "
                    + "archive holds 5 projects, 4 categories, 10 tags, 44 tasks, 84 subtasks)") == true)
    }

    @Test(
        "each command's validation step refuses options that contradict each other, before anything is read",
        arguments: [
            (["export", "absent.sqlite", "--pretty", "--ndjson"], "--pretty and --ndjson cannot be combined"),
            (["export", "absent.sqlite", "--ndjson", "--format-version", "1"], "--ndjson needs --format-version 2"),
            (
                ["import", "--store", "absent.sqlite", "--match", "name", "--mode", "replace"],
                "--match pairs records with the target's, and --mode replace removes them first"
            ),
            (
                ["import", "--store", "absent.sqlite", "--verify", "--mode", "merge"],
                "--verify checks that the store holds the file as it is, which --match and --mode merge do not intend; "
                    + "run 'tasks diff' to see what a merge changed"
            ),
            (
                ["import", "--store", "absent.sqlite", "--modified-property", "stamp"],
                "--modified-property applies to --mode merge"
            ),
            (
                ["import", "--store", "absent.sqlite", "--model-version", "v2"],
                "--model-version needs --model-from <model>"
            ),
            (
                ["export", "absent.sqlite", "--busy-timeout", "soon"],
                "The value 'soon' is invalid for '--busy-timeout <ms>' (expected milliseconds)"
            ),
            (
                ["diff", "a.json", "b.json", "--limit", "-1"],
                "The value '-1' is invalid for '--limit <n>' (expected a count)"
            ),
        ])
    func validationStep(_ arguments: [String], _ message: String) throws {
        let scratch = try Scratch()
        let run = try TasksBinary.run(arguments, in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: \(message)\nUsage: tasks \(arguments[0]) "), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }
}
