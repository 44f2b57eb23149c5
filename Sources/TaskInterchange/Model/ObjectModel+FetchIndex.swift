extension ObjectModel {
    /// A fetch index of an entity (`NSFetchIndexDescription`): Core Data creates it as
    /// `Z_<Entity>_<name>` on the entity's table.
    public struct FetchIndex: Sendable, Hashable, Codable {
        /// How an element is indexed.
        public enum Kind: Int, Sendable, Hashable, Codable {
            /// An ordinary B-tree index.
            case binary = 0
            /// An R-tree index (for ranges, such as locations).
            case rTree = 1
        }

        /// One indexed property.
        public struct Element: Sendable, Hashable, Codable {
            /// The property's name.
            public package(set) var property: String
            /// Ascending or descending order.
            public package(set) var ascending = true
            /// The index kind.
            public package(set) var kind: Kind = .binary

            /// Creates an element.
            package init(_ property: String, ascending: Bool = true, kind: Kind = .binary) {
                self.property = property
                self.ascending = ascending
                self.kind = kind
            }
        }

        /// The index name.
        public package(set) var name: String
        /// The indexed properties, in index order.
        public package(set) var elements: [Element]
        /// The partial-index predicate's format, for an index on some rows only.
        public package(set) var partialIndexPredicate: String?

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
    /// each attribute marked indexed that no fetch index of that name covers (the model compiler's own form).
    package var indexes: [ObjectModel.FetchIndex] {
        var result: [ObjectModel.FetchIndex] = []
        for index in fetchIndexes where !result.contains(where: { $0.name == index.name }) { result.append(index) }
        for attribute in attributes.sorted(by: { SchemaLayout.byteOrder($0.name, $1.name) })
        where attribute.isIndexed && !attribute.isTransient && !result.contains(where: { $0.name == attribute.name }) {
            result.append(ObjectModel.FetchIndex(attribute.name, elements: [.init(attribute.name)]))
        }
        return result
    }
}
