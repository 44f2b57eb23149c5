import Foundation

/// Default values as text: archives hold them as plist scalars or as small Foundation objects.
extension ModelCacheDecoder {
    /// The text of an attribute's `NSDefaultValue`, or nil when there is none or it is an object without a text form
    /// (a transformable's custom object, a composite's dictionary). Booleans read `YES`/`NO` as in the model editor,
    /// dates are ISO 8601 UTC, decimals exact, UUIDs uppercase, data base64.
    func defaultValueText(_ value: KeyedArchive.Value?, _ context: String) throws(ModelCacheError) -> String? {
        guard let value, let resolved = try archived({ () throws(KeyedArchiveError) in try archive.resolve(value) })
        else { return nil }
        switch resolved {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return Self.numberText(number)
        case .bool(let flag): return flag ? "YES" : "NO"
        case .date(let date): return try? LosslessDate.string(from: date)
        case .data(let bytes): return bytes.base64EncodedString()
        case .array, .reference: return nil
        case .dictionary(let fields):
            guard fields["$class"] != nil else { return nil }
            let classes = try classNames(fields)
            let label = "\(context)'s default value"
            if classes.contains("NSString") || classes.contains("NSMutableString") { return try string(value, label) }
            if classes.contains("NSDate") {
                switch fields["NS.time"] {
                case .real(let seconds)?:
                    return try? LosslessDate.string(from: Date(timeIntervalSinceReferenceDate: seconds))
                case .integer(let seconds)?:
                    return try? LosslessDate.string(from: Date(timeIntervalSinceReferenceDate: Double(seconds)))
                default: return nil
                }
            }
            if classes.contains("NSUUID"), case .data(let bytes)? = fields["NS.uuidbytes"], bytes.count == 16 {
                let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
                return uuid.uuidString
            }
            if classes.contains("NSDecimalNumberPlaceholder") || classes.contains("NSDecimalNumber") {
                return try decimalText(fields, label)
            }
            if classes.contains("NSURL") {
                return try string(fields["NS.relative"], label)
            }
            if classes.contains("NSData") || classes.contains("NSMutableData"),
                case .data(let bytes)? = fields["NS.data"]
            {
                return bytes.base64EncodedString()
            }
            return nil
        }
    }

    /// An archived `NSDecimalNumber`: up to eight 16-bit mantissa words (least significant first, in the byte order
    /// `NS.mantissa.bo` names: 1 little-endian, 2 big-endian), a power-of-ten exponent and a sign.
    private func decimalText(_ fields: Fields, _ context: String) throws(ModelCacheError) -> String {
        guard case .data(let bytes)? = fields["NS.mantissa"] else {
            throw .malformed("\(context) is a decimal without a mantissa")
        }
        let length = Int(try integer(fields["NS.length"], context) ?? 0)
        let exponent = Int(try integer(fields["NS.exponent"], context) ?? 0)
        let negative = try flag(fields["NS.negative"], context) ?? false
        let bigEndian = try integer(fields["NS.mantissa.bo"], context) == 2
        guard (0...8).contains(length), bytes.count >= length * 2, (-128...127).contains(exponent) else {
            throw .malformed(
                "\(context) is a decimal with \(length) mantissa words in \(bytes.count) bytes, exponent \(exponent)")
        }
        let raw = Array(bytes)
        var words: [UInt32] = (0..<length).map { index in
            let first = UInt32(raw[index * 2]), second = UInt32(raw[index * 2 + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        // Repeated division of the little-endian word array by ten yields the digits, least significant first.
        var digits: [Character] = []
        while words.contains(where: { $0 != 0 }) {
            var remainder: UInt32 = 0
            for index in words.indices.reversed() {
                let current = remainder << 16 | words[index]
                words[index] = current / 10
                remainder = current % 10
            }
            digits.append(Character(String(remainder)))
        }
        guard !digits.isEmpty else { return "0" }
        var text = String(digits.reversed())
        if exponent > 0 {
            text += String(repeating: "0", count: exponent)
        } else if exponent < 0 {
            let places = -exponent
            if text.count <= places { text = String(repeating: "0", count: places - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -places))
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return negative ? "-" + text : text
    }
}
