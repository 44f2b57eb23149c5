/// Correctly rounded conversion of decimal text to `Double`, fast for the common short inputs.
enum DoubleParsing {
    /// Parses text that matches the JSON number grammar (`-?digits(.digits)?([eE][+-]?digits)?`).
    ///
    /// Returns nil when the value overflows to an infinity; values too small for a double round to zero, as the
    /// IEEE rules say. Must not be given other text: the fallback (`Double(String)`) also accepts hexadecimal and
    /// `nan`.
    static func parse(_ text: UnsafeRawBufferPointer) -> Double? {
        if let value = parseExactly(text) { return value }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// Clinger's fast path: when the digits fit in 53 bits and the power of ten is exact (up to 1e22), one IEEE
    /// multiplication or division gives the correctly rounded result. Nil when the input is outside that case.
    private static func parseExactly(_ text: UnsafeRawBufferPointer) -> Double? {
        var position = 0
        let count = text.count
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        if negative { position = 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var afterPoint = false
        while position < count {
            let byte = text[position]
            if byte == UInt8(ascii: ".") {
                afterPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                if mantissa != 0 || byte != UInt8(ascii: "0") {
                    significantDigits += 1
                    if significantDigits > 19 { return nil }
                    mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                }
                if afterPoint { exponent -= 1 }
            } else {
                break
            }
            position += 1
        }
        if position < count {
            // The exponent; saturated, since anything beyond a few hundred leaves the fast path anyway.
            position += 1
            var exponentNegative = false
            if position < count, text[position] == UInt8(ascii: "-") || text[position] == UInt8(ascii: "+") {
                exponentNegative = text[position] == UInt8(ascii: "-")
                position += 1
            }
            var written = 0
            while position < count {
                written = min(written * 10 + Int(text[position] &- UInt8(ascii: "0")), 100_000)
                position += 1
            }
            exponent += exponentNegative ? -written : written
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let magnitude = exponent >= 0 ? Double(mantissa) * powersOfTen[exponent]
            : Double(mantissa) / powersOfTen[-exponent]
        return negative ? -magnitude : magnitude
    }

    /// 1e0 … 1e22, every one exactly representable.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]
}
