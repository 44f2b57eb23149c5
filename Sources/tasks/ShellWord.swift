import Foundation

/// Text a user can paste into a shell: the "did you mean" suggestions that carry a path or a name.
enum ShellWord {
    /// `text` as one shell word: as it is when every character is plain, else in single quotes (a single quote
    /// inside written `'\''`).
    static func quoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "/._-+,:=@%".unicodeScalars.contains(scalar))
            }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `. Did you mean '<arguments>'?` for arguments that need no quoting, `. Did you mean: <arguments>` for those
    /// that do (quotes around quotes would not paste).
    static func suggestion(_ words: [String]) -> String {
        let line = words.map(quoted).joined(separator: " ")
        return line.contains("'") ? ". Did you mean: \(line)" : ". Did you mean '\(line)'?"
    }
}
