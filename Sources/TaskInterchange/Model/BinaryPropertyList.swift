/// A binary property list (`bplist00`) written with every dictionary's keys sorted, so that one value always gives the
/// same bytes. `PropertyListSerialization` writes a dictionary in the order it iterates it, which for a Swift
/// `Dictionary` changes from process to process (hashing is seeded per process).
///
/// Objects are laid out as Core Foundation's writer lays them out: the top object first, then depth first (a
/// dictionary's keys, then its values), equal strings, integers and data written once; integers in the fewest of 1,
/// 2, 4 or 8 bytes (8 when negative), strings as ASCII when they are, UTF-16 big-endian otherwise.
enum BinaryPropertyList {
    /// The values a store's metadata and a keyed archive need.
    indirect enum Value: Hashable {
        case string(String)
        case integer(Int64)
        case real(Double)
        case bool(Bool)
        /// A keyed archive's reference to one of its `$objects` (`CF$UID`).
        case uid(Int)
        case data([UInt8])
        case array([Value])
        case dictionary([String: Value])
    }

    /// The encoded property list.
    static func encode(_ value: Value) -> [UInt8] {
        var writer = Writer()
        writer.flatten(value)
        return writer.bytes()
    }

    /// Keys in UTF-16 code-unit order, as `CFStringCompare` without options orders them.
    static func sortedKeys(_ dictionary: [String: Value]) -> [String] {
        dictionary.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
    }

    private struct Writer {
        /// An object as written: a string, integer or data, or a container with the indexes of its items (a
        /// dictionary's keys, then its values).
        enum Object {
            case leaf(Value)
            case array([Int])
            case dictionary([Int])
        }

        /// Objects in the order they are written; containers refer to others by index.
        var objects: [Object] = []
        /// Leaves (strings, numbers, references, data) already listed (arrays and dictionaries are never shared).
        var shared: [Value: Int] = [:]

        /// Lists `value` and, after it, what it contains; returns its index.
        @discardableResult
        mutating func flatten(_ value: Value) -> Int {
            if let index = shared[value] { return index }
            let index = objects.count
            switch value {
            case .string, .integer, .real, .bool, .uid, .data:
                shared[value] = index
                objects.append(.leaf(value))
            case .array(let list):
                objects.append(.array([]))
                let items = list.map { flatten($0) }
                objects[index] = .array(items)
            case .dictionary(let dictionary):
                objects.append(.dictionary([]))
                let keys = BinaryPropertyList.sortedKeys(dictionary)
                let keyIndexes = keys.map { flatten(.string($0)) }
                let valueIndexes = keys.map { flatten(dictionary[$0]!) }
                objects[index] = .dictionary(keyIndexes + valueIndexes)
            }
            return index
        }

        /// The header, the objects, the offset table and the trailer.
        func bytes() -> [UInt8] {
            let referenceSize = Self.byteCount(UInt64(objects.count))
            var output = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for object in objects {
                offsets.append(output.count)
                switch object {
                case .leaf(.string(let text)):
                    if text.utf8.allSatisfy({ $0 < 0x80 }) {
                        Self.appendMarker(0x50, count: text.utf8.count, to: &output)
                        output += text.utf8
                    } else {
                        Self.appendMarker(0x60, count: text.utf16.count, to: &output)
                        for unit in text.utf16 { output += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
                    }
                case .leaf(.integer(let number)):
                    Self.appendInteger(number, to: &output)
                case .leaf(.real(let number)):
                    output.append(0x23)
                    Self.appendBigEndian(number.bitPattern, size: 8, to: &output)
                case .leaf(.bool(let flag)):
                    output.append(flag ? 0x09 : 0x08)
                case .leaf(.uid(let reference)):
                    // `0x8n`: n + 1 bytes follow, big-endian.
                    let size = Self.byteCount(UInt64(reference))
                    output.append(0x80 | UInt8(size - 1))
                    Self.appendBigEndian(UInt64(reference), size: size, to: &output)
                case .leaf(.data(let bytes)):
                    Self.appendMarker(0x40, count: bytes.count, to: &output)
                    output += bytes
                case .leaf(.array), .leaf(.dictionary):
                    preconditionFailure("containers are listed as .array or .dictionary")
                case .array(let items):
                    Self.appendMarker(0xA0, count: items.count, to: &output)
                    for item in items { Self.appendBigEndian(UInt64(item), size: referenceSize, to: &output) }
                case .dictionary(let items):
                    Self.appendMarker(0xD0, count: items.count / 2, to: &output)
                    for item in items { Self.appendBigEndian(UInt64(item), size: referenceSize, to: &output) }
                }
            }
            let tableOffset = output.count
            let offsetSize = Self.byteCount(UInt64(tableOffset))
            for offset in offsets { Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &output) }
            // Trailer: six unused bytes (the sort version among them, 0), the two sizes, then three 8-byte numbers:
            // the object count, the top object's index (0) and the offset table's offset.
            output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            Self.appendBigEndian(UInt64(objects.count), size: 8, to: &output)
            Self.appendBigEndian(0, size: 8, to: &output)
            Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
            return output
        }

        /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
        static func byteCount(_ value: UInt64) -> Int {
            value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
        }

        static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }

        /// An integer object: `0x1n` with 2ⁿ bytes following, big-endian.
        static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
            let size = number < 0 ? 8 : byteCount(UInt64(number))
            let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
            output.append(0x10 | exponent)
            appendBigEndian(UInt64(bitPattern: number), size: size, to: &output)
        }

        /// A marker with its count in the low nibble, or `0xF` and the count as an integer object after it.
        static func appendMarker(_ marker: UInt8, count: Int, to output: inout [UInt8]) {
            if count < 15 {
                output.append(marker | UInt8(count))
            } else {
                output.append(marker | 0x0F)
                appendInteger(Int64(count), to: &output)
            }
        }
    }
}
