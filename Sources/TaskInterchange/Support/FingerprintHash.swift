/// A fast 128-bit hash of bytes, for fingerprints compared within one run: it tells records apart that a bug or a
/// concurrent write changed, not input made to collide, and costs a multiplication per 8 bytes instead of a
/// cryptographic digest's 80 rounds per 64.
///
/// Two lanes, each 16 bytes a step: each block's two words, each mixed with both lanes' states, are folded through a
/// full 64×64→128-bit multiplication (high half XOR low half) with other constants per lane, and the product is added
/// to the lane's state, so a difference has to collide in both lanes; no block can reset a state (a factor is zero
/// only for words that depend on the state before it). The length is mixed in at the end, so inputs that differ only
/// in trailing zero bytes differ.
enum FingerprintHash {
    // The first 64 bits of the fractional parts of the square roots of 2, 3, 5 and 7: constants with no structure.
    private static let k0: UInt64 = 0x6A09_E667_F3BC_C908
    private static let k1: UInt64 = 0xBB67_AE85_84CA_A73B
    private static let k2: UInt64 = 0x3C6E_F372_FE94_F82B
    private static let k3: UInt64 = 0xA54F_F53A_5F1D_36F1

    static func hash(_ bytes: UnsafeRawBufferPointer) -> (high: UInt64, low: UInt64) {
        var a = k0
        var b = k2
        let whole = bytes.count & ~15
        var offset = 0
        while offset < whole {
            let x = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
            let y = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian
            (a, b) = step(a, b, x, y)
            offset += 16
        }
        var x: UInt64 = 0
        var y: UInt64 = 0
        for index in whole..<bytes.count {
            let byte = UInt64(bytes[index]) << (UInt64(index & 7) * 8)
            if index & 15 < 8 { x |= byte } else { y |= byte }
        }
        (a, b) = step(a, b, x, y)
        let length = UInt64(bytes.count)
        return (b &+ fold(a ^ length ^ k0, b ^ k1), a &+ fold(b ^ length ^ k2, a ^ k3))
    }

    /// One block: both words reach both lanes, and each lane keeps its state under the product it adds.
    private static func step(_ a: UInt64, _ b: UInt64, _ x: UInt64, _ y: UInt64) -> (UInt64, UInt64) {
        (a &+ fold(x ^ a ^ k1, y ^ b ^ k0), b &+ fold(y ^ b ^ k3, x ^ a ^ k2))
    }

    /// The product's two halves folded into one: every bit of both factors reaches the result.
    private static func fold(_ x: UInt64, _ y: UInt64) -> UInt64 {
        let product = x.multipliedFullWidth(by: y)
        return product.high ^ product.low
    }
}
