import Foundation

/// How ``StoreImportOptions/match`` pairs an archive record whose id the target lacks with a target record: by a key
/// whose values are equal. Parsed from the option's text: `name` (projects, categories and tags by name) and `Entity.attribute` (a
/// generic entity's records by that attribute), comma-separated.
public struct MatchRule: Sendable, Hashable {
    /// A generic entity's key: the attribute whose equal values pair its records (the entity exactly: a sub-entity
    /// has its own key).
    public struct EntityKey: Sendable, Hashable {
        /// The entity's name in the archive's `source.model`.
        public var entity: String
        /// One of its attributes.
        public var attribute: String

        /// Creates a key.
        public init(entity: String, attribute: String) {
            self.entity = entity
            self.attribute = attribute
        }
    }

    /// Projects, categories and tags by `name` (exact, case-sensitive).
    public var byName: Bool
    /// Generic entities by attribute, one key per entity.
    public var entityKeys: [EntityKey]

    /// Projects, categories and tags by name.
    public static let name = MatchRule(byName: true)

    /// Creates a rule.
    public init(byName: Bool = false, entityKeys: [EntityKey] = []) {
        self.byName = byName
        self.entityKeys = entityKeys
    }

    /// The kinds a rule pairs.
    public var kinds: Set<StoreMapping.Kind> {
        byName ? [.project, .category, .tag] : []
    }

    /// The attribute that pairs `entity`'s records, if the rule names one.
    public func attribute(of entity: String) -> String? {
        entityKeys.first { $0.entity == entity }?.attribute
    }

    /// Parses `name`, `Entity.attribute`, or several of them separated by commas.
    /// - Throws: `TaskInterchangeError.usage` for an empty or unknown term, or two keys for one entity.
    public init(parsing text: String) throws(TaskInterchangeError) {
        self.init()
        for term in text.split(separator: ",", omittingEmptySubsequences: false) {
            let term = term.trimmingCharacters(in: .whitespaces)
            if term == "name" {
                byName = true
                continue
            }
            let parts = term.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw TaskInterchangeError(
                    .usage,
                    "\(setting: .match) \(term.isEmpty ? "''" : term): expected 'name' (projects, "
                        + "categories and tags by name) or 'Entity.attribute' (a generic entity's records by an "
                        + "attribute)"
                )
            }
            let key = EntityKey(entity: String(parts[0]), attribute: String(parts[1]))
            if let other = attribute(of: key.entity) {
                throw TaskInterchangeError(
                    .usage,
                    "\(setting: .match) names two keys for \(key.entity) (\(other) and "
                        + "\(key.attribute)); one attribute per entity")
            }
            entityKeys.append(key)
        }
    }

    /// Checks each entity key against the archive's `source.model`.
    /// - Throws: `TaskInterchangeError.usage` naming an entity the archive does not declare or an attribute the
    ///   entity does not have (a relationship is not an attribute), with the closest name.
    public func check(against model: [String: EntityDeclaration]) throws(TaskInterchangeError) {
        for key in entityKeys {
            guard let declaration = model[key.entity] else {
                throw TaskInterchangeError(
                    .usage,
                    "\(setting: .match) \(key.entity).\(key.attribute): the archive has no "
                        + "entity '\(key.entity)' in its entities section"
                        + Suggestion.phrase(for: key.entity, among: model.keys.sorted()))
            }
            guard declaration.attributes[key.attribute] != nil else {
                let isRelationship = declaration.relationships[key.attribute] != nil
                throw TaskInterchangeError(
                    .usage,
                    "\(setting: .match) \(key.entity).\(key.attribute): \(key.entity) has no "
                        + "attribute '\(key.attribute)'\(isRelationship ? " (it is a relationship)" : "")"
                        + Suggestion.phrase(for: key.attribute, among: declaration.attributes.keys.sorted()))
            }
        }
    }
}
