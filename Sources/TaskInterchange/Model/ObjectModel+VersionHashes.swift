import Foundation

/// Core Data's model version hashes (`NSStoreModelVersionHashes`), checksum and digest, computed from each entity's
/// and property's hashed attributes (checked against the stored hashes of every real store with a model cache, see
/// `ModelCacheFixtureTests`).
///
/// Two rules come from reading decompiled Core Data and are **not verified against any real store** (no store we hold
/// has a reflexive relationship or a composite attribute): a relationship that is its own inverse is hashed without
/// the inverse name, and a composite attribute is hashed from its leaf elements alone.
extension ObjectModel {
    /// Entity name → 32-byte SHA-256 version hash.
    package var versionHashes: [String: [UInt8]] {
        var memo: [String: [UInt8]] = [:]
        let byName = entitiesByName
        for entity in entities {
            var visiting: Set<String> = []
            _ = hash(of: entity, byName: byName, memo: &memo, visiting: &visiting)
        }
        return memo
    }

    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes in name order.
    package var versionChecksum: String {
        Self.checksum(of: versionHashes)
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity name followed by its hash, in name order.
    package var versionHashesDigest: String {
        Self.digest(of: versionHashes)
    }

    /// `versionChecksum` of hashes already computed.
    static func checksum(of hashes: [String: [UInt8]]) -> String {
        Data(SHA2.sha256(byteOrder(hashes.keys).flatMap { hashes[$0]! })).base64EncodedString()
    }

    /// `versionHashesDigest` of hashes already computed.
    static func digest(of hashes: [String: [UInt8]]) -> String {
        Data(SHA2.sha512(byteOrder(hashes.keys).flatMap { Array($0.utf8) + hashes[$0]! })).base64EncodedString()
    }

    static func byteOrder(_ names: some Sequence<String>) -> [String] {
        names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// `byName`: `entitiesByName`, so that the lookups of every entity's ancestry stay cheap in a large model.
    private func hash(
        of entity: Entity, byName: [String: Entity], memo: inout [String: [UInt8]], visiting: inout Set<String>
    ) -> [UInt8] {
        if let known = memo[entity.name] { return known }
        visiting.insert(entity.name)
        var data = Array(entity.name.utf8) + [entity.isAbstract ? 1 : 0]
        var properties: [String: [UInt8]] = [:]
        let chain = Array(ancestry(of: entity, in: byName).reversed())
        // A superentity cycle (only a hand-built model can have one) stops at the first entity seen again.
        if let parent = entity.superentity.flatMap({ byName[$0] }), !visiting.contains(parent.name) {
            data += hash(of: parent, byName: byName, memo: &memo, visiting: &visiting)
        }
        // Inherited first, so a sub-entity's own property of the same name wins.
        for member in chain {
            for attribute in member.attributes where !attribute.isTransient {
                properties[attribute.name] = Self.hash(attribute)
            }
            for relationship in member.relationships where !relationship.isTransient {
                properties[relationship.name] = Self.hash(
                    relationship, isOwnInverse: isOwnInverse(relationship, declaredBy: member, byName: byName))
            }
        }
        for name in Self.byteOrder(properties.keys) { data += properties[name]! }
        if let modifier = entity.versionHashModifier { data += Array(modifier.utf8) }
        for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ".") }).filter({ !$0.isEmpty })
            .sorted()
        {
            data += Array(constraint.utf8)
        }
        let result = SHA2.sha256(data)
        memo[entity.name] = result
        return result
    }

    private static func base(name: String, optional: Bool, transient: Bool, readOnly: Bool, modifier: String?)
        -> [UInt8]
    {
        let flags = UInt16(optional ? 1 : 0) | UInt16(transient ? 2 : 0) | UInt16(readOnly ? 4 : 0)
        return SHA2.sha256(Array(name.utf8) + littleEndian(flags) + Array((modifier ?? "").utf8))
    }

    /// True for a relationship whose inverse is itself: its inverse name is its own name and its destination is the
    /// entity that declares it or one of that entity's ancestors (looked up in `byName` when given, see
    /// `ancestry(of:in:)`). Unverified on real stores (see the type comment).
    func isOwnInverse(_ relationship: Relationship, declaredBy entity: Entity, byName: [String: Entity]? = nil) -> Bool
    {
        guard relationship.inverse == relationship.name else { return false }
        let chain = byName.map { ancestry(of: entity, in: $0) } ?? ancestry(of: entity)
        return chain.contains { $0.name == relationship.destination }
    }

    static func hash(_ attribute: Attribute) -> [UInt8] {
        if attribute.type == .composite {
            // Unverified on real stores: H(the leaf elements' attribute hashes, nested composites flattened, leaves in
            // byte-wise name order, transient leaves skipped); the composite's own name, flags and type take no part.
            return SHA2.sha256(byteOrderedLeaves(of: attribute).flatMap { hash($0) })
        }
        if let derivation = attribute.derivation {
            return SHA2.sha256(Array(derivation.utf8) + Array((attribute.derivationFilter ?? "").utf8))
        }
        var data = base(
            name: attribute.name, optional: attribute.isOptional, transient: attribute.isTransient,
            readOnly: attribute.isReadOnly, modifier: attribute.versionHashModifier)
        data += littleEndian(UInt32(truncatingIfNeeded: attribute.type.rawValue))
        if attribute.allowsExternalStorage { data.append(1) }
        if attribute.preservesValueInHistoryOnDeletion { data.append(1) }
        return SHA2.sha256(data)
    }

    /// The stored leaves of a composite attribute: nested composites flattened, transient leaves left out, in
    /// byte-wise name order.
    static func byteOrderedLeaves(of composite: Attribute) -> [Attribute] {
        var leaves: [Attribute] = []
        // Values cannot nest cyclically, so the recursion ends.
        func collect(_ attribute: Attribute) {
            for element in attribute.elements {
                if element.type == .composite {
                    collect(element)
                } else if !element.isTransient {
                    leaves.append(element)
                }
            }
        }
        collect(composite)
        // A stable sort: leaves of the same name (in different nested composites) keep their element order.
        return leaves.enumerated().sorted { a, b in
            let (x, y) = (Array(a.element.name.utf8), Array(b.element.name.utf8))
            return x == y ? a.offset < b.offset : x.lexicographicallyPrecedes(y)
        }.map(\.element)
    }

    /// A relationship's hash; `isOwnInverse` leaves the inverse name out (unverified on real stores).
    static func hash(_ relationship: Relationship, isOwnInverse: Bool = false) -> [UInt8] {
        var data = base(
            name: relationship.name, optional: relationship.isOptional, transient: relationship.isTransient,
            readOnly: relationship.isReadOnly, modifier: relationship.versionHashModifier)
        data += Array(relationship.destination.utf8)
        if !isOwnInverse { data += Array((relationship.inverse ?? "").utf8) }
        data +=
            littleEndian(UInt32(truncatingIfNeeded: relationship.maxCount))
            + littleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered { data += [1, 0] }
        return SHA2.sha256(data)
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
