import Foundation

/// The versions of an app's model in the order the app shipped them, so that a store of an old version is carried
/// into a newer one step by step: each step's renaming identifiers name the previous version's elements, so a rename
/// chain (`text` → `body` → `content`), an entity renamed twice and a property removed then added again are seen as
/// the app saw them, where a direct inference from the first version to the last sees none of them.
///
/// A model file records only which version is current, not the order of the others: the order is the one given, or
/// inferred (see `init(inferring:)`), and `basis` says which.
public struct ModelVersionOrder: Sendable, Hashable {
    /// One version of the model.
    public struct Version: Sendable, Hashable {
        /// Its name (the `.xcdatamodel` or `.mom` file's, without the extension).
        public var name: String
        /// The model.
        public var model: ObjectModel

        /// Creates a version.
        public init(name: String, model: ObjectModel) {
            self.name = name
            self.model = model
        }
    }

    /// How the order was found.
    public enum Basis: Sendable, Hashable {
        /// The order was given.
        case given
        /// The versions' names, compared with numbers by value; no renaming identifier contradicts it.
        case names
        /// The renaming identifiers: a version whose identifier names an element only another version has comes after
        /// that one (names decide the rest).
        case renamingIdentifiers
    }

    /// The versions, oldest first.
    public var versions: [Version]
    /// How their order was found.
    public var basis: Basis

    /// The versions in the order given, oldest first.
    public init(given versions: [Version]) {
        self.versions = versions
        basis = .given
    }

    /// The versions ordered by their names (numbers compared by value: "App 2" before "App 10"), except where a
    /// version's renaming identifier names an entity or property that another version has and it lacks: it then comes
    /// after that version. Contradicting identifiers (each version naming the other's) leave the names' order.
    public init(inferring unordered: [Version]) {
        let byName = unordered.sorted { $0.name.compare($1.name, options: [.numeric]) == .orderedAscending }
        var after: [Set<Int>] = Array(repeating: [], count: byName.count)
        for (later, version) in byName.enumerated() {
            for (earlier, other) in byName.enumerated() where earlier != later {
                if Self.renames(from: other.model, in: version.model) { after[later].insert(earlier) }
            }
        }
        // Kahn's algorithm, taking the first version by name among those whose predecessors are placed.
        var placed: [Int] = []
        var remaining = Array(byName.indices)
        while let next = remaining.firstIndex(where: { after[$0].isSubset(of: placed) }) {
            placed.append(remaining.remove(at: next))
        }
        if remaining.isEmpty {
            versions = placed.map { byName[$0] }
            basis = placed == Array(byName.indices) ? .names : .renamingIdentifiers
        } else {
            versions = byName
            basis = .names
        }
    }

    /// True when `model` renames an element `previous` has under a name `model` does not use: an entity whose
    /// renaming identifier names an entity of `previous` that `model` lacks, or such a property of a matching entity.
    static func renames(from previous: ObjectModel, in model: ObjectModel) -> Bool {
        for entity in model.entities {
            if let old = entity.renamingIdentifier, old != entity.name, model.entity(named: old) == nil,
                previous.entity(named: old) != nil
            {
                return true
            }
            guard let before = previous.entity(named: entity.renamingIdentifier ?? entity.name) else { continue }
            let names = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
            let oldNames = Set(before.attributes.map(\.name) + before.relationships.map(\.name))
            let identifiers =
                entity.attributes.map { ($0.name, $0.renamingIdentifier) }
                + entity.relationships.map { ($0.name, $0.renamingIdentifier) }
            for case (let name, let old?) in identifiers
            where old != name && !names.contains(old) && oldNames.contains(old) && !oldNames.contains(name) {
                return true
            }
        }
        return false
    }

    /// The versions a store of `source` passes through on its way to `target`, both included, when the target comes
    /// after the source with at least one version between them; nil otherwise (one step is the direct mapping).
    package func path(from source: ObjectModel, to target: ObjectModel) -> [Version]? {
        guard let first = versions.firstIndex(where: { $0.model == source }),
            let last = versions.lastIndex(where: { $0.model == target }), last > first + 1
        else { return nil }
        return Array(versions[first...last])
    }

