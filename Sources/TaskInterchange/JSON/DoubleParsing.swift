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

    /// The exact paths for up to 19 significant digits (which fit in 64 bits); nil for other inputs.
    ///
    /// Clinger's fast path covers digits that fit in 53 bits with a power of ten up to 1e22 (one IEEE
    /// multiplication or division of exact operands is correctly rounded). Longer digits, as in most timestamps
    /// (`757382400.12345678`), are divided by their power of ten in integer arithmetic, then rounded half to even.
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
            // The exponent; saturated, since anything beyond a few hundred leaves the exact paths anyway.
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
        return exactValue(mantissa: mantissa, exponent: exponent, negative: negative)
    }

    /// ±`mantissa` × 10^`exponent`, correctly rounded, when an exact path covers it (any mantissa with an exponent
    /// of −19…0, or one of up to 53 bits with an exponent of −22…22); nil otherwise.
    static func exactValue(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        let magnitude: Double
        if mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            magnitude =
                exponent >= 0
                ? Double(mantissa) * powersOfTen[exponent]
                : Double(mantissa) / powersOfTen[-exponent]
        } else if exponent == 0 {
            // Integer conversion rounds to nearest, ties to even.
            magnitude = Double(mantissa)
        } else if exponent < 0 && exponent >= -19 {
            magnitude = divide(mantissa, byPowerOfTen: -exponent)
        } else {
            return nil
        }
        return negative ? -magnitude : magnitude
    }

    /// `mantissa / 10^power` correctly rounded, for `mantissa > 2^53` and `1 ≤ power ≤ 19`.
    ///
    /// The numerator is shifted left so the integer quotient has at least 55 bits; its low bits and the remainder
    /// decide the rounding of the top 53.
    private static func divide(_ mantissa: UInt64, byPowerOfTen power: Int) -> Double {
        var divisor: UInt64 = 1
        for _ in 0..<power { divisor *= 10 }
        let mantissaBits = 64 - mantissa.leadingZeroBitCount
        let divisorBits = 64 - divisor.leadingZeroBitCount
        // mantissa > 2^53 keeps the shift ≤ 66 and the numerator < 2^120; the quotient stays below 2^57.
        let shift = max(0, 56 + divisorBits - mantissaBits)
        let numerator: (high: UInt64, low: UInt64)
        switch shift {
        case 0: numerator = (0, mantissa)
        case 1..<64: numerator = (mantissa >> UInt64(64 - shift), mantissa << UInt64(shift))
        default: numerator = (mantissa << UInt64(shift - 64), 0)
        }
        let (quotient, remainder) = divisor.dividingFullWidth(numerator)
        var dropped = (64 - quotient.leadingZeroBitCount) - 53
        var significand = quotient >> UInt64(dropped)
        let droppedBits = quotient & ((1 << UInt64(dropped)) - 1)
        let half: UInt64 = 1 << UInt64(dropped - 1)
        if droppedBits > half || (droppedBits == half && (remainder != 0 || significand & 1 == 1)) {
            significand += 1
            if significand == 1 << 53 {
                significand >>= 1
                dropped += 1
            }
        }
        return Double(sign: .plus, exponent: dropped - shift, significand: Double(significand))
    }

    /// 1e0 … 1e22, every one exactly representable.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]
}
