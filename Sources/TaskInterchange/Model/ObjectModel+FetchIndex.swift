import Foundation

extension ObjectModel {
    /// A fetch index of an entity (`NSFetchIndexDescription`): Core Data creates it as
    /// `Z_<Entity>_<name>` on the entity's table.
    package struct FetchIndex: Sendable, Hashable, Codable {
        /// How an element is indexed.
        package enum Kind: Int, Sendable, Hashable, Codable {
            /// An ordinary B-tree index.
            case binary = 0
            /// An R-tree index (for ranges, such as locations).
            case rTree = 1
        }

        /// One indexed property.
        package struct Element: Sendable, Hashable, Codable {
            /// The property's name.
            package var property: String
            /// Ascending or descending order.
            package var ascending = true
            /// The index kind.
            package var kind: Kind = .binary
            /// The format of the indexed expression, for an element that indexes an expression rather than a
            /// property (`property` is then the expression description's generated name, such as `expression1`).
            /// Core Data indexes `SELF` as the row's key (`Z_PK`) and the key path `entity` as its entity number.
            package var expression: String?

            /// Creates an element.
            package init(_ property: String, ascending: Bool = true, kind: Kind = .binary, expression: String? = nil) {
                self.property = property
                self.ascending = ascending
                self.kind = kind
                self.expression = expression
            }

            /// What a compound index (`NSCompoundIndexes`, `<compoundIndex>`) calls this element: the property, or
            /// `self` and `entity` for those expressions.
            package var compoundName: String {
                guard let expression else { return property }
                return expression == "SELF" ? "self" : expression
            }
        }

        /// The index name.
        package var name: String
        /// The indexed properties, in index order.
        package var elements: [Element]
        /// The partial-index predicate's format, for an index on some rows only.
        package var partialIndexPredicate: String?

        /// Creates a fetch index.
        package init(_ name: String, elements: [Element], partialIndexPredicate: String? = nil) {
            self.name = name
            self.elements = elements
            self.partialIndexPredicate = partialIndexPredicate
        }
    }
}

extension ObjectModel.Entity {
    /// The indexes Core Data creates for the entity: its fetch indexes (the first of a name), then one named after
    /// each attribute marked indexed that no fetch index covers — none of that name and none on that attribute
    /// alone (newer model compilers also write `by<Attribute>Index`, and Photos' store has no second index then).
    package var indexes: [ObjectModel.FetchIndex] {
        var result: [ObjectModel.FetchIndex] = []
        for index in fetchIndexes where !result.contains(where: { $0.name == index.name }) { result.append(index) }
        for attribute in attributes.sorted(by: { SchemaLayout.byteOrder($0.name, $1.name) })
        where attribute.isIndexed && !attribute.isTransient
            && !result.contains(where: {
                $0.name == attribute.name || ($0.elements.count == 1 && $0.elements[0].compoundName == attribute.name)
            })
        {
            result.append(ObjectModel.FetchIndex(attribute.name, elements: [.init(attribute.name)]))
        }
        return result
    }

    /// The entity's R-tree indexes, each with the properties whose ranges it keeps: fetch indexes of R-tree
    /// elements, and the form a compiled model (and so a model cache) keeps them in — a transient attribute of
    /// undefined type named after the index, its user info `_NSLocationAttributeDerivedComponents` listing the
    /// properties ("latitude, longitude" in Photos' `Asset.boundedByRect`).
    package var rTreeIndexes: [(name: String, properties: [String])] {
        var result: [(name: String, properties: [String])] = []
        for index in fetchIndexes
        where !index.elements.isEmpty && index.elements.allSatisfy({ $0.kind == .rTree })
            && !result.contains(where: { $0.name == index.name })
        {
            result.append((index.name, index.elements.map(\.property)))
        }
        for attribute in attributes.sorted(by: { SchemaLayout.byteOrder($0.name, $1.name) })
        where attribute.isTransient && attribute.type == .undefined
            && !result.contains(where: { $0.name == attribute.name })
        {
            guard let components = attribute.userInfo[Self.locationComponentsKey] else { continue }
            let properties = components.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if !properties.isEmpty && !properties.contains(where: \.isEmpty) {
                result.append((attribute.name, properties))
            }
        }
        return result
    }

    /// The user-info key of a compiled model's R-tree index attribute.
    package static let locationComponentsKey = "_NSLocationAttributeDerivedComponents"
}
