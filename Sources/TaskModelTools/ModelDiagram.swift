import Foundation
import TaskInterchange

/// A picture of a model: entities with their attributes, relationships with their cardinality on both ends,
/// inheritance and the join table of each many-to-many, as Mermaid (`classDiagram`, which renders in pull requests
/// and wikis) or Graphviz DOT. Given the version before, each element says what the model change does to it.
package struct ModelDiagram: Sendable {
    /// The text format.
    package enum Format: String, Sendable, CaseIterable {
        case mermaid, dot
    }

    /// What a model change does to an entity or property, seen from the version before.
    package enum Mark: Sendable, Hashable, CustomStringConvertible {
        case added
        case removed
        case renamed(from: String)
        case converted(from: String)
        case changed(String)

        package var description: String {
            switch self {
            case .added: return "added"
            case .removed: return "removed"
            case .renamed(let old): return "renamed from \(old)"
            case .converted(let old): return "converted from \(old)"
            case .changed(let how): return "changed: \(how)"
            }
        }
    }

    /// One drawn member of an entity.
    struct Member {
        var name: String
        var type: String
        var mark: Mark?
    }

    /// One drawn entity.
    struct Box {
        var name: String
        var isAbstract: Bool
        var members: [Member]
        var mark: Mark?
    }

    /// One drawn relationship pair (or a relationship without an inverse).
    struct Edge {
        var from: String
        var to: String
        var name: String
        var inverse: String?
        /// Cardinality at `from`'s end (how many `from` objects one `to` object has) and at `to`'s end.
        var fromCount: String
        var toCount: String
        var ordered: [String]
        var joinTable: String?
        var mark: Mark?
    }

    let boxes: [Box]
    let edges: [Edge]
    /// (parent, child) pairs.
    let inheritance: [(String, String)]

    /// The diagram of `model`; with `previous`, marked with what the change from it adds, removes, renames and
    /// converts (removed entities and properties drawn from `previous`), through the versions between them in
    /// `order` when it has some.
    /// - Throws: `TaskInterchangeError` when the change cannot be inferred.
    package init(model: ObjectModel, previous: ObjectModel? = nil, order: ModelVersionOrder? = nil)
        throws(TaskInterchangeError)
    {
        let mapping = try previous.map { previous throws(TaskInterchangeError) in
            try model.versionMapping(from: previous, order: order)
        }
        // Target name → source name, for entities and (per target entity) properties.
        var entitySource: [String: String] = [:]
        var propertySource: [String: [String: (String, VersionMapping.Change)]] = [:]
        for (source, map) in mapping?.entities ?? [:] {
            guard let target = map.target else { continue }
            entitySource[target] = source
            for (property, fate) in map.properties {
                guard let targetProperty = fate.target else { continue }
                propertySource[target, default: [:]][targetProperty] = (property, fate.change)
            }
        }
        func mark(entity: ObjectModel.Entity) -> Mark? {
            guard let previous else { return nil }
            if let source = entitySource[entity.name] {
                return source == entity.name ? nil : .renamed(from: source)
            }
            return previous.entity(named: entity.name) == nil ? .added : nil
        }
        func mark(property name: String, of entity: ObjectModel.Entity) -> Mark? {
            guard let previous else { return nil }
            guard let (source, change) = propertySource[entity.name]?[name] else {
                // Abstract entities have no mapping: a property is new when the old entity lacks it.
                let old = previous.entity(named: entitySource[entity.name] ?? entity.name)
                let had = old.map { old in
                    old.attributes.contains { $0.name == name } || old.relationships.contains { $0.name == name }
                }
                return had == true ? nil : .added
            }
            switch change {
            case .converted(let from, _):
                let old = previous.entity(named: entitySource[entity.name] ?? entity.name).flatMap { old in
                    previous.ancestry(of: old).flatMap(\.attributes).first { $0.name == source }?.type
                }
                return .converted(from: old.map(Self.typeName) ?? from)
            case .toMany: return .changed("to-many")
            case .toOne: return .changed("to-one")
            case .reordered(let ordered): return .changed(ordered ? "ordered" : "unordered")
            case .kept, .dropped, .refused: return source == name ? nil : .renamed(from: source)
            }
        }

        var boxes: [Box] = []
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            var members = entity.attributes.filter { !$0.isTransient }.sorted { $0.name < $1.name }.map {
                Member(
                    name: $0.name, type: Self.typeName($0.type) + ($0.isOptional ? "?" : ""),
                    mark: mark(property: $0.name, of: entity))
            }
            if let source = entitySource[entity.name], let old = previous?.entity(named: source),
                let map = mapping?.entities[source]
            {
                for attribute in old.attributes where map.properties[attribute.name]?.target == nil {
                    members.append(Member(name: attribute.name, type: Self.typeName(attribute.type), mark: .removed))
                }
                for relationship in old.relationships where map.properties[relationship.name]?.target == nil {
                    members.append(Member(name: relationship.name, type: relationship.destination, mark: .removed))
                }
            }
            boxes.append(
                Box(name: entity.name, isAbstract: entity.isAbstract, members: members, mark: mark(entity: entity)))
        }
        // Entities the change removes, drawn from the version before (an abstract one the model still has is kept:
        // the mapping leaves abstract entities out).
        for (source, map) in (mapping?.entities ?? [:]).sorted(by: { $0.key < $1.key }) where map.target == nil {
            guard let old = previous?.entity(named: source), model.entity(named: source) == nil else { continue }
            boxes.append(
                Box(
                    name: source, isAbstract: old.isAbstract,
                    members: old.attributes.map { Member(name: $0.name, type: Self.typeName($0.type), mark: .removed) },
                    mark: .removed))
        }
        self.boxes = boxes.sorted { $0.name < $1.name }

        let joins = model.joinTableNames
        var edges: [Edge] = []
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
                let inverse = relationship.inverse.flatMap { inverse in
                    model.entity(named: relationship.destination).flatMap { destination in
                        model.relationship(named: inverse, in: destination)?.relationship
                    }
                }
                // A pair is drawn once, from the side whose `Entity.name` sorts first.
                if let inverse, "\(relationship.destination).\(inverse.name)" < "\(entity.name).\(relationship.name)" {
                    continue
                }
                let ordered =
                    (relationship.isToMany && relationship.isOrdered ? [relationship.name] : [])
                    + (inverse.map { $0.isToMany && $0.isOrdered ? [$0.name] : [] } ?? [])
                edges.append(
                    Edge(
                        from: entity.name, to: relationship.destination, name: relationship.name,
                        inverse: inverse?.name, fromCount: inverse.map(Self.cardinality) ?? "*",
                        toCount: Self.cardinality(relationship), ordered: ordered,
                        joinTable: joins["\(entity.name).\(relationship.name)"]
                            ?? inverse.flatMap { joins["\(relationship.destination).\($0.name)"] },
                        mark: mark(property: relationship.name, of: entity)))
            }
        }
        self.edges = edges
        inheritance = model.entities.compactMap { entity in entity.superentity.map { ($0, entity.name) } }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// `Integer 16` → `Integer16`: one word, as both formats need.
    static func typeName(_ type: ObjectModel.AttributeType) -> String {
        XCDataModelParser.typeName(type).replacingOccurrences(of: " ", with: "")
    }

    /// How many destination objects one owner has: `1`, `0..1`, `*`, `1..*`, `2..5`.
    static func cardinality(_ relationship: ObjectModel.Relationship) -> String {
        if !relationship.isToMany { return relationship.isOptional ? "0..1" : "1" }
        let lower = relationship.isOptional ? 0 : max(relationship.minCount, 1)
        let upper = relationship.maxCount > 0 ? String(relationship.maxCount) : "*"
        return lower == 0 && upper == "*" ? "*" : "\(lower)..\(upper)"
    }

    /// The diagram as text.
    package func text(_ format: Format) -> String {
        switch format {
        case .mermaid: return mermaid()
        case .dot: return dot()
        }
    }
}
