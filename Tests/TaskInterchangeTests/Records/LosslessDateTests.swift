import Foundation
import Testing
@testable import TaskInterchange

@Suite struct LosslessDateTests {
    private func text(_ seconds: Double) throws -> String {
        try LosslessDate.string(from: Date(timeIntervalSinceReferenceDate: seconds))
    }

    private func seconds(_ text: String) throws -> Double {
        try LosslessDate.date(from: text).timeIntervalSinceReferenceDate
    }

    @Test(
        "known instants are written as the expected text",
        arguments: [
            (0.0, "2001-01-01T00:00:00Z"),
            (-0.0, "2001-01-01T00:00:00-00:00"),
            (-0.3, "2000-12-31T23:59:59.7Z"),
            (0.1, "2001-01-01T00:00:00.1Z"),
            (1e-7, "2001-01-01T00:00:00.0000001Z"),
            (-1e-7, "2000-12-31T23:59:59.9999999Z"),
            (757_382_400, "2025-01-01T00:00:00Z"),
            (757_382_400.25, "2025-01-01T00:00:00.25Z"),
            (63_113_904_000, "4001-01-01T00:00:00Z"),
            (-63_113_904_000, "0001-01-01T00:00:00Z"),
            (-63_113_904_001, "0000-12-31T23:59:59Z"),
            (-63_114_076_800, "0000-12-30T00:00:00Z"),
            (-63_177_062_400, "-00001-01-01T00:00:00Z"),
            (252_423_993_600, "+10000-01-01T00:00:00Z"),
            (-978_307_200, "1970-01-01T00:00:00Z"),
            (1e17, "+3168875851-09-07T09:46:40Z"),
        ])
    func knownInstants(seconds: Double, expected: String) throws {
        #expect(try text(seconds) == expected)
        #expect(try self.seconds(expected).bitPattern == seconds.bitPattern)
    }

    @Test("the calendar agrees with Foundation's for whole seconds from 1900 to 2200")
    func agreesWithFoundation() throws {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Double(Int64.random(in: -3_250_000_000...6_300_000_000, using: &generator))
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(try LosslessDate.string(from: date) == formatter.string(from: date))
        }
    }

    @Test(
        "RFC 3339 variants are read",
        arguments: [
            ("2001-01-01T01:00:00+01:00", 0.0),
            ("2001-01-01t00:00:00z", 0.0),
            ("2000-12-31T19:00:00-05:00", 0.0),
            ("2001-01-01T00:00:00.500Z", 0.5),
            ("2024-01-01T12:00:00Z", 725_803_200),
            ("2001-01-01T00:00:00.3-00:30", 1800.3),
            ("+02024-01-01T12:00:00Z", 725_803_200),
        ])
    func readsVariants(text: String, expected: Double) throws {
        #expect(try seconds(text) == expected)
    }

    @Test("-00:00 keeps the sign of zero, Z does not")
    func negativeZero() throws {
        #expect(try seconds("2001-01-01T00:00:00-00:00").sign == .minus)
        #expect(try seconds("2001-01-01T00:00:00Z").sign == .plus)
        #expect(try seconds("2001-01-01T00:00:00.000-00:00").sign == .minus)
    }

    @Test(
        "invalid text is rejected with a reason",
        arguments: [
            ("2023-02-29T00:00:00Z", "day 29"),
            ("2024-02-30T00:00:00Z", "day 30"),
            ("2024-13-01T00:00:00Z", "month 13"),
            ("2016-12-31T23:59:60Z", "leap seconds"),
            ("2024-01-01T24:00:00Z", "hour 24"),
            ("2024-01-01T12:00Z", "':' after the minutes"),
            ("2024-01-01T12:00:00", "time zone"),
            ("2024-01-01 12:00:00Z", "'T'"),
            ("2024-01-01T12:00:00.Z", "digits after the decimal point"),
            ("2024-01-01T12:00:00+0100", "':'"),
            ("2024-01-01T12:00:00Zjunk", "after the time zone"),
            ("24-01-01T12:00:00Z", "four-digit year"),
            ("", "empty"),
        ])
    func rejectsInvalid(text: String, reason: String) {
        #expect {
            _ = try self.seconds(text)
        } throws: { error in
            guard let error = error as? LosslessDateError, case .malformed(let message) = error else { return false }
            return message.contains(reason)
        }
    }

    @Test("NaN, infinities and instants beyond 1e17 s cannot be written")
    func unrepresentable() {
        #expect(throws: LosslessDateError.notFinite(.infinity)) { _ = try self.text(.infinity) }
        #expect(throws: LosslessDateError.notFinite(-.infinity)) { _ = try self.text(-.infinity) }
        #expect {
            _ = try self.text(.nan)
        } throws: { error in
            guard case .notFinite(let value) = error as? LosslessDateError else { return false }
            return value.isNaN
        }
        #expect(throws: LosslessDateError.outOfRange(1.0000000000000002e17)) {
            _ = try self.text(1.0000000000000002e17)
        }
        #expect(throws: LosslessDateError.outOfRange(-1e18)) { _ = try self.text(-1e18) }
        #expect(throws: LosslessDateError.self) { _ = try self.seconds("+9999999999-01-01T00:00:00Z") }
    }

    @Test("format then parse gives the identical bit pattern for 100,000 random and edge-case doubles")
    func roundTripProperty() throws {
        var values: [Double] = [
            0, -0.0, 1e-300, -1e-300, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.2250738585072014e-308, 0.1,
            -0.1, 0.3, -0.3,
            123_456_789.123_456_78, -123_456_789.123_456_78, 757_382_400.123_456_7, 1e16, 1e17, -1e17,
            63_113_904_000, -63_114_076_800, 9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_991,
            0.999_999_999_999_999_9, -0.999_999_999_999_999_9, 86_399.999_999_999_99, -86_400.000_000_000_01,
            1.7976931348623157e-7, Double(bitPattern: 1000),
        ]
        var generator = SystemRandomNumberGenerator()
        while values.count < 100_000 {
            let candidate: Double
            switch values.count % 4 {
            case 0:
                // Any bit pattern: mostly tiny or huge magnitudes, and every kind of exponent form.
                candidate = Double(bitPattern: generator.next())
            case 1:
                // Realistic Core Data timestamps with sub-second noise.
                candidate = Double.random(in: -3e9...3e9, using: &generator)
            case 2:
                // Seventeen significant digits spread over the whole range.
                candidate = Double.random(in: -1e17...1e17, using: &generator)
            default:
                // Tiny values close to the reference date, on both sides.
                candidate = Double.random(in: -1...1, using: &generator) * pow(10, Double.random(in: -320...0))
            }
            if candidate.isFinite && candidate.magnitude <= LosslessDate.maximumMagnitude { values.append(candidate) }
        }
        // The byte-level API the writer and reader use, with one reused buffer: fast even in debug builds.
        var failures: [String] = []
        var buffer: [UInt8] = []
        for value in values {
            buffer.removeAll(keepingCapacity: true)
            try LosslessDate.append(value, to: &buffer)
            let read = try buffer.withUnsafeBytes { bytes throws(LosslessDateError) in try LosslessDate.parse(bytes) }
            if read.bitPattern != value.bitPattern && failures.count < 5 {
                failures.append("\(value) → \(String(decoding: buffer, as: UTF8.self)) → \(read)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        // And the public String API on a sample.
        for value in values.prefix(2_000) {
            #expect(try seconds(text(value)).bitPattern == value.bitPattern)
        }
    }
}
