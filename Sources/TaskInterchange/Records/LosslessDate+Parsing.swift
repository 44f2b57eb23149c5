import Foundation

extension LosslessDate {
    /// The date written as `text`: the lossless form, any RFC 3339 date-time (`±HH:MM` offsets, lowercase `t`/`z`)
    /// and Foundation's `.iso8601` style.
    ///
    /// - Throws: `LosslessDateError.malformed` with the reason, or `.outOfRange`.
    package static func date(from text: String) throws(LosslessDateError) -> Date {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(LosslessDateError) -> Double in try parse(UnsafeRawBufferPointer(bytes)) }
        }
        return Date(timeIntervalSinceReferenceDate: try result.get())
    }

    /// Seconds since 2001-01-01 for date text in `bytes`; see `date(from:)`.
    ///
    /// The instant is rebuilt as exact decimal text (whole seconds from integer arithmetic, then the fraction digits
    /// as written) and converted once with correct rounding, which gives back the `Double` that was written.
    ///
    /// - Throws: `LosslessDateError.malformed` with the reason, or `.outOfRange`.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(LosslessDateError) -> Double {
        if let value = parseCanonical(bytes) { return value }
        var cursor = Cursor(bytes: bytes)
        let year = try cursor.year()
        try cursor.expect(UInt8(ascii: "-"), "a '-' after the year")
        let month = try cursor.number(digits: 2, "a two-digit month")
        try cursor.expect(UInt8(ascii: "-"), "a '-' after the month")
        let day = try cursor.number(digits: 2, "a two-digit day")
        guard (1...12).contains(month) else { throw .malformed("month \(month) is not 01…12") }
        let monthLength = ProlepticGregorian.daysInMonth(month, year: year)
        guard day >= 1 && day <= monthLength else {
            throw .malformed(
                "day \(day) does not exist in month \(month) of year \(year), which has \(monthLength) days")
        }
        try cursor.expect(UInt8(ascii: "T"), orLowercase: true, "'T' between the date and the time")
        let hour = try cursor.number(digits: 2, "a two-digit hour")
        try cursor.expect(UInt8(ascii: ":"), "a ':' after the hour")
        let minute = try cursor.number(digits: 2, "two-digit minutes")
        try cursor.expect(UInt8(ascii: ":"), "a ':' after the minutes")
        let second = try cursor.number(digits: 2, "two-digit seconds")
        guard hour <= 23 else { throw .malformed("hour \(hour) is not 00…23") }
        guard minute <= 59 else { throw .malformed("minute \(minute) is not 00…59") }
        if second == 60 { throw .malformed("leap seconds (second 60) cannot be represented") }
        guard second <= 59 else { throw .malformed("second \(second) is not 00…59") }
        let fraction = try cursor.fraction()
        let offset = try cursor.offset()
        guard cursor.isAtEnd else { throw .malformed("unexpected text after the time zone") }

        let days = ProlepticGregorian.daysSinceReference(.init(year: year, month: month, day: day))
        let wholeSeconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset.seconds
        // One second of slack: the fraction can bring a value just past the limit back within it.
        guard wholeSeconds.magnitude <= 100_000_000_000_000_001 else {
            throw .outOfRange(Double(wholeSeconds))
        }
        let value = makeDouble(wholeSeconds: wholeSeconds, fraction: fraction, negativeZero: offset.isNegativeZero)
        guard value.magnitude <= maximumMagnitude else { throw .outOfRange(value) }
        return value
    }

    /// The form `append` writes for years 0000…9999, `YYYY-MM-DDTHH:MM:SS[.digits]Z`, read at fixed positions;
    /// nil for anything else, valid or not, which the general parser then handles (and explains).
    @inline(__always)
    private static func parseCanonical(_ bytes: UnsafeRawBufferPointer) -> Double? {
        let count = bytes.count
        guard count >= 20, bytes[count - 1] == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
            bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":")
        else { return nil }
        /// Two digits at `position`, or a value no field accepts.
        func twoDigits(_ position: Int) -> Int64 {
            let tens = bytes[position] &- UInt8(ascii: "0")
            let units = bytes[position + 1] &- UInt8(ascii: "0")
            return tens < 10 && units < 10 ? Int64(tens) * 10 + Int64(units) : 100
        }
        let century = twoDigits(0)
        let yearOfCentury = twoDigits(2)
        let month = twoDigits(5)
        let day = twoDigits(8)
        let hour = twoDigits(11)
        let minute = twoDigits(14)
        let second = twoDigits(17)
        guard century < 100, yearOfCentury < 100, month >= 1, month <= 12, day >= 1, hour <= 23, minute <= 59,
            second <= 59
        else { return nil }
        let year = century * 100 + yearOfCentury
        guard day <= ProlepticGregorian.daysInMonth(month, year: year) else { return nil }
        var fraction = UnsafeRawBufferPointer(rebasing: bytes[19..<19])
        if count > 20 {
            guard bytes[19] == UInt8(ascii: "."), count > 21 else { return nil }
            fraction = UnsafeRawBufferPointer(rebasing: bytes[20..<(count - 1)])
            for digit in fraction where digit &- UInt8(ascii: "0") >= 10 { return nil }
        }
        let days = ProlepticGregorian.daysSinceReference(.init(year: year, month: month, day: day))
        let wholeSeconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return makeDouble(wholeSeconds: wholeSeconds, fraction: fraction, negativeZero: false)
    }

    /// The `Double` nearest to `wholeSeconds + 0.fraction`, computed from exact decimal text.
    private static func makeDouble(wholeSeconds: Int64, fraction: UnsafeRawBufferPointer, negativeZero: Bool) -> Double
    {
        var fractionCount = fraction.count
        while fractionCount > 0 && fraction[fractionCount - 1] == UInt8(ascii: "0") { fractionCount -= 1 }
        if fractionCount == 0 {
            if wholeSeconds == 0 && negativeZero { return -0.0 }
            // Every Int64 within ±1e17 converts with correct rounding, as decimal parsing would.
            return Double(wholeSeconds)
        }
        // Up to 19 digits in all, the decimal is an integer over a power of ten: no text needed.
        if let value = exactDouble(wholeSeconds: wholeSeconds, fraction: fraction, count: fractionCount) {
            return value
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fractionCount + 24) { text in
            var length = 0
            func append(_ byte: UInt8) {
                text[length] = byte
                length += 1
            }
            // Before 2001: w + 0.f = −((|w| − 1) + (1 − 0.f)); the complement is done digit by digit.
            let negative = wholeSeconds < 0
            var whole = negative ? wholeSeconds.magnitude - 1 : wholeSeconds.magnitude
            if negative { append(UInt8(ascii: "-")) }
            // The digits of `whole`, written backwards and then reversed in place.
            let firstDigit = length
            repeat {
                append(UInt8(ascii: "0") + UInt8(whole % 10))
                whole /= 10
            } while whole != 0
            var (low, high) = (firstDigit, length - 1)
            while low < high {
                text.swapAt(low, high)
                low += 1
                high -= 1
            }
            append(UInt8(ascii: "."))
            for place in 0..<fractionCount {
                let digit = fraction[place] - UInt8(ascii: "0")
                let written = !negative ? digit : (place == fractionCount - 1 ? 10 - digit : 9 - digit)
                append(UInt8(ascii: "0") + written)
            }
            // The text is a plain decimal within range, so parsing cannot fail.
            return DoubleParsing.parse(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[0..<length]))
                ?? .nan
        }
    }

    /// `wholeSeconds + 0.fraction` as (whole × 10^k + fraction) / 10^k when that fits in 64 bits; nil otherwise.
    private static func exactDouble(wholeSeconds: Int64, fraction: UnsafeRawBufferPointer, count: Int) -> Double? {
        guard count <= 19 else { return nil }
        var scale: UInt64 = 1
        var digits: UInt64 = 0
        for place in 0..<count {
            scale *= 10
            digits = digits * 10 + UInt64(fraction[place] - UInt8(ascii: "0"))
        }
        // Before 2001: w + 0.f = −((|w| − 1) + (1 − 0.f)), as for the text form.
        let negative = wholeSeconds < 0
        let whole = negative ? wholeSeconds.magnitude - 1 : wholeSeconds.magnitude
        if negative { digits = scale - digits }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        let (mantissa, carry) = scaled.addingReportingOverflow(digits)
        guard !carry else { return nil }
        return DoubleParsing.exactValue(mantissa: mantissa, exponent: -count, negative: negative)
    }

    /// Reads the parts of date-time text left to right.
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        /// Four digits, or a sign and 4…11 digits (ISO 8601 expanded years).
        mutating func year() throws(LosslessDateError) -> Int64 {
            guard !isAtEnd else { throw .malformed("the date is empty") }
            let sign = bytes[position]
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                position += 1
                let start = position
                var value: Int64 = 0
                while !isAtEnd, let digit = digit(at: position), position - start < 11 {
                    value = value * 10 + digit
                    position += 1
                }
                guard position - start >= 4 else { throw .malformed("a signed year needs at least four digits") }
                return sign == UInt8(ascii: "-") ? -value : value
            }
            return try number(digits: 4, "a four-digit year")
        }

        /// Exactly `digits` decimal digits.
        mutating func number(digits count: Int, _ what: String) throws(LosslessDateError) -> Int64 {
            var value: Int64 = 0
            for _ in 0..<count {
                guard !isAtEnd, let digit = digit(at: position) else { throw .malformed("expected \(what)") }
                value = value * 10 + digit
                position += 1
            }
            return value
        }

        mutating func expect(_ byte: UInt8, orLowercase lowercase: Bool = false, _ what: String)
            throws(LosslessDateError)
        {
            guard !isAtEnd, bytes[position] == byte || (lowercase && bytes[position] == byte | 0x20) else {
                throw .malformed("expected \(what)")
            }
            position += 1
        }

        /// The digits after an optional `.`; empty when there is no fraction.
        mutating func fraction() throws(LosslessDateError) -> UnsafeRawBufferPointer {
            guard !isAtEnd, bytes[position] == UInt8(ascii: ".") else {
                return UnsafeRawBufferPointer(rebasing: bytes[position..<position])
            }
            position += 1
            let start = position
            while !isAtEnd, digit(at: position) != nil { position += 1 }
            guard position > start else { throw .malformed("expected digits after the decimal point") }
            guard position - start <= 1100 else { throw .malformed("the fraction of a second has too many digits") }
            return UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        }

        /// `Z`, `z` or `±HH:MM`: seconds east of UTC, and whether it was `-00:00`.
        mutating func offset() throws(LosslessDateError) -> (seconds: Int64, isNegativeZero: Bool) {
            guard !isAtEnd else { throw .malformed("expected a time zone ('Z' or ±HH:MM) after the time") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "z") {
                position += 1
                return (0, false)
            }
            guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else {
                throw .malformed("expected a time zone ('Z' or ±HH:MM) after the time")
            }
            position += 1
            let hours = try number(digits: 2, "a two-digit offset hour")
            try expect(UInt8(ascii: ":"), "a ':' in the time zone offset")
            let minutes = try number(digits: 2, "two-digit offset minutes")
            guard hours <= 23, minutes <= 59 else { throw .malformed("time zone offset out of range") }
            let seconds = hours * 3600 + minutes * 60
            let negative = byte == UInt8(ascii: "-")
            return (negative ? -seconds : seconds, negative && seconds == 0)
        }

        private func digit(at position: Int) -> Int64? {
            let value = bytes[position] &- UInt8(ascii: "0")
            return value < 10 ? Int64(value) : nil
        }
    }
}
