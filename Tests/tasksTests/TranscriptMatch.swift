import Foundation

/// A transcript's output as the documentation shows it, against what the command printed (stdout and stderr in the
/// order written). `…` on a line of its own (indented or not) stands for any number of lines, none included; `…`
/// within a line stands for any run of characters on that line (a time, a date, a temporary name). Trailing spaces
/// and trailing blank lines are not compared.
struct TranscriptMatch {
    static let marker = "…"

    /// The documented lines, each with its line number in the document.
    var expected: [(number: Int, text: String)]
    var printed: [String]

    init(expected: [(number: Int, text: String)], printed: String) {
        self.expected = Self.trimmed(expected.map { (number: $0.number, text: Self.rightTrimmed($0.text)) }) { $0.text }
        self.printed = Self.trimmed(
            printed.split(separator: "\n", omittingEmptySubsequences: false).map {
                Self.rightTrimmed(String($0))
            }
        ) { $0 }
    }

    static func rightTrimmed(_ line: String) -> String {
        var line = Substring(line)
        while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
        return String(line)
    }

    static func trimmed<T>(_ lines: [T], text: (T) -> String) -> [T] {
        var lines = lines
        while let last = lines.last, text(last).isEmpty { lines.removeLast() }
        return lines
    }

    static func isLineWildcard(_ pattern: String) -> Bool {
        pattern.trimmingCharacters(in: .whitespaces) == marker
    }

    /// Whether one printed line fits one documented line, `…` matching any run of characters.
    static func lineMatches(_ pattern: String, _ line: String) -> Bool {
        let parts = pattern.components(separatedBy: marker)
        guard parts.count > 1 else { return pattern == line }
        guard line.hasPrefix(parts[0]) else { return false }
        var rest = line[line.index(line.startIndex, offsetBy: parts[0].count)...]
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(parts[parts.count - 1])
    }

    /// `reach[i][j]`: the first `i` documented lines fit the first `j` printed ones.
    var reach: [[Bool]] {
        var reach = Array(repeating: Array(repeating: false, count: printed.count + 1), count: expected.count + 1)
        reach[0][0] = true
        for i in expected.indices {
            for j in 0...printed.count where reach[i][j] {
                if Self.isLineWildcard(expected[i].text) {
                    for k in j...printed.count { reach[i + 1][k] = true }
                } else if j < printed.count && Self.lineMatches(expected[i].text, printed[j]) {
                    reach[i + 1][j + 1] = true
                }
            }
        }
        return reach
    }

    var matches: Bool { reach[expected.count][printed.count] }

    /// Where the output stops fitting: the documented line that fits no further printed line (nil when every
    /// documented line fits and the output goes on), and the printed line it met (nil at the end of the output).
    var mismatch: (expected: Int?, printed: Int?) {
        let reach = reach
        let fitted = reach.lastIndex { $0.contains(true) } ?? 0
        let printedLine = reach[fitted].lastIndex(of: true) ?? 0
        return (
            fitted < expected.count ? fitted : nil, printedLine < printed.count ? printedLine : nil
        )
    }

    /// The failure message: the first line that differs, named by file and line, then both sides in full.
    func report(file: String, commandLine: Int, command: String) -> String {
        let (documented, met) = mismatch
        var lines = ["\(file):\(commandLine): the output of `\(command)` differs from the transcript"]
        let found = met.map { "printed line \($0 + 1): \"\(printed[$0])\"" } ?? "the output ends there"
        if let documented {
            let line = expected[documented]
            lines.append("  \(file):\(line.number) expects \"\(line.text)\"; \(found)")
        } else {
            lines.append("  the transcript ends at \(file):\(expected.last?.number ?? commandLine); \(found)")
        }
        lines.append("  expected (`…` on a line of its own: any lines; within a line: any characters):")
        lines += expected.map { "  \(file):\($0.number)| \($0.text)" }
        lines.append("  printed:")
        lines += printed.map { "  | \($0)" }
        return lines.joined(separator: "\n")
    }
}
