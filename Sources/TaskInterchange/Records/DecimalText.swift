/// A decimal attribute's value as the interchange carries it (text such as `-12.50` or `1e-3`), read digit for digit:
/// a store's `DECIMAL` column keeps an integer or a double and SQLite turns any numeric text into one of them, so
/// whether a value survives the trip is decided on its exact digits, not on a rounded `Double`.
package struct DecimalText: Equatable {
    /// How a store holds the value exactly.
    enum Stored: Equatable {
        case integer(Int64)
        case double(Double)
    }

    /// The significant digits without leading or trailing zeros (ASCII); empty for zero.
    let digits: [UInt8]
    /// The value is `0.<digits> × 10^exponent`.
    let exponent: Int
    let isNegative: Bool

    /// Reads JSON number syntax (`-`, digits, an optional fraction and exponent); nil for anything else (`nan`,
    /// `0x10`, `1,5`, ` 1`).
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        func digitRun() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }
        let whole = digitRun()
        guard !whole.isEmpty else { return nil }
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digitRun()
            guard !fraction.isEmpty else { return nil }
        }
        var written = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var negativeExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let run = digitRun()
            guard !run.isEmpty else { return nil }
            // Far beyond any double: capped so the arithmetic below cannot overflow.
            for digit in run { written = min(written * 10 + Int(digit - UInt8(ascii: "0")), 1_000_000) }
            if negativeExponent { written = -written }
        }
        guard index == bytes.count else { return nil }
        let all = Array(whole) + Array(fraction)
        guard let first = all.firstIndex(where: { $0 != UInt8(ascii: "0") }) else {
            // A store has no negative zero for a decimal.
            isNegative = false
            digits = []
            exponent = 0
            return
        }
        let last = all.lastIndex { $0 != UInt8(ascii: "0") }!
        isNegative = negative
        digits = Array(all[first...last])
        exponent = whole.count - first + written
    }

    /// The integer or double a store keeps this value as without changing a digit; nil when it has more digits than a
    /// double holds (or is too large for one), so writing it would round it.
    var stored: Stored? {
        if digits.isEmpty { return .integer(0) }
        if exponent >= digits.count, exponent <= 19 {
            // Accumulated as a negative number, whose range reaches Int64.min.
            var value: Int64 = 0
            var fits = true
            for digit in digits + Array(repeating: UInt8(ascii: "0"), count: exponent - digits.count) {
                let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
                fits = fits && !overflowTimes && !overflowSum
                value = sum
            }
            if fits, isNegative || value != .min { return .integer(isNegative ? value : -value) }
        }
        guard let double = Double(scientific), double.isFinite, DecimalText(String(double)) == self else { return nil }
        return .double(double)
    }

    /// The value as `0.<digits>e<exponent>`, which `Double.init` rounds correctly.
    private var scientific: String {
        (isNegative ? "-" : "") + "0." + String(decoding: digits, as: UTF8.self) + "e\(exponent)"
    }
}
