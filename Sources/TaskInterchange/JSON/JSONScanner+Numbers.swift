extension JSONScanner {
    /// A number token that matched the JSON grammar; converting it to a type may still fail (out of range).
    struct Number {
        /// The token's bytes in the input, such as `-12.5e3`.
        let text: UnsafeRawBufferPointer
        /// True when the token has neither a fraction nor an exponent.
        let isInteger: Bool

        /// The exact value when the token is an integer that fits in `Int64`; nil for `1.5`, `1e2` or
        /// `99999999999999999999`.
        var int64Value: Int64? {
            guard isInteger else { return nil }
            return JSONScanner.parseInt64(text)
        }

        /// The correctly rounded value; nil when it overflows to an infinity (`1e400`).
        var doubleValue: Double? {
            DoubleParsing.parse(text)
        }

        /// The token as written, for messages.
        var description: String {
            String(decoding: text, as: UTF8.self)
        }
    }

    /// Reads a number token, checking the JSON grammar (no leading zeros, digits after `.` and `e`).
    ///
    /// - Throws: `JSONScanError` of kind `malformedNumber` or `invalidLiteral` (`-Infinity`).
    mutating func readNumber() throws(JSONScanError) -> Number {
        skipWhitespace()
        let start = index
        var position = index
        let count = input.count
        if position < count, input[position] == UInt8(ascii: "-") { position += 1 }
        guard position < count else {
            throw error(.unexpectedEndOfInput, "unexpected end of input; expected a digit", at: position)
        }
        let first = input[position]
        switch first {
        case UInt8(ascii: "0"):
            position += 1
            if position < count, JSONScanner.isDigit(input[position]) {
                throw error(.malformedNumber, "leading zeros are not allowed in JSON numbers", at: start)
            }
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            position = skipDigits(from: position + 1)
        case UInt8(ascii: "I"):
            throw error(.invalidLiteral, "-Infinity is not a JSON value", at: start)
        default:
            throw error(.malformedNumber, "expected a digit, found \(describeByte(at: position))", at: position)
        }
        var isInteger = true
        if position < count, input[position] == UInt8(ascii: ".") {
            position += 1
            guard position < count, JSONScanner.isDigit(input[position]) else {
                throw error(.malformedNumber, "expected a digit after the decimal point", at: position)
            }
            position = skipDigits(from: position)
            isInteger = false
        }
        if position < count, input[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < count, JSONScanner.isDigit(input[position]) else {
                throw error(.malformedNumber, "expected a digit in the exponent", at: position)
            }
            position = skipDigits(from: position)
            isInteger = false
        }
        if position < count, JSONScanner.isWordByte(input[position]) {
            throw error(.malformedNumber, "unexpected \(describeByte(at: position)) in a number", at: position)
        }
        index = position
        return Number(text: UnsafeRawBufferPointer(rebasing: input[start..<position]), isInteger: isInteger)
    }

    /// Reads an integer that must fit in `Int64`.
    ///
    /// - Throws: `JSONScanError` of kind `malformedNumber` for a fraction or exponent, `numberOutOfRange` for huge
    ///   integers.
    mutating func readInt64() throws(JSONScanError) -> Int64 {
        skipWhitespace()
        let start = index
        let number = try readNumber()
        guard number.isInteger else {
            throw error(.malformedNumber, "expected an integer, found \(number.description)", at: start)
        }
        guard let value = number.int64Value else {
            throw error(.numberOutOfRange, "the integer \(number.description) does not fit in 64 bits", at: start)
        }
        return value
    }

    /// Reads a number as a correctly rounded `Double`.
    ///
    /// - Throws: `JSONScanError` of kind `numberOutOfRange` when the number overflows (`1e400`).
    mutating func readDouble() throws(JSONScanError) -> Double {
        skipWhitespace()
        let start = index
        let number = try readNumber()
        guard let value = number.doubleValue else {
            throw error(.numberOutOfRange, "the number \(number.description) is out of range for a double", at: start)
        }
        return value
    }

    private func skipDigits(from position: Int) -> Int {
        var position = position
        while position < input.count, JSONScanner.isDigit(input[position]) { position += 1 }
        return position
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// The value of an integer token (`-?[0-9]+`), or nil when it does not fit in `Int64`.
    static func parseInt64(_ text: UnsafeRawBufferPointer) -> Int64? {
        var position = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { position = 1 }
        // Nineteen digits always fit in UInt64, so only the final comparison can fail.
        guard text.count - position <= 19 else { return nil }
        var magnitude: UInt64 = 0
        while position < text.count {
            magnitude = magnitude &* 10 &+ UInt64(text[position] &- UInt8(ascii: "0"))
            position += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }
}
