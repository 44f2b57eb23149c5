/// SHA-1 (FIPS 180-4), only for name-based UUIDs (RFC 9562 version 5); not used for security.
///
/// Exports derive an id per generic record and per link, so the hash works on raw memory: no array per block, no
/// padded copy of the message, the 16-word message schedule kept on the stack.
struct SHA1 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
    )

    /// The five digest words, most significant first.
    typealias Digest = (UInt32, UInt32, UInt32, UInt32, UInt32)

    static func hash(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { hash($0) }
    }

    static func hash(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var sha = SHA1()
        let absorbed = sha.absorbBlocks(of: message)
        let digest = sha.finish(rest: UnsafeRawBufferPointer(rebasing: message[absorbed...]), length: message.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        for word in [digest.0, digest.1, digest.2, digest.3, digest.4] {
            bytes.append(UInt8(word >> 24))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word))
        }
        return bytes
    }

    /// Absorbs the whole 64-byte blocks `bytes` starts with (a message's next bytes); returns how many that was. A
    /// hash stopped here can be copied and finished with different endings.
    mutating func absorbBlocks(of bytes: UnsafeRawBufferPointer) -> Int {
        let whole = bytes.count / 64 * 64
        var start = 0
        while start < whole {
            process(UnsafeRawBufferPointer(rebasing: bytes[start..<start + 64]))
            start += 64
        }
        return whole
    }

    /// The digest of a message of `length` bytes whose bytes before `rest` (fewer than 64) were absorbed as blocks.
    func finish(rest: UnsafeRawBufferPointer, length: Int) -> Digest {
        var sha = self
        // The rest, the 0x80 marker and the bit length: one block, or two when fewer than 9 bytes are left in it.
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            if let base = rest.baseAddress { tail.baseAddress!.copyMemory(from: base, byteCount: rest.count) }
            tail[rest.count] = 0x80
            let blocks = rest.count < 56 ? 1 : 2
            let bitLength = UInt64(length) &* 8
            for index in 0..<8 {
                tail[blocks * 64 - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * index))
            }
            let padded = UnsafeRawBufferPointer(tail)
            for block in 0..<blocks {
                sha.process(UnsafeRawBufferPointer(rebasing: padded[block * 64..<block * 64 + 64]))
            }
        }
        return sha.state
    }

    /// One 64-byte block, the schedule computed in place in 16 words as it is used.
    private mutating func process(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
            for i in 0..<16 {
                w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
            }
            var (a, b, c, d, e) = state
            for i in 0..<80 {
                let word: UInt32
                if i < 16 {
                    word = w[i]
                } else {
                    let x = w[(i - 3) & 15] ^ w[(i - 8) & 15] ^ w[(i - 14) & 15] ^ w[i & 15]
                    word = (x << 1) | (x >> 31)
                    w[i & 15] = word
                }
                let f: UInt32
                let k: UInt32
                if i < 20 {
                    f = (b & c) | (~b & d)
                    k = 0x5A82_7999
                } else if i < 40 {
                    f = b ^ c ^ d
                    k = 0x6ED9_EBA1
                } else if i < 60 {
                    f = (b & c) | (b & d) | (c & d)
                    k = 0x8F1B_BCDC
                } else {
                    f = b ^ c ^ d
                    k = 0xCA62_C1D6
                }
                let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ word
                e = d
                d = c
                c = (b << 30) | (b >> 2)
                b = a
                a = temp
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}
