/// Which version of a model made a store: the version whose entity version hashes equal the store's stored ones
/// (what Core Data compares on open). Versions with identical hashes (the hash ignores delete rules, class names and
/// transformer names) are reported as tied and told apart by the store's model version identifiers when those differ.
/// When no version matches, the closest one and how it differs — the diagnosis Core Data's error 134130 lacks.
package struct ModelIdentification: Sendable, Encodable {
    /// How one version compares with the store.
    package struct Candidate: Sendable, Encodable {
        /// The version's name.
        package var name: String
        /// Its entities whose hash equals the stored one.
        package var matchingEntities: Int
        /// Its entities.
        package var entities: Int
        /// Its model version identifiers.
        package var versionIdentifiers: [String]
        /// True when every hash equals the store's (and the entity sets are the same).
        package var matches: Bool
    }

    /// The store, as named.
    package var store: String
    /// The model, as named.
    package var model: String
    /// The store's entity count (in its stored hashes).
    package var storeEntities: Int
    /// The store's `NSStoreModelVersionIdentifiers`.
    package var storeVersionIdentifiers: [String]
    /// True when the store has a model cache (so differences are explained property by property).
    package var storeHasModelCache: Bool
    /// The version that made the store: the one match, or the tied match the version identifiers single out; nil
    /// when none matches or a tie cannot be broken.
    package var version: String?
    /// Every matching version when more than one matches.
    package var tied: [String]
    /// How a tie was broken, or why it could not be.
    package var tieBreak: String?
    /// When none matches: the version with the fewest differences.
    package var closest: String?
    /// The closest version's differences from the store.
    package var differences: [ModelDifference]
    /// Every version, in the model's order.
    package var candidates: [Candidate]

    /// True when at least one version's hashes equal the store's.
    package var matched: Bool { candidates.contains { $0.matches } }

    /// Compares every version of `source` with a store's metadata (and model cache, when it has one).
    /// - Parameters:
    ///   - storeModel: the store's model cache, for property-level differences.
    package init(store: String, metadata: StoreMetadata, storeModel: ObjectModel?, source: ModelSource) {
        self.store = store
        self.model = source.path
        storeEntities = metadata.versionHashes.count
        storeVersionIdentifiers = metadata.versionIdentifiers
        storeHasModelCache = storeModel != nil
        var candidates: [Candidate] = []
        var differencesByVersion: [String: [ModelDifference]] = [:]
        for version in source.versions {
            let hashes = version.model.versionHashes
            let matching = hashes.filter { metadata.versionHashes[$0.key] == $0.value }.count
            candidates.append(
                Candidate(
                    name: version.name, matchingEntities: matching, entities: hashes.count,
                    versionIdentifiers: version.model.versionIdentifiers, matches: hashes == metadata.versionHashes))
            if hashes != metadata.versionHashes {
                differencesByVersion[version.name] = ModelDifference.between(
                    storedHashes: metadata.versionHashes, storeModel: storeModel,
                    version: version.model)
            }
        }
        self.candidates = candidates
        let matches = candidates.filter(\.matches)
        tied = matches.count > 1 ? matches.map(\.name) : []
        differences = []
        switch matches.count {
        case 0:
            version = nil
            tieBreak = nil
            // Least different, then most matching entities, then the later version. A whole entity added or removed
            // weighs one more than its properties (its table goes too), so a version lacking an entity the store has
            // is farther than one adding that entity's relationships (EasyLife 1.3.0).
            func weight(_ version: ModelSource.Version) -> Int {
                (differencesByVersion[version.name] ?? []).reduce(0) { total, difference in
                    guard difference.property == nil, difference.kind == .added || difference.kind == .removed else {
                        return total + 1
                    }
                    let entity =
                        difference.kind == .added
                        ? version.model.entity(named: difference.entity) : storeModel?.entity(named: difference.entity)
                    return total + 1 + (entity.map { $0.attributes.count + $0.relationships.count } ?? 0)
                }
            }
            let weights = Dictionary(
                source.versions.map { ($0.name, weight($0)) }, uniquingKeysWith: { first, _ in first })
            let ranked = candidates.enumerated().sorted { a, b in
                let (x, y) = (weights[a.element.name] ?? 0, weights[b.element.name] ?? 0)
                if x != y { return x < y }
                if a.element.matchingEntities != b.element.matchingEntities {
                    return a.element.matchingEntities > b.element.matchingEntities
                }
                return a.offset > b.offset
            }
            closest = ranked.first?.element.name
            differences = closest.flatMap { differencesByVersion[$0] } ?? []
        case 1:
            version = matches[0].name
            tieBreak = nil
            closest = nil
        default:
            closest = nil
            let stored = Set(metadata.versionIdentifiers)
            let identified = matches.filter { Set($0.versionIdentifiers) == stored }
            let identifiers = Self.list(metadata.versionIdentifiers)
            if identified.count == 1 {
                version = identified[0].name
                tieBreak = "the store's version identifiers \(identifiers) are \(identified[0].name)'s"
            } else {
                version = nil
                tieBreak =
                    identified.isEmpty
                    ? """
                    no tied version has the store's version identifiers \(identifiers); \
                    the store opens with any of them
                    """
                    : """
                    \(identified.map(\.name).joined(separator: ", ")) share the store's version identifiers \
                    \(identifiers); the store opens with any of them
                    """
            }
        }
    }

    /// Reads the store (through a read-only snapshot) and compares it with every version of `source`.
    /// - Throws: `TaskInterchangeError` when the store cannot be read or has no metadata.
    package init(storePath: String, source: ModelSource) throws(TaskInterchangeError) {
        let snapshot = try StoreSnapshot(path: storePath)
        guard let metadata = try StoreMetadata(of: snapshot) else {
            throw TaskInterchangeError(
                .invalidData,
                "\(storePath): has no \(CoreDataNames.metadataTable), so no model version hashes to compare")
        }
        // A cache that cannot be decoded only costs the property-level reasons.
        let storeModel = (try? ObjectModel(modelCacheOf: snapshot)) ?? nil
        self.init(store: storePath, metadata: metadata, storeModel: storeModel, source: source)
    }

    static func list(_ identifiers: [String]) -> String {
        "[" + identifiers.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    enum CodingKeys: String, CodingKey {
        case store, model, storeEntities, storeVersionIdentifiers, storeHasModelCache, version, tied, tieBreak, closest,
            differences, candidates, matched
    }

    /// Like the synthesized encoding, except that `version`, `closest` and `tieBreak` are written as null when
    /// absent: scripts test `"version"`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(store, forKey: .store)
        try container.encode(model, forKey: .model)
        try container.encode(storeEntities, forKey: .storeEntities)
        try container.encode(storeVersionIdentifiers, forKey: .storeVersionIdentifiers)
        try container.encode(storeHasModelCache, forKey: .storeHasModelCache)
        try container.encode(version, forKey: .version)
        try container.encode(tied, forKey: .tied)
        try container.encode(tieBreak, forKey: .tieBreak)
        try container.encode(closest, forKey: .closest)
        try container.encode(differences, forKey: .differences)
        try container.encode(candidates, forKey: .candidates)
        try container.encode(matched, forKey: .matched)
    }
}
