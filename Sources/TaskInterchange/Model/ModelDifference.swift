/// One way a model version differs from the model a store was made with: what Core Data's "missing source managed
/// object model" (error 134130) leaves unsaid. Differences are computed from version hashes where that is all the
/// store keeps, and property by property where the store has a model cache.
package struct ModelDifference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What happened, seen from the store's model to the version's.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// In the version, not in the store.
        case added
        /// In the store, not in the version.
        case removed
        /// The version names it differently and its renaming identifier is the store's name.
        case renamed
        /// An attribute's type differs, or a property is an attribute on one side and a relationship on the other.
        case typeChanged = "type changed"
        /// Something else the version hash covers differs (optionality, destination, inverse, counts, order,
        /// a version hash modifier, an entity's parent, abstractness or uniqueness constraints).
        case changed
    }

    /// The entity (the store's name for it).
    package var entity: String
    /// The property, or nil for the entity itself.
    package var property: String?
    /// What kind of difference.
    package var kind: Kind
    /// What differs, for people.
    package var detail: String

    /// Creates a difference.
    package init(entity: String, property: String? = nil, kind: Kind, detail: String) {
        self.entity = entity
        self.property = property
        self.kind = kind
        self.detail = detail
    }

    /// `Entity.property: kind: detail`.
    package var description: String {
        "\(entity)\(property.map { "." + $0 } ?? ""): \(kind.rawValue): \(detail)"
    }

    /// The differences between the model a store was made with and a version of a model.
    /// - Parameters:
    ///   - storedHashes: the store's `NSStoreModelVersionHashes`.
    ///   - storeModel: the store's model cache, when it has one (gives property-level reasons).
    ///   - version: the model version compared.
    package static func between(storedHashes: [String: [UInt8]], storeModel: ObjectModel?, version: ObjectModel)
        -> [ModelDifference]
    {
        let versionHashes = version.versionHashes
        var result: [ModelDifference] = []
        // A renamed entity: the version's entity whose renaming identifier is a stored name the version lacks.
        var renamedFrom: [String: String] = [:]
        for entity in version.entities {
            if let old = entity.renamingIdentifier, storedHashes[old] != nil, versionHashes[old] == nil,
                storedHashes[entity.name] == nil
            {
                renamedFrom[old] = entity.name
            }
        }
        for name in ObjectModel.byteOrder(storedHashes.keys) {
            if let new = renamedFrom[name] {
                result.append(
                    .init(
                        entity: name, kind: .renamed,
                        detail: "entity \(name) is \(new) in the version (renaming identifier \(name))"))
                continue
            }
            guard let hash = versionHashes[name] else {
                result.append(.init(entity: name, kind: .removed, detail: "entity \(name) is not in the version"))
                continue
            }
            guard hash != storedHashes[name] else { continue }
            guard let storeModel, let stored = storeModel.entity(named: name),
                let current = version.entity(named: name),
                storeModel.versionHashes[name] == storedHashes[name]
            else {
                result.append(
                    .init(
                        entity: name, kind: .changed,
                        detail: "its version hash differs (the store keeps no model cache to say why)"))
                continue
            }
            let before = result.count
            result += entityDifferences(stored, in: storeModel, current, in: version)
            if result.count == before {
                // A sub-entity's hash includes its parent's: name the parent rather than repeat its differences.
                let parent = current.superentity.flatMap { parent in
                    versionHashes[parent] != storedHashes[parent] ? parent : nil
                }
                result.append(
                    .init(
                        entity: name, kind: .changed,
                        detail: parent.map { "inherits the changes of \($0)" } ?? "its version hash differs"))
            }
        }
        for name in ObjectModel.byteOrder(versionHashes.keys)
        where storedHashes[name] == nil && !renamedFrom.values.contains(name) {
            result.append(.init(entity: name, kind: .added, detail: "entity \(name) is new in the version"))
        }
        return result
    }

    /// Property and entity differences of one entity whose hash differs.
    static func entityDifferences(
        _ stored: ObjectModel.Entity, in storeModel: ObjectModel,
        _ current: ObjectModel.Entity, in version: ObjectModel
    ) -> [ModelDifference] {
        var result: [ModelDifference] = []
        let name = stored.name
        if stored.superentity != current.superentity {
            result.append(
                .init(
                    entity: name, kind: .changed,
                    detail: "parent entity \(stored.superentity ?? "none") → \(current.superentity ?? "none")"))
        }
        if stored.isAbstract != current.isAbstract {
            result.append(
                .init(entity: name, kind: .changed, detail: current.isAbstract ? "made abstract" : "no longer abstract")
            )
        }
        if stored.versionHashModifier != current.versionHashModifier {
            result.append(
                .init(
                    entity: name, kind: .changed,
                    detail:
                        """
                        version hash modifier \(quoted(stored.versionHashModifier)) \
                        → \(quoted(current.versionHashModifier))
                        """
                ))
        }
        let (storedConstraints, currentConstraints) = (
            stored.uniquenessConstraints.map { $0.joined(separator: ", ") }.sorted(),
            current.uniquenessConstraints.map { $0.joined(separator: ", ") }.sorted()
        )
        if storedConstraints != currentConstraints {
            result.append(
                .init(
                    entity: name, kind: .changed,
                    detail:
                        """
                        uniqueness constraints [\(storedConstraints.joined(separator: "; "))] \
                        → [\(currentConstraints.joined(separator: "; "))]
                        """
                ))
        }
        var before = properties(of: stored, in: storeModel)
        var after = properties(of: current, in: version)
        // Properties both sides inherit are reported with the entity that declares them.
        let own = Set(
            stored.attributes.map(\.name) + stored.relationships.map(\.name) + current.attributes.map(\.name)
                + current.relationships.map(\.name))
        before = before.filter { own.contains($0.key) }
        after = after.filter { own.contains($0.key) }
        var renamedTo: [String: String] = [:]
        for (newName, property) in after where before[newName] == nil {
            if let old = property.renamingIdentifier, before[old] != nil, after[old] == nil { renamedTo[old] = newName }
        }
        for propertyName in ObjectModel.byteOrder(before.keys) {
            let old = before[propertyName]!
            if let newName = renamedTo[propertyName] {
                result.append(
                    .init(
                        entity: name, property: propertyName, kind: .renamed,
                        detail: "\(propertyName) is \(newName) in the version (renaming identifier \(propertyName))"))
                continue
            }
            guard let new = after[propertyName] else {
                result.append(
                    .init(
                        entity: name, property: propertyName, kind: .removed,
                        detail: "\(old.kindName) \(propertyName) is not in the version"))
                continue
            }
            if let difference = old.difference(to: new) {
                result.append(
                    .init(entity: name, property: propertyName, kind: difference.kind, detail: difference.detail))
            }
        }
        for propertyName in ObjectModel.byteOrder(after.keys)
        where before[propertyName] == nil && !renamedTo.values.contains(propertyName) {
            result.append(
                .init(
                    entity: name, property: propertyName, kind: .added,
                    detail: "\(after[propertyName]!.kindName) \(propertyName) is new in the version"))
        }
        return result
    }

    /// A stored property, own or inherited.
    enum Property {
        case attribute(ObjectModel.Attribute)
        case relationship(ObjectModel.Relationship)

        var kindName: String {
            if case .attribute = self { return "attribute" }
            return "relationship"
        }

        var renamingIdentifier: String? {
            switch self {
            case .attribute(let attribute): return attribute.renamingIdentifier
            case .relationship(let relationship): return relationship.renamingIdentifier
            }
        }

        /// How `self` (the store's) became `other` (the version's), or nil when they hash the same.
        func difference(to other: Property) -> (kind: Kind, detail: String)? {
            switch (self, other) {
            case (.attribute(let a), .attribute(let b)):
                guard ObjectModel.hash(a) != ObjectModel.hash(b) else { return nil }
                if a.type != b.type {
                    return (
                        .typeChanged,
                        "type \(XCDataModelParser.typeName(a.type)) → \(XCDataModelParser.typeName(b.type))"
                    )
                }
                var changes: [String] = []
                if a.isOptional != b.isOptional { changes.append(b.isOptional ? "made optional" : "made required") }
                if a.isReadOnly != b.isReadOnly {
                    changes.append(b.isReadOnly ? "made read-only" : "no longer read-only")
                }
                if a.versionHashModifier != b.versionHashModifier {
                    changes.append(
                        "version hash modifier \(quoted(a.versionHashModifier)) → \(quoted(b.versionHashModifier))")
                }
                if a.allowsExternalStorage != b.allowsExternalStorage {
                    changes.append(
                        b.allowsExternalStorage ? "external storage allowed" : "external storage no longer allowed")
                }
                if a.preservesValueInHistoryOnDeletion != b.preservesValueInHistoryOnDeletion {
                    changes.append("history preservation changed")
                }
                if a.derivation != b.derivation {
                    changes.append("derivation \(quoted(a.derivation)) → \(quoted(b.derivation))")
                }
                return (.changed, changes.isEmpty ? "its hash differs" : changes.joined(separator: ", "))
            case (.relationship(let a), .relationship(let b)):
                guard ObjectModel.hash(a) != ObjectModel.hash(b) else { return nil }
                var changes: [String] = []
                if a.destination != b.destination {
                    changes.append("destination \(a.destination) → \(b.destination)")
                }
                if a.inverse != b.inverse {
                    changes.append("inverse \(a.inverse ?? "none") → \(b.inverse ?? "none")")
                }
                if a.isToMany != b.isToMany { changes.append(b.isToMany ? "to-one → to-many" : "to-many → to-one") }
                if a.maxCount != b.maxCount && a.isToMany == b.isToMany {
                    changes.append("maximum count \(a.maxCount) → \(b.maxCount)")
                }
                if a.minCount != b.minCount { changes.append("minimum count \(a.minCount) → \(b.minCount)") }
                if a.isOrdered != b.isOrdered { changes.append(b.isOrdered ? "made ordered" : "no longer ordered") }
                if a.isOptional != b.isOptional { changes.append(b.isOptional ? "made optional" : "made required") }
                if a.isReadOnly != b.isReadOnly {
                    changes.append(b.isReadOnly ? "made read-only" : "no longer read-only")
                }
                if a.versionHashModifier != b.versionHashModifier {
                    changes.append(
                        "version hash modifier \(quoted(a.versionHashModifier)) → \(quoted(b.versionHashModifier))")
                }
                return (.changed, changes.isEmpty ? "its hash differs" : changes.joined(separator: ", "))
            case (.attribute(let a), .relationship(let b)):
                return (
                    .typeChanged,
                    "attribute of type \(XCDataModelParser.typeName(a.type)) → relationship to \(b.destination)"
                )
            case (.relationship(let a), .attribute(let b)):
                return (
                    .typeChanged,
                    "relationship to \(a.destination) → attribute of type \(XCDataModelParser.typeName(b.type))"
                )
            }
        }
    }

    /// Every stored property an entity declares or inherits, by name (a sub-entity's own wins, as in the hash).
    static func properties(of entity: ObjectModel.Entity, in model: ObjectModel) -> [String: Property] {
        var result: [String: Property] = [:]
        for member in model.ancestry(of: entity).reversed() {
            for attribute in member.attributes where !attribute.isTransient {
                result[attribute.name] = .attribute(attribute)
            }
            for relationship in member.relationships where !relationship.isTransient {
                result[relationship.name] = .relationship(relationship)
            }
        }
        return result
    }

    static func quoted(_ text: String?) -> String {
        text.map { "\"\($0)\"" } ?? "none"
    }
}
