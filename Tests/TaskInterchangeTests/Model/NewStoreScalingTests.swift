import Foundation
import Testing

@testable import TaskInterchange

/// `model new-store` on a large model: making its template (the layout, the statements, the metadata with the version
/// hashes) grows with the model, like hashing it, not with its square. SQLite's own part, running the statements, is
/// not measured: each CREATE makes SQLite read its whole schema table again, which no caller can change.
@Suite("New stores of large models")
struct NewStoreScalingTests {
    /// `count` entities in chains of inheritance (every third a sub-entity of the one before), each with two
    /// attributes (one indexed), a to-one with its to-many inverse and a many-to-many pair, to entities far away.
    static func model(entities count: Int) -> ObjectModel {
        func name(_ index: Int) -> String { "E\(index)" }
        var entities = (0..<count).map { index in
            ObjectModel.Entity(
                name(index), superentity: index % 3 == 2 ? name(index - 1) : nil,
                attributes: [.init("name\(index)", .string, optional: true), .init("count\(index)", .integer32)])
        }
        for index in 0..<count {
            entities[index].attributes[0].isIndexed = true
            let next = (index * 7 + 1) % count
            let tagged = (index * 13 + 5) % count
            entities[index].relationships += [
                .init("next\(index)", to: name(next), inverse: "previous\(index)", toMany: false),
                .init("tags\(index)", to: name(tagged), inverse: "tagged\(index)", toMany: true),
            ]
            entities[next].relationships.append(
                .init("previous\(index)", to: name(index), inverse: "next\(index)", toMany: true))
            entities[tagged].relationships.append(
                .init("tagged\(index)", to: name(index), inverse: "tags\(index)", toMany: true))
        }
        return ObjectModel(entities: entities)
    }

    @Test("a 5,000-entity model's store template takes no more than twice as long as hashing the model")
    func template() {
        let model = Self.model(entities: 5_000)
        let clock = ContinuousClock()
        let hashing = clock.measure { _ = model.versionHashes }
        let template = clock.measure { _ = StoreTemplate(model: model) }
        // The template hashes the model too (its metadata): linear lookups made it 4.4 times hashing's time here.
        #expect(template < hashing * 2, "hashing \(hashing), template \(template)")
    }
}
