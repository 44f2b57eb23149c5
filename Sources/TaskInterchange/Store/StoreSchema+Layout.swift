/// The store's layout and its entity tree: `locate(with:)` computes where every property lives from the store's model;
/// `locator` answers every "where does this live" question from it, or from the store's names when it has no model.
extension StoreSchema {
    /// Computes the layout of `model` over this store; nil leaves the store located by column names alone.
    mutating func locate(with model: ObjectModel?) {
        layout = model.map { StoreLayout(model: $0, schema: self) }
    }

    /// Where everything of this store lives.
    var locator: StoreLocator {
        StoreLocator(schema: self)
    }

    /// The entity and its ancestors, nearest first.
    func ancestors(of entity: Entity) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<Int64> = []
        var current: Entity? = entity
        while let found = current, seen.insert(found.number).inserted {
            result.append(found)
            current = self.entity(number: found.superNumber)
        }
        return result
    }

    /// The numbers an entity's rows may be known by in storage names: its own, its ancestors' and its sub-entities'.
    func lineage(of entity: Entity) -> [Int64] {
        var numbers = entity.numbersIncludingSubentities
        var current = entity
        while current.superNumber != 0, let parent = self.entity(number: current.superNumber),
            !numbers.contains(parent.number)
        {
            numbers.append(parent.number)
            current = parent
        }
        return numbers
    }
}