    /// The versions from `source` (one of them) to `target`, both included, when the target comes after it or is it.
    func versions(from source: Version, to target: ObjectModel) -> [Version]? {
        guard let first = versions.firstIndex(of: source),
            let last = versions.lastIndex(where: { $0.model == target }), last >= first
        else { return nil }
        return Array(versions[first...last])
    }

    /// The version closest to the archive's declarations (a store's own model no version has): the most entities
    /// declared exactly, then the most `Entity.property` names with their types in common, then the latest.
    package func closest(to declarations: [String: EntityDeclaration]) -> Version? {
        func properties(_ declarations: [String: EntityDeclaration]) -> Set<String> {
            Set(
                declarations.flatMap { entity, declaration in
                    declaration.attributes.map { "\(entity).\($0.key):\($0.value)" }
                        + declaration.relationships.keys.map { "\(entity).\($0)" }
                })
        }
        let own = properties(declarations)
        let scored = versions.map { version -> (Version, Int, Int) in
            let exact = declarations.filter { declares([$0.key: $0.value], version) }.count
            let theirs = properties(Self.declarations(of: version.model, like: declarations))
            return (version, exact, own.intersection(theirs).count - own.symmetricDifference(theirs).count)
        }
        return scored.max { ($0.1, $0.2) < ($1.1, $1.2) }?.0
    }

    /// A model's entities declared as an archive declares them: every entity, its stored attributes with their
    /// types, and those of its relationships the archive's declarations carry (or all, for an entity they lack).
    private static func declarations(of model: ObjectModel, like archive: [String: EntityDeclaration])
        -> [String: EntityDeclaration]
    {
        var result: [String: EntityDeclaration] = [:]
        for entity in model.entities {
            let ancestry = model.ancestry(of: entity)
            var declaration = EntityDeclaration(isAbstract: entity.isAbstract)
            for attribute in ancestry.flatMap(\.attributes) where !attribute.isTransient && attribute.derivation == nil
            {
                declaration.attributes[attribute.name] = attribute.type.archiveType.name
            }
            let carried = archive[entity.name].map { Set($0.relationships.keys) }
            for relationship in ancestry.flatMap(\.relationships) where !relationship.isTransient {
                guard carried?.contains(relationship.name) ?? true else { continue }
                declaration.relationships[relationship.name] = EntityRelationship(
                    destination: relationship.destination, toMany: relationship.isToMany,
                    ordered: relationship.isOrdered, inverse: relationship.inverse)
            }
            result[entity.name] = declaration
        }
        return result
    }

    /// True when `version` declares exactly the archive's entities (see `version(declaring:)`).
    private func declares(_ declarations: [String: EntityDeclaration], _ version: Version) -> Bool {
        declarations.allSatisfy { name, declaration in
            guard let entity = version.model.entity(named: name), entity.isAbstract == declaration.isAbstract
            else { return false }
            let ancestry = version.model.ancestry(of: entity)
            let attributes = ancestry.flatMap(\.attributes).filter { !$0.isTransient && $0.derivation == nil }
            let types = Dictionary(
                attributes.map { ($0.name, $0.type.archiveType.name) }, uniquingKeysWith: { a, _ in a })
            guard declaration.attributes == types else { return false }
            let relationships = Set(ancestry.flatMap(\.relationships).filter { !$0.isTransient }.map(\.name))
            return declaration.relationships.keys.allSatisfy { relationships.contains($0) }
        }
    }

    /// The version that declares exactly the archive's entities (their attributes with their types and their
    /// carried relationships); of several equal ones the earliest, since an archive does not say which version wrote
    /// it (where that is known, `VersionMapping.inferred` is given it as `sourceModel`); nil when none does.
    package func version(declaring declarations: [String: EntityDeclaration]) -> Version? {
        versions.first { declares(declarations, $0) }
    }

    /// The order as a plan states it: `Journal 1, Journal 2, Journal 3 (by name; no renaming identifier disagrees)`.
    public var description: String {
        let names = versions.map(\.name).joined(separator: ", ")
        switch basis {
        case .given: return "\(names) (as given)"
        case .names: return "\(names) (by name; no renaming identifier disagrees)"
        case .renamingIdentifiers: return "\(names) (from the renaming identifiers, which disagree with the names)"
        }
    }
}
