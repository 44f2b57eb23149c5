import Foundation
import Testing
@testable import tasks

/// The terminal's progress line: a percentage always, an estimate of the time left from the pace since the first
/// report, and nothing of it when output goes to a pipe.
@Suite("Progress line")
struct ProgressLineTests {
    @Test("percent and time left from the pace since the first report; setup before it does not count")
    func estimate() {
        let line = ProgressLine()
        let start = Date(timeIntervalSinceReferenceDate: 1_000)
        // First report at 10%: no pace yet.
        #expect(
            line.text("importing", fraction: 0.1, detail: "7 of 70 MB", now: start)
                == "importing: 10% (7 of 70 MB)")
        // 20 points in 4 s: the 70 points left take 14 s more.
        #expect(
            line.text("importing", fraction: 0.3, now: start.addingTimeInterval(4))
                == "importing: 30%, about 14 s left")
        #expect(line.text("importing", fraction: 1, now: start.addingTimeInterval(9)) == "importing: 100%")
    }

    @Test("durations read as seconds, minutes or hours")
    func durations() {
        #expect(ProgressLine.duration(6.2) == "7 s")
        #expect(ProgressLine.duration(192) == "3 min 12 s")
        #expect(ProgressLine.duration(3_840) == "1 h 04 min")
    }

    @Test(
        "on a terminal, validate shows percentages; in a pipe, no progress at all",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no script(1) for a pty"))
    func terminalOnly() throws {
        let scratch = try Scratch()
        #expect(try TasksBinary.run(["generate", "--tasks", "20000", "-o", scratch.path("big.sqlite")]).status == 0)
        #expect(
            try TasksBinary.run(["export", "--store", scratch.path("big.sqlite"), "-o", scratch.path("a.json")])
                .status == 0)
        // `script` gives the command a pseudo-terminal; CI must be unset, as progress is never shown under CI.
        let command = "\(TasksBinary.url.path) validate \(scratch.path("a.json"))"
        let terminal = try TasksBinary.runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["-u", "CI", "script", "-qec", command, "/dev/null"],
            stdin: nil, in: nil)
        #expect(terminal.status == 0, "\(terminal.stderr)")
        #expect(terminal.stdout.contains("validating: 0% (0 of "))
        #expect(terminal.stdout.contains("validating: 100%"))
        #expect(terminal.stdout.contains(": valid (format version 2)"))
        let piped = try TasksBinary.run(["validate", scratch.path("a.json")])
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("%") && !piped.stderr.contains("\r"))
    }
}
