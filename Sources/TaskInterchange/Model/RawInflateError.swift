/// Why raw DEFLATE data could not be inflated.
enum RawInflateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ends before the final DEFLATE block does (including empty input).
    case truncated
    /// The input is not valid DEFLATE; the text is zlib's reason.
    case corrupt(String)
    /// The inflated data would be larger than the limit, in bytes (a corrupt or hostile input).
    case tooLarge(limit: Int)
    /// Bytes follow the end of the DEFLATE stream.
    case trailingData(count: Int)
    /// zlib itself failed (out of memory, version mismatch); the code is zlib's.
    case zlib(code: Int32, message: String)

    /// What is wrong, for people.
    var description: String {
        switch self {
        case .truncated:
            return "the compressed data ends before the end of the DEFLATE stream (truncated)"
        case .corrupt(let reason):
            return "the compressed data is not valid DEFLATE (\(reason))"
        case .tooLarge(let limit):
            return "the compressed data inflates to more than \(limit) bytes; refusing to go on"
        case .trailingData(let count):
            return "\(count) byte(s) follow the end of the DEFLATE stream"
        case .zlib(let code, let message):
            return "zlib failed with code \(code) (\(message))"
        }
    }
}
