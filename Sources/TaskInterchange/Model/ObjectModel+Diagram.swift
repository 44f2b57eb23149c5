/// What a picture of a model needs from the library: where a new store keeps each many-to-many (how two versions of a
/// model map onto each other is `versionMapping(from:order:)`).
extension ObjectModel {
    /// The join table of every many-to-many relationship (`Entity.relationship` → table), as a new store names it.
    package var joinTableNames: [String: String] {
        var result: [String: String] = [:]
        for (key, placement) in SchemaLayout(model: self).placements {
            if case .join(let direction) = placement { result["\(key.entity).\(key.property)"] = direction.table }
        }
        return result
    }
}
