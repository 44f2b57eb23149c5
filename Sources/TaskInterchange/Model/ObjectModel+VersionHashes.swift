import Foundation

/// Core Data's model version hashes (`NSStoreModelVersionHashes`), checksum and digest, computed as the reference
/// document §6 describes (verified there on 157 entities of 20 real stores).
extension ObjectModel {
    /// Entity name → 32-byte SHA-256 version hash.
    public var versionHashes: [String: [UInt8]] {
        var memo: [String: [UInt8]] = [:]
        for entity in entities { _ = hash(of: entity, memo: &memo) }
        return memo
    }

    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes in name order.
    public var versionChecksum: String {
        let hashes = versionHashes
        return Data(SHA2.sha256(Self.byteOrder(hashes.keys).flatMap { hashes[$0]! })).base64EncodedString()
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity name followed by its hash, in name order.
    public var versionHashesDigest: String {
        let hashes = versionHashes
        return Data(SHA2.sha512(Self.byteOrder(hashes.keys).flatMap { Array($0.utf8) + hashes[$0]! })).base64EncodedString()
    }

    static func byteOrder(_ names: some Sequence<String>) -> [String] {
        names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    private func hash(of entity: Entity, memo: inout [String: [UInt8]]) -> [UInt8] {
        if let known = memo[entity.name] { return known }
        var data = Array(entity.name.utf8) + [entity.isAbstract ? 1 : 0]
        var properties: [String: [UInt8]] = [:]
        var chain: [Entity] = []
        var current: Entity? = entity
        while let found = current, chain.count <= entities.count {
            chain.insert(found, at: 0)
            current = found.superentity.flatMap(self.entity(named:))
        }
        if let parent = entity.superentity.flatMap(self.entity(named:)) {
            data += hash(of: parent, memo: &memo)
        }
        // Inherited first, so a sub-entity's own property of the same name wins.
        for member in chain {
            for attribute in member.attributes where !attribute.isTransient { properties[attribute.name] = Self.hash(attribute) }
            for relationship in member.relationships where !relationship.isTransient { properties[relationship.name] = Self.hash(relationship) }
        }
        for name in Self.byteOrder(properties.keys) { data += properties[name]! }
        if let modifier = entity.versionHashModifier { data += Array(modifier.utf8) }
        for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ".") }).filter({ !$0.isEmpty }).sorted() {
            data += Array(constraint.utf8)
        }
        let result = SHA2.sha256(data)
        memo[entity.name] = result
        return result
    }

    private static func base(name: String, optional: Bool, transient: Bool, readOnly: Bool, modifier: String?) -> [UInt8] {
        let flags = UInt16(optional ? 1 : 0) | UInt16(transient ? 2 : 0) | UInt16(readOnly ? 4 : 0)
        return SHA2.sha256(Array(name.utf8) + littleEndian(flags) + Array((modifier ?? "").utf8))
    }

    static func hash(_ attribute: Attribute) -> [UInt8] {
        if let derivation = attribute.derivation {
            return SHA2.sha256(Array(derivation.utf8) + Array((attribute.derivationFilter ?? "").utf8))
        }
        var data = base(name: attribute.name, optional: attribute.isOptional, transient: attribute.isTransient,
                        readOnly: attribute.isReadOnly, modifier: attribute.versionHashModifier)
        data += littleEndian(UInt32(truncatingIfNeeded: attribute.type.rawValue))
        if attribute.allowsExternalStorage { data.append(1) }
        if attribute.preservesValueInHistoryOnDeletion { data.append(1) }
        return SHA2.sha256(data)
    }

    static func hash(_ relationship: Relationship) -> [UInt8] {
        var data = base(name: relationship.name, optional: relationship.isOptional, transient: relationship.isTransient,
                        readOnly: relationship.isReadOnly, modifier: relationship.versionHashModifier)
        data += Array(relationship.destination.utf8) + Array((relationship.inverse ?? "").utf8)
        data += littleEndian(UInt32(truncatingIfNeeded: relationship.maxCount)) + littleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered { data += [1, 0] }
        return SHA2.sha256(data)
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
