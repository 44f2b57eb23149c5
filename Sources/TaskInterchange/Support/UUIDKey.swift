import Foundation

/// A UUID as a set or dictionary key, hashed with one wide multiplication of its halves (mixed with a key drawn once
/// per process, so an archive cannot be built to collide) instead of SipHash over its 16 bytes: ids are hashed once
/// or more per record, and SipHash was a sixth of `tasks validate`'s time.
struct UUIDKey: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init(_ id: UUID) {
        (high, low) = withUnsafeBytes(of: id.uuid) {
            ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    /// The UUID.
    var id: UUID {
        UUID(uuid: withUnsafeBytes(of: (high, low)) { $0.loadUnaligned(as: uuid_t.self) })
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }

    /// The hash `Set` and `Dictionary` use; `seed` varies per table as with any key.
    func _rawHashValue(seed: Int) -> Int {
        let product = (high ^ Self.secret.high).multipliedFullWidth(
            by: low ^ Self.secret.low ^ UInt64(UInt(bitPattern: seed)))
        return Int(truncatingIfNeeded: product.high ^ product.low)
    }

    private static let secret = (
        high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max)
    )
}
