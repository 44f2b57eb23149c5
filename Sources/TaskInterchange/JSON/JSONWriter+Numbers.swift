extension JSONWriter {
    /// Appends an integer in decimal.
    mutating func appendInteger(_ value: Int) {
        if value < 0 {
            appendByte(UInt8(ascii: "-"))
            // `magnitude` also covers Int.min, whose negation does not fit in Int.
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt(value))
        }
    }

    /// Appends a finite double in Swift's shortest round-trip form (`0.1`, `1e-07`, `757382400.0`), which is valid
    /// JSON.
    ///
    /// - Throws: `JSONEncodingError.nonFiniteNumber` for NaN and infinities, which JSON cannot express; nothing is
    ///   written then.
    mutating func appendDouble(_ value: Double) throws(JSONEncodingError) {
        guard value.isFinite else { throw .nonFiniteNumber(value) }
        var text = value.description
        text.withUTF8 { appendRaw(UnsafeRawBufferPointer($0)) }
    }

    /// Appends the decimal digits of `value`, most significant first.
    mutating func appendDigits(_ value: UInt) {
        var digitCount = 1
        var rest = value / 10
        while rest != 0 {
            digitCount += 1
            rest /= 10
        }
        storage.reserve(digitCount)
        // Most significant digit first: divide by the largest power of ten below the value.
        var remaining = value
        var divisor: UInt = 1
        for _ in 1..<digitCount { divisor *= 10 }
        while divisor != 0 {
            storage.appendReserved(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining / divisor))
            remaining %= divisor
            divisor /= 10
        }
    }
}
