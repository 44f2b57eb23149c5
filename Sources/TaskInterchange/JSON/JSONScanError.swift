/// Why and where the scanner gave up on its input.
struct JSONScanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Kinds of malformed input, for tests and for callers that react differently to some.
    enum Kind: Sendable, Hashable {
        /// The input starts with a UTF-8 byte order mark.
        case byteOrderMark
        /// The input is empty or only whitespace.
        case emptyInput
        /// The input stops inside a value.
        case unexpectedEndOfInput
        /// A byte that cannot start or continue what is expected there.
        case unexpectedCharacter
        /// A bare word that is not `true`, `false` or `null` (including `NaN` and `Infinity`).
        case invalidLiteral
        /// A number that breaks the JSON grammar, such as `01`, `1.` or `-`.
        case malformedNumber
        /// A well-formed number that does not fit the requested type.
        case numberOutOfRange
        /// A raw control character (below U+0020) inside a string.
        case controlCharacterInString
        /// A backslash escape that JSON does not define.
        case invalidEscape
        /// A `\u` escape of half a surrogate pair.
        case loneSurrogate
        /// Bytes inside a string that are not UTF-8.
        case invalidUTF8
        /// A comma right before `]` or `}`.
        case trailingComma
        /// Arrays and objects nested deeper than the scanner's budget.
        case tooDeep
        /// Something other than whitespace after the document.
        case trailingGarbage
    }

    /// The kind of problem.
    var kind: Kind
    /// What is wrong, for people.
    var message: String
    /// 1-based line of the offending byte.
    var line: Int
    /// 1-based column, in bytes, of the offending byte.
    var column: Int

    /// `3:14: expected ',' or '}' after an object member, found ']'`
    var description: String { "\(line):\(column): \(message)" }
}
