import Foundation

/// The one UUID spelling archives use: 36 characters, uppercase hexadecimal, hyphens at 8-4-4-4-12 (`uuidString`).
enum CanonicalUUID {
    /// An example for messages.
    static let example = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

    /// The UUID spelled canonically in `text`, or nil for any other text.
    static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// The UUID spelled canonically in `bytes`, or nil for any other text (lowercase, braces, no hyphens…).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> UUID? {
        guard bytes.count == 36, bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"),
            bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-")
        else { return nil }
        func load64(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func load32(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        // The 32 digits as four words of eight: 0-7, 9-12 + 14-17, 19-22 + 24-27, 28-35.
        guard let first = decodeHex(load64(0)), let second = decodeHex(load32(9) | load32(14) << 32),
            let third = decodeHex(load32(19) | load32(24) << 32), let fourth = decodeHex(load64(28))
        else {
            return nil
        }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { output in
            output.storeBytes(of: first.littleEndian, toByteOffset: 0, as: UInt32.self)
            output.storeBytes(of: second.littleEndian, toByteOffset: 4, as: UInt32.self)
            output.storeBytes(of: third.littleEndian, toByteOffset: 8, as: UInt32.self)
            output.storeBytes(of: fourth.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        return UUID(uuid: uuid)
    }

    /// Eight ASCII hex digits (`0-9`, `A-F`; first digit in the lowest byte) as four bytes (first byte lowest), or
    /// nil when any byte is something else. Works on all eight bytes at once (SWAR).
    @inline(__always)
    private static func decodeHex(_ word: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        guard word & highs == 0 else { return nil }
        // For bytes below 0x80, adding 0x80 − n sets the high bit exactly when the byte is at least n.
        func atLeast(_ bound: UInt64) -> UInt64 { (word &+ ones &* (0x80 - bound)) & highs }
        let digits = atLeast(0x30) & ~atLeast(0x3A)
        let letters = atLeast(0x41) & ~atLeast(0x47)
        guard digits | letters == highs else { return nil }
        // '0'…'9' → low nibble; 'A'…'F' → low nibble (1…6) + 9.
        let values = (word & (ones &* 0x0F)) &+ ((word >> 6) & ones) &* 9
        // Pairs of nibbles into bytes, then the even bytes together.
        var packed = ((values << 4) | (values >> 8)) & 0x00FF_00FF_00FF_00FF
        packed = (packed | packed >> 8) & 0x0000_FFFF_0000_FFFF
        packed = (packed | packed >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(packed)
    }

    /// Why `text` is not a canonical UUID, with the canonical spelling when the text is a UUID in another form.
    static func problem(with text: String) -> String {
        let shown = text.count > 60 ? "\"\(text.prefix(60))…\"" : "\"\(text)\""
        let canonicalForm =
            "canonical UUIDs are 36 characters, uppercase hexadecimal digits in groups of 8-4-4-4-12 "
            + "separated by hyphens, such as \(example)"
        var bare = text
        if bare.hasPrefix("{") && bare.hasSuffix("}") && bare.count > 2 {
            bare = String(bare.dropFirst().dropLast())
            if let uuid = UUID(uuidString: bare) {
                return "\(shown) is wrapped in braces; write \(uuid.uuidString) (\(canonicalForm))"
            }
        }
        if bare.count == 32, bare.allSatisfy(\.isHexDigit) {
            var hyphenated = bare
            for offset in [20, 16, 12, 8] {
                hyphenated.insert("-", at: hyphenated.index(hyphenated.startIndex, offsetBy: offset))
            }
            if let uuid = UUID(uuidString: hyphenated) {
                return "\(shown) has no hyphens; write \(uuid.uuidString) (\(canonicalForm))"
            }
        }
        if let uuid = UUID(uuidString: bare), bare == text {
            return "\(shown) uses lowercase letters; write \(uuid.uuidString) (\(canonicalForm))"
        }
        return "\(shown) is not a UUID; \(canonicalForm)"
    }

}
