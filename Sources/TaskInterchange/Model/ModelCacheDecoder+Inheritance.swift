extension ModelCacheDecoder {
    /// Checks that entity names are unique and that every superentity exists, with no cycle and no absurd depth —
    /// the version-hash computation recurses along the chain, so a cycle there would never end.
    static func checkedInheritance(_ entities: [ArchivedEntity]) throws(ModelCacheError) -> [ArchivedEntity] {
        var parents: [String: String?] = [:]
        for archived in entities {
            guard parents.updateValue(archived.entity.superentity, forKey: archived.entity.name) == nil else {
                throw .malformed("two entities are named \(archived.entity.name)")
            }
        }
        for archived in entities {
            var chain = [archived.entity.name]
            var current = archived.entity.superentity
            while let parent = current {
                guard let grandparent = parents[parent] else {
                    throw .malformed("entity \(chain.last!)'s superentity \(parent) is not in the model")
                }
                guard !chain.contains(parent) else {
                    throw .malformed(
                        "entities \((chain + [parent]).joined(separator: " → ")) form an inheritance cycle")
                }
                chain.append(parent)
                guard chain.count <= maximumInheritanceDepth else {
                    throw .malformed(
                        "entity \(archived.entity.name) inherits through more than \(maximumInheritanceDepth) levels")
                }
                current = grandparent
            }
        }
        return entities
    }

    /// Splits each entity's archived properties into its own and inherited ones: a sub-entity archives every
    /// inherited property again (as a copy or a proxy), but `ObjectModel.Entity` holds only its own. A copy that
    /// hashes differently from the parent's property is kept as the entity's own, so version hashes stay exact.
    static func separateInherited(_ entities: [ArchivedEntity]) throws(ModelCacheError) -> [ObjectModel.Entity] {
        let byName = Dictionary(entities.map { ($0.entity.name, $0) }, uniquingKeysWith: { first, _ in first })
        func depth(_ name: String) -> Int {
            var count = 0
            var current = byName[name]?.entity.superentity
            while let parent = current, count <= maximumInheritanceDepth {
                count += 1
                current = byName[parent]?.entity.superentity
            }
            return count
        }
        // Parents before children, so a parent's full property set is known when its children are split.
        let ordered = entities.map { ($0, depth($0.entity.name)) }.sorted { $0.1 < $1.1 }.map(\.0)
        var fullProperties: [String: [String: Property]] = [:]
        var result: [ObjectModel.Entity] = []
        for archived in ordered {
            var entity = archived.entity
            let inherited = entity.superentity.flatMap { fullProperties[$0] } ?? [:]
            var all = inherited
            for (property, viaProxy) in archived.properties {
                all[property.name] = property
                if let parentProperty = inherited[property.name], viaProxy || sameVersion(parentProperty, property) {
                    continue
                }
                switch property {
                case .attribute(let attribute): entity.attributes.append(attribute)
                case .relationship(let relationship): entity.relationships.append(relationship)
                case .fetched(let name): entity.fetchedProperties.append(name)
                }
            }
            entity.attributes.sort { byteOrder($0.name, $1.name) }
            entity.relationships.sort { byteOrder($0.name, $1.name) }
            entity.fetchedProperties.sort(by: byteOrder)
            fullProperties[entity.name] = all
            result.append(entity)
        }
        return result
    }

    /// True when an inherited copy is the parent's property as far as the model's identity goes.
    private static func sameVersion(_ parent: Property, _ copy: Property) -> Bool {
        switch (parent, copy) {
        case (.attribute(let a), .attribute(let b)):
            return ObjectModel.hash(a) == ObjectModel.hash(b) && a.elements == b.elements
        case (.relationship(let a), .relationship(let b)):
            return ObjectModel.hash(a) == ObjectModel.hash(b)
        case (.fetched, .fetched):
            return true
        default:
            return false
        }
    }

    private static func byteOrder(_ a: String, _ b: String) -> Bool {
        Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }
}
