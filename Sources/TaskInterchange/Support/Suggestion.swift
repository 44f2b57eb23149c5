import Foundation

/// "Did you mean" for near misses: the known name closest to what was typed, when it is close enough to be a typo or
/// an unambiguous beginning. Used for option, command, entity and property names.
package enum Suggestion {
    /// The closest of `candidates` to `typed`, or nil when none is plausibly meant.
    package static func closest(to typed: String, among candidates: [String]) -> String? {
        let prefixed = candidates.filter { $0.hasPrefix(typed) }
        if prefixed.count == 1, typed.count >= 3 { return prefixed[0] }
        let allowed = typed.count <= 4 ? 1 : 2
        let scored = candidates.map { (name: $0, distance: distance(typed, $0)) }.filter { $0.distance <= allowed }
        return scored.min { $0.distance < $1.distance }?.name
    }

    /// " Did you mean 'x'?" or nothing, to append to an error message.
    package static func phrase(for typed: String, among candidates: [String]) -> String {
        closest(to: typed, among: candidates).map { ". Did you mean '\($0)'?" } ?? ""
    }

    /// "; did you mean 'dir/Name'?" for a path that does not exist, naming the entry of its directory whose name is
    /// the same but for case, or the closest typo; nothing when none is. SQLite's sidecars and hidden entries (unless
    /// the name typed is hidden) are never offered.
    package static func nearPath(to path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let typed = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !typed.isEmpty,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)
        else { return "" }
        let candidates = entries.filter { name in
            name != typed && (typed.hasPrefix(".") || !name.hasPrefix("."))
                && !DatabaseFiles.sidecars.contains { name.hasSuffix($0) }
        }
        let lowered = typed.lowercased()
        let near =
            candidates.first { $0.lowercased() == lowered }
            ?? closest(to: lowered, among: candidates.map { $0.lowercased() }).flatMap { match in
                candidates.first { $0.lowercased() == match }
            }
        return near.map { "; did you mean '\(directory)\($0)'?" } ?? ""
    }

    /// Levenshtein distance over characters, with a transposition counted as one edit.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
