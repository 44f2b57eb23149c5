import Foundation

/// stdout for data, stderr for diagnostics and progress.
enum Console {
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Progress lines only when a person is watching stderr (never in pipes, files or CI logs).
    static var showsProgress: Bool {
        isatty(2) == 1 && ProcessInfo.processInfo.environment["CI"] == nil
    }

    /// Overwrites the current stderr line.
    static func progress(_ text: String) {
        error("\r\u{1B}[K" + text)
    }

    static func endProgress() {
        error("\r\u{1B}[K")
    }

    /// Pretty JSON of a Codable value, keys sorted, with a final newline.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
