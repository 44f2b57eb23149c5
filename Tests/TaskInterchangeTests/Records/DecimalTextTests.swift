import Testing

@testable import TaskInterchange

@Suite("DecimalText: a decimal's digits, and whether a store keeps them")
struct DecimalTextTests {
    @Test(
        "what a store's DECIMAL column keeps exactly: an integer, a double, or nothing",
        arguments: [
            ("12", DecimalText.Stored.integer(12)),
            ("-0.0", .integer(0)),
            ("1e2", .integer(100)),
            ("100.000", .integer(100)),
            ("12345678901234567", .integer(12_345_678_901_234_567)),
            ("-9223372036854775808", .integer(.min)),
            ("10.11", .double(10.11)),
            ("0.30000000000000004", .double(0.300_000_000_000_000_04)),
            ("1e+20", .double(1e20)),
            ("-2.5E-3", .double(-0.0025)),
        ])
    func kept(text: String, stored: DecimalText.Stored) {
        #expect(DecimalText(text)?.stored == stored)
    }

    @Test(
        "more digits than a double holds, or too large for one: not kept",
        arguments: ["3.14159265358979323846", "9223372036854775808.5", "0.1000000000000000055511151231257827", "1e400"])
    func rounded(text: String) throws {
        let decimal = try #require(DecimalText(text))
        #expect(decimal.stored == nil)
    }

    @Test(
        "only JSON number syntax is a decimal",
        arguments: ["", "-", "nan", "inf", "0x10", "1.", ".5", "1e", " 1", "1,5"])
    func notANumber(text: String) {
        #expect(DecimalText(text) == nil)
    }

    @Test("spellings of one value are equal; other values are not")
    func equality() {
        #expect(DecimalText("1e2") == DecimalText("100.0"))
        #expect(DecimalText("0.50") == DecimalText("5e-1"))
        #expect(DecimalText("-0") == DecimalText("0"))
        #expect(DecimalText("1.5") != DecimalText("-1.5"))
        #expect(DecimalText("1.5") != DecimalText("15"))
    }
}
