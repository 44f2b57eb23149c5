import Foundation

/// The one UUID spelling archives use: 36 characters, uppercase hexadecimal, hyphens at 8-4-4-4-12 (`uuidString`).
enum CanonicalUUID {
    /// An example for messages.
    static let example = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

    /// The UUID spelled canonically in `bytes`, or nil for any other text (lowercase, braces, no hyphens…).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> UUID? {
        guard bytes.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &uuid) { output -> Bool in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard bytes[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = hexValue(bytes[position]), let low = hexValue(bytes[position + 1]) else { return false }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return valid ? UUID(uuid: uuid) : nil
    }

    /// Why `text` is not a canonical UUID, with the canonical spelling when the text is a UUID in another form.
    static func problem(with text: String) -> String {
        let shown = text.count > 60 ? "\"\(text.prefix(60))…\"" : "\"\(text)\""
        let canonicalForm = "canonical UUIDs are 36 characters, uppercase hexadecimal digits in groups of 8-4-4-4-12 "
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

    /// 0…15 for `0-9` and `A-F` (uppercase only).
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
