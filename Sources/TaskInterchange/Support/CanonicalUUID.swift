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

    /// The canonical spelling of `id`, as `uuidString` spells it, without going through Foundation's formatter: a
    /// generic export spells one per link.
    static func string(_ id: UUID) -> String {
        String(unsafeUninitializedCapacity: 36) { text in
            spell(id, at: UnsafeMutableRawPointer(text.baseAddress!))
            return 36
        }
    }

    /// Writes the 36 characters of `id`'s canonical spelling at `text`.
    @inline(__always)
    static func spell(_ id: UUID, at text: UnsafeMutableRawPointer) {
        let (first, second, third, fourth) = withUnsafeBytes(of: id.uuid) { bytes in
            func digits(_ offset: Int) -> UInt64 {
                hexDigits(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            }
            return (digits(0), digits(4), digits(8), digits(12))
        }
        // 8 `-` 4 `-` 4 `-` 4 `-` 4+8: the 32 digits come from four words of eight.
        text.storeBytes(of: first.littleEndian, as: UInt64.self)
        text.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 8, as: UInt8.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: second).littleEndian, toByteOffset: 9, as: UInt32.self)
        text.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 13, as: UInt8.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: second >> 32).littleEndian, toByteOffset: 14, as: UInt32.self)
        text.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 18, as: UInt8.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: third).littleEndian, toByteOffset: 19, as: UInt32.self)
        text.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 23, as: UInt8.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: third >> 32).littleEndian, toByteOffset: 24, as: UInt32.self)
        text.storeBytes(of: fourth.littleEndian, toByteOffset: 28, as: UInt64.self)
    }

    /// Four bytes (first byte lowest) as eight uppercase hex digits (first digit lowest), all at once (SWAR).
    @inline(__always)
    static func hexDigits(_ bytes: UInt32) -> UInt64 {
        // Byte i to byte 2i, then its high nibble stays there and its low nibble goes to byte 2i + 1.
        var spread = UInt64(bytes)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        let nibbles = ((spread >> 4) & 0x000F_000F_000F_000F) | ((spread & 0x000F_000F_000F_000F) << 8)
        // 0…9 → '0'…'9'; 10…15 → 'A'…'F' ('9' + 1 + 7 = 'A'): the carry of nibble + 6 says which.
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 7
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
