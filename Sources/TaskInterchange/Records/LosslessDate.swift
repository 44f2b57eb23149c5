import Foundation

/// ISO-8601 / RFC 3339 text for dates that keeps every bit of the `Double` Core Data stores.
///
/// Core Data and `Date` hold seconds since 2001-01-01T00:00:00Z as a `Double`. The text is that instant in UTC,
/// proleptic Gregorian, with as many fraction digits as the shortest decimal that reads back as the same `Double`:
/// `2024-03-01T09:30:00.123456789Z`. All the decimal work is done on digit strings, never in floating point, so
/// parsing the text gives back the identical bit pattern:
/// - the fraction is omitted when it is zero;
/// - before 2001 the seconds are floored and the fraction complemented (−0.3 s is `2000-12-31T23:59:59.7Z`);
/// - years outside 0000…9999 are written with a sign and at least five digits (`+10000-…`, `-00001-…`);
/// - −0.0 is `2001-01-01T00:00:00-00:00` (RFC 3339's "unknown offset"), so even the sign bit survives.
///
/// NaN, infinities and instants more than 1e17 s from 2001 cannot be written.
package enum LosslessDate {
    /// The largest distance from 2001-01-01, in seconds, that can be written (about 3.17 billion years).
    package static let maximumMagnitude: Double = 1e17

    /// The lossless text of `date`.
    ///
    /// - Throws: `LosslessDateError.notFinite` or `.outOfRange`.
    package static func string(from date: Date) throws(LosslessDateError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        try append(date.timeIntervalSinceReferenceDate, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the lossless text of `seconds` since 2001-01-01 to `output`; appends nothing when it throws.
    ///
    /// - Throws: `LosslessDateError.notFinite` or `.outOfRange`.
    static func append<Output: ByteAppender>(_ seconds: Double, to output: inout Output) throws(LosslessDateError) {
        guard seconds.isFinite else { throw .notFinite(seconds) }
        guard seconds.magnitude <= maximumMagnitude else { throw .outOfRange(seconds) }
        if seconds == 0 {
            appendDateTime(0, to: &output)
            appendASCII(seconds.sign == .minus ? "-00:00" : "Z", to: &output)
            return
        }
        // Whole seconds below 2^53 are exactly their integer: no need for the digits of `description`.
        if seconds.magnitude < 9_007_199_254_740_992, seconds == seconds.rounded(.towardZero) {
            appendDateTime(Int64(seconds), to: &output)
            output.append(UInt8(ascii: "Z"))
            return
        }
        var text = seconds.description
        text.withUTF8 { appendDecimal(UnsafeRawBufferPointer($0), to: &output) }
    }

    /// Appends the date for `description` text of a finite, non-zero double within range (`-0.3`, `1.5e-07`).
    private static func appendDecimal<Output: ByteAppender>(_ text: UnsafeRawBufferPointer, to output: inout Output) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { digits in
            // The value is 0.d₀d₁d₂… × 10^pointPosition, with no leading zero in `digits`.
            var count = 0
            var pointPosition = 0
            var afterPoint = false
            var negative = false
            var position = 0
            while position < text.count {
                let byte = text[position]
                position += 1
                switch byte {
                case UInt8(ascii: "-"):
                    negative = true
                case UInt8(ascii: "."):
                    afterPoint = true
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if count == 0 && byte == UInt8(ascii: "0") {
                        if afterPoint { pointPosition -= 1 }
                    } else if count < digits.count {
                        digits[count] = byte - UInt8(ascii: "0")
                        count += 1
                        if !afterPoint { pointPosition += 1 }
                    }
                default:
                    // `e` or `E`: the rest is the exponent.
                    pointPosition += parseExponent(text, from: position)
                    position = text.count
                }
            }
            while count > 0 && digits[count - 1] == 0 { count -= 1 }
            var whole: Int64 = 0
            for place in 0..<max(0, pointPosition) {
                whole = whole * 10 + Int64(place < count ? digits[place] : 0)
            }
            let fractionStart = max(0, pointPosition)
            let leadingZeros = max(0, -pointPosition)
            let fractionCount = fractionStart < count ? leadingZeros + count - fractionStart : 0
            if fractionCount == 0 {
                appendDateTime(negative ? -whole : whole, to: &output)
                output.append(UInt8(ascii: "Z"))
                return
            }
            // Before 2001 the seconds are floored and the fraction becomes 1 − fraction: 9 − digit for every digit
            // but the last, 10 − digit for the last (never zero, as trailing zeros were dropped).
            appendDateTime(negative ? -whole - 1 : whole, to: &output)
            output.append(UInt8(ascii: "."))
            for place in 0..<fractionCount {
                let digit = place < leadingZeros ? 0 : digits[fractionStart + place - leadingZeros]
                let written = !negative ? digit : (place == fractionCount - 1 ? 10 - digit : 9 - digit)
                output.append(UInt8(ascii: "0") + written)
            }
            output.append(UInt8(ascii: "Z"))
        }
    }

    /// The signed exponent after `e` in `description` text.
    private static func parseExponent(_ text: UnsafeRawBufferPointer, from start: Int) -> Int {
        var position = start
        var negative = false
        if position < text.count, text[position] == UInt8(ascii: "-") || text[position] == UInt8(ascii: "+") {
            negative = text[position] == UInt8(ascii: "-")
            position += 1
        }
        var value = 0
        while position < text.count {
            value = value * 10 + Int(text[position] - UInt8(ascii: "0"))
            position += 1
        }
        return negative ? -value : value
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS` for whole `seconds` since 2001-01-01 (floored for negative instants).
    private static func appendDateTime<Output: ByteAppender>(_ seconds: Int64, to output: inout Output) {
        var days = seconds / 86_400
        var secondOfDay = seconds - days * 86_400
        if secondOfDay < 0 {
            days -= 1
            secondOfDay += 86_400
        }
        let date = ProlepticGregorian.civilDate(daysSinceReference: days)
        if date.year >= 0 && date.year <= 9999 {
            appendTwoDigits(date.year / 100, to: &output)
            appendTwoDigits(date.year % 100, to: &output)
        } else {
            output.append(date.year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            appendPadded(date.year.magnitude, width: 5, to: &output)
        }
        output.append(UInt8(ascii: "-"))
        appendTwoDigits(date.month, to: &output)
        output.append(UInt8(ascii: "-"))
        appendTwoDigits(date.day, to: &output)
        output.append(UInt8(ascii: "T"))
        appendTwoDigits(secondOfDay / 3600, to: &output)
        output.append(UInt8(ascii: ":"))
        appendTwoDigits(secondOfDay / 60 % 60, to: &output)
        output.append(UInt8(ascii: ":"))
        appendTwoDigits(secondOfDay % 60, to: &output)
    }

    /// Appends 0…99 as two digits.
    @inline(__always)
    private static func appendTwoDigits<Output: ByteAppender>(_ value: Int64, to output: inout Output) {
        output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10))
        output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
    }

    /// Appends a non-negative number with at least `width` digits.
    private static func appendPadded<Output: ByteAppender>(_ value: UInt64, width: Int, to output: inout Output) {
        var magnitude = value
        var digitCount = 1
        var rest = magnitude / 10
        while rest != 0 {
            digitCount += 1
            rest /= 10
        }
        for _ in digitCount..<max(width, digitCount) { output.append(UInt8(ascii: "0")) }
        // Most significant digit first: divide by the largest power of ten below the value.
        var divisor: UInt64 = 1
        for _ in 1..<digitCount { divisor *= 10 }
        while divisor != 0 {
            output.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    private static func appendASCII<Output: ByteAppender>(_ text: StaticString, to output: inout Output) {
        text.withUTF8Buffer { bytes in
            for byte in bytes { output.append(byte) }
        }
    }
}
