/// A pull scanner over JSON text in memory: the caller asks for the next token it expects, and no tree is built.
///
/// The input is usually a memory-mapped file. Every error carries the line and the column (in bytes) of the offending
/// byte. Nesting is limited by a depth budget, and nothing recurses, so hostile input (100,000 `[`) fails cleanly.
///
/// Reading an object:
/// ```swift
/// try scanner.beginObject()
/// while try scanner.nextMember() {
///     let key = try scanner.readKey()
///     try scanner.skipValue()
/// }
/// ```
struct JSONScanner {
    /// The default nesting budget: far above what archives need, far below what could exhaust anything.
    static let defaultMaximumDepth = 64

    /// The kinds of JSON value, as told by their first byte.
    enum ValueKind: Equatable {
        /// `{`
        case object
        /// `[`
        case array
        /// `"`
        case string
        /// `-` or a digit
        case number
        /// `true` or `false`
        case bool
        /// `null`
        case null

        /// `an object`, `a number`, … for messages such as "expected a string, found a number".
        var phrase: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .number: return "a number"
            case .bool: return "a boolean"
            case .null: return "null"
            }
        }
    }

    /// The whole input.
    let input: UnsafeRawBufferPointer
    /// The next byte to look at; moved only by the scanner's own methods (in this file and its extensions).
    var index = 0
    /// 1-based line of `index`.
    private(set) var line = 1
    /// Index of the first byte of the current line, for columns.
    private(set) var lineStart = 0
    /// How many objects and arrays are open.
    private(set) var depth = 0
    /// The most objects and arrays that may be open at once.
    let maximumDepth: Int
    /// True right after `{` or `[`, when the next member or element needs no comma before it.
    private var atContainerStart = false

    /// Creates a scanner at the start of `input`, which must stay valid while the scanner is used.
    init(_ input: UnsafeRawBufferPointer, maximumDepth: Int = JSONScanner.defaultMaximumDepth) {
        self.input = input
        self.maximumDepth = maximumDepth
    }

    /// A position in the input, for messages.
    struct Location: Equatable {
        /// 1-based line.
        var line: Int
        /// 1-based column, in bytes.
        var column: Int
    }

    /// 1-based column (in bytes) of `index`.
    var column: Int { index - lineStart + 1 }

    /// Line and column of `index`.
    var location: Location { Location(line: line, column: column) }

    /// True when every byte has been consumed.
    var isAtEnd: Bool { index >= input.count }

    /// True when the token `error` is about runs into the end of the input: a literal, number, escape or UTF-8
    /// sequence cut off, not one that is wrong where the input goes on.
    func runsToEnd(_ error: JSONScanError) -> Bool {
        guard error.line == line else { return false }
        let start = lineStart + error.column - 1
        guard start >= 0, start < input.count else { return false }
        let delimiters: [UInt8] = [0x22, 0x2C, 0x5D, 0x7D, 0x20, 0x09, 0x0A, 0x0D]
        return !input[start...].contains { delimiters.contains($0) }
    }

    /// Line and column just past the last byte: where a file that ends early stops.
    var endLocation: Location {
        var line = line
        var start = lineStart
        var position = max(index, lineStart)
        while position < input.count {
            if input[position] == UInt8(ascii: "\n") {
                line += 1
                start = position + 1
            }
            position += 1
        }
        return Location(line: line, column: input.count - start + 1)
    }

    /// An error at `position` (default: the current byte), which must be on the current line.
    func error(_ kind: JSONScanError.Kind, _ message: String, at position: Int? = nil) -> JSONScanError {
        JSONScanError(kind: kind, message: message, line: line, column: (position ?? index) - lineStart + 1)
    }

    /// Moves past spaces, tabs and line breaks, counting lines.
    @inline(__always)
    mutating func skipWhitespace() {
        // Every byte above the space is significant: compact JSON mostly leaves here.
        if index < input.count && input[index] > 0x20 { return }
        skipWhitespaceSlowly()
    }

    private mutating func skipWhitespaceSlowly() {
        while index < input.count {
            switch input[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    /// Checks what a document may not start with (a byte order mark, nothing at all) and moves to its first value.
    ///
    /// - Throws: `JSONScanError` of kind `byteOrderMark` or `emptyInput`.
    mutating func beginDocument() throws(JSONScanError) {
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            throw error(
                .byteOrderMark,
                "the input starts with a UTF-8 byte order mark (EF BB BF); "
                    + "JSON text must not begin with one (RFC 8259, section 8.1)", at: 0)
        }
        skipWhitespace()
        if isAtEnd {
            throw error(
                .emptyInput,
                input.isEmpty
                    ? "the input is empty; expected a JSON document"
                    : "the input contains only whitespace; expected a JSON document")
        }
    }

    /// Checks that only whitespace follows the document.
    ///
    /// - Throws: `JSONScanError` of kind `trailingGarbage`.
    mutating func endDocument() throws(JSONScanError) {
        skipWhitespace()
        if !isAtEnd {
            throw error(.trailingGarbage, "unexpected \(describeByte(at: index)) after the end of the JSON document")
        }
    }

    /// Skips whitespace and tells what kind of value starts there, without consuming it.
    ///
    /// - Throws: `JSONScanError` when no value can start at that byte.
    mutating func peekKind() throws(JSONScanError) -> ValueKind {
        skipWhitespace()
        guard index < input.count else {
            throw error(.unexpectedEndOfInput, "unexpected end of input; expected a value")
        }
        switch input[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "N"):
            throw error(.invalidLiteral, "NaN is not a JSON value")
        case UInt8(ascii: "I"):
            throw error(.invalidLiteral, "Infinity is not a JSON value")
        case UInt8(ascii: "'"):
            throw error(.unexpectedCharacter, "strings must be in double quotes; single quotes are not JSON")
        case UInt8(ascii: "/"):
            throw error(.unexpectedCharacter, "comments are not allowed in JSON")
        default:
            throw error(.unexpectedCharacter, "unexpected \(describeByte(at: index)); expected a value")
        }
    }

    /// Consumes `{` and opens an object.
    ///
    /// - Throws: `JSONScanError` when the next value is not an object or nesting is too deep.
    mutating func beginObject() throws(JSONScanError) {
        try expectOpening(UInt8(ascii: "{"), "an object")
    }

    /// Consumes `[` and opens an array.
    ///
    /// - Throws: `JSONScanError` when the next value is not an array or nesting is too deep.
    mutating func beginArray() throws(JSONScanError) {
        try expectOpening(UInt8(ascii: "["), "an array")
    }

    /// Moves to the next member of the open object: true when there is one (the key comes next), false after
    /// consuming the closing `}`.
    ///
    /// - Throws: `JSONScanError` for a missing comma, a trailing comma or a key that is not a string.
    mutating func nextMember() throws(JSONScanError) -> Bool {
        try next(closer: UInt8(ascii: "}"), needsKey: true)
    }

    /// Moves to the next element of the open array: true when there is one, false after consuming `]`.
    ///
    /// - Throws: `JSONScanError` for a missing comma or a trailing comma.
    mutating func nextElement() throws(JSONScanError) -> Bool {
        try next(closer: UInt8(ascii: "]"), needsKey: false)
    }

    /// A member name of up to 16 bytes packed into two little-endian words, so that matching it against known
    /// names costs two comparisons.
    struct PackedKey: Equatable {
        /// The number of bytes.
        var length: Int
        /// Bytes 0…7.
        var low: UInt64 = 0
        /// Bytes 8…15.
        var high: UInt64 = 0

        /// An empty key, filled in by the scanner.
        init() {
            length = 0
        }

        /// Packs `bytes`; nil when longer than 16 bytes.
        init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count <= 16 else { return nil }
            length = bytes.count
            // Byte by byte: for a handful of bytes this beats a call to memcpy.
            for offset in 0..<min(8, length) { low |= UInt64(bytes[offset]) << UInt64(8 * offset) }
            for offset in 8..<max(8, length) { high |= UInt64(bytes[offset]) << UInt64(8 * (offset - 8)) }
        }

        /// The name as a string (the bytes are ASCII or came from a validated string).
        var string: String {
            withUnsafeBytes(of: (low, high)) { String(decoding: $0.prefix(length), as: UTF8.self) }
        }
    }

    /// Reads a member name and its `:` when the name is at most 16 plain ASCII bytes, packing it while scanning;
    /// returns nil, without moving, for any other name (then use `readKey()`).
    ///
    /// Two unaligned 8-byte loads and word-wide tests find the closing quote and any byte that would need the slow
    /// path (backslash, control character, non-ASCII).
    ///
    /// - Throws: `JSONScanError` for a missing colon.
    @inline(__always)
    mutating func readPackedKey() throws(JSONScanError) -> PackedKey? {
        let start = index + 1
        guard start + 16 <= input.count, input[index] == UInt8(ascii: "\"") else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // For each word: bits marking quotes, and bits marking bytes that need the slow path. In both tests the
        // lowest marked byte is always a true one (false marks only appear above a true one).
        func marks(_ word: UInt64) -> (quotes: UInt64, others: UInt64) {
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let quotes = (quote &- ones) & ~quote & highs
            let others = (((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word) | word) & highs
            return (quotes, others)
        }
        /// The bytes below `count` of a word.
        func below(_ count: Int) -> UInt64 { (1 &<< UInt64(8 &* count)) &- 1 }
        let low = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        let lowMarks = marks(low)
        var key = PackedKey()
        if lowMarks.quotes != 0 {
            let length = lowMarks.quotes.trailingZeroBitCount / 8
            guard lowMarks.others & below(length) == 0 else { return nil }
            key.length = length
            key.low = low & below(length)
        } else {
            guard lowMarks.others == 0 else { return nil }
            let high = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self))
            let highMarks = marks(high)
            guard highMarks.quotes != 0 else { return nil }
            let length = highMarks.quotes.trailingZeroBitCount / 8
            guard highMarks.others & below(length) == 0 else { return nil }
            key.length = 8 + length
            key.low = low
            key.high = high & below(length)
        }
        index = start + key.length + 1
        try expectColon()
        return key
    }

    /// Reads a member name and the `:` after it.
    ///
    /// - Throws: `JSONScanError` for a malformed string or a missing colon.
    mutating func readKey() throws(JSONScanError) -> StringValue {
        let key: StringValue
        if let plain = readShortPlainString() {
            key = plain
        } else {
            key = try readStringValue()
        }
        try expectColon()
        return key
    }

    /// Consumes the `:` after a member name.
    @inline(__always)
    mutating func expectColon() throws(JSONScanError) {
        if index < input.count && input[index] == UInt8(ascii: ":") {
            index += 1
            return
        }
        try expectColonSlowly()
    }

    private mutating func expectColonSlowly() throws(JSONScanError) {
        skipWhitespace()
        guard index < input.count else {
            throw error(.unexpectedEndOfInput, "unexpected end of input; expected ':' after a member name")
        }
        guard input[index] == UInt8(ascii: ":") else {
            throw error(.unexpectedCharacter, "expected ':' after a member name, found \(describeByte(at: index))")
        }
        index += 1
    }

    /// Reads `true` or `false`.
    ///
    /// - Throws: `JSONScanError` when the next value is something else.
    mutating func readBool() throws(JSONScanError) -> Bool {
        skipWhitespace()
        if try matchLiteral("true") { return true }
        if try matchLiteral("false") { return false }
        throw error(.invalidLiteral, "expected true or false, found \(describeValueStart())")
    }

    /// Reads `null`.
    ///
    /// - Throws: `JSONScanError` when the next value is something else.
    mutating func readNull() throws(JSONScanError) {
        skipWhitespace()
        guard try matchLiteral("null") else {
            throw error(.invalidLiteral, "expected null, found \(describeValueStart())")
        }
    }

    /// Consumes `{` or `[` and counts the new level against the budget.
    private mutating func expectOpening(_ opener: UInt8, _ what: String) throws(JSONScanError) {
        skipWhitespace()
        guard index < input.count, input[index] == opener else {
            throw error(.unexpectedCharacter, "expected \(what), found \(describeValueStart())")
        }
        guard depth < maximumDepth else {
            throw error(.tooDeep, "arrays and objects are nested more than \(maximumDepth) levels deep")
        }
        depth += 1
        index += 1
        atContainerStart = true
    }

    /// The separator logic shared by `nextMember()` and `nextElement()`.
    @inline(__always)
    private mutating func next(closer: UInt8, needsKey: Bool) throws(JSONScanError) -> Bool {
        skipWhitespace()
        guard index < input.count else { throw separatorError(closer: closer, needsKey: needsKey) }
        var byte = input[index]
        if byte == closer {
            index += 1
            depth -= 1
            atContainerStart = false
            return false
        }
        if atContainerStart {
            atContainerStart = false
        } else {
            guard byte == UInt8(ascii: ",") else { throw separatorError(closer: closer, needsKey: needsKey) }
            // The comma's location, taken before whitespace (maybe line breaks) moves the line counters.
            let (comma, commaLine, commaLineStart) = (index, line, lineStart)
            index += 1
            skipWhitespace()
            guard index < input.count else {
                throw error(.unexpectedEndOfInput, "unexpected end of input after ','")
            }
            byte = input[index]
            if byte == closer {
                throw JSONScanError(
                    kind: .trailingComma, message: "trailing comma before \(describeByte(at: index))",
                    line: commaLine, column: comma - commaLineStart + 1)
            }
        }
        if needsKey && byte != UInt8(ascii: "\"") {
            throw error(
                .unexpectedCharacter,
                "expected a member name in double quotes, found \(describeByte(at: index))")
        }
        return true
    }

    /// The error for a byte (or the end) where a separator or closer was expected.
    @inline(never)
    private func separatorError(closer: UInt8, needsKey: Bool) -> JSONScanError {
        let closerText = closer == UInt8(ascii: "}") ? "'}'" : "']'"
        guard index < input.count else {
            return error(.unexpectedEndOfInput, "unexpected end of input; expected \(closerText)")
        }
        let what = needsKey ? "an object member" : "an array element"
        return error(
            .unexpectedCharacter,
            "expected ',' or \(closerText) after \(what), found \(describeByte(at: index))")
    }

    /// Consumes `literal` when the input has it at `index`, followed by a byte that can end a value.
    private mutating func matchLiteral(_ literal: StaticString) throws(JSONScanError) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= input.count else { return false }
        let matches = literal.withUTF8Buffer { text in
            for offset in 0..<count where input[index + offset] != text[offset] { return false }
            return true
        }
        guard matches else { return false }
        let after = index + count
        if after < input.count, JSONScanner.isWordByte(input[after]) {
            throw error(.invalidLiteral, "unexpected \(describeByte(at: after)) after \(literal)", at: after)
        }
        index = after
        return true
    }

    /// Letters, digits and the other bytes that may not directly follow a literal or a number.
    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "_"):
            return true
        default:
            return byte >= 0x80
        }
    }

    /// `'x'` for printable ASCII, `byte 0xC3` otherwise, `end of input` past the end.
    func describeByte(at position: Int) -> String {
        guard position < input.count else { return "end of input" }
        let byte = input[position]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// What starts at `index`, for "expected X, found Y" messages.
    func describeValueStart() -> String {
        guard index < input.count else { return "end of input" }
        switch input[index] {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return describeByte(at: index)
        }
    }
}
