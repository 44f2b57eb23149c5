import Foundation
import Testing
@testable import TaskInterchange

/// Identification on hand-built models: ties and their breaking, and each kind of difference.
@Suite("Model identification")
struct ModelIdentificationTests {
    static func version(_ name: String, _ model: ObjectModel) -> ModelSource.Version {
        .init(name: name, model: model, path: name + ".xcdatamodel")
    }

    static func source(_ versions: [ModelSource.Version]) -> ModelSource {
        let directory = FileManager.default.temporaryDirectory.path
        return ModelSource(
            path: directory, kind: .xcdatamodeld, versions: versions, currentVersionName: versions.last?.name)
    }

    static func metadata(of model: ObjectModel) -> StoreMetadata {
        var metadata = StoreMetadata()
        metadata.versionHashes = model.versionHashes
        metadata.versionIdentifiers = model.versionIdentifiers
        return metadata
    }

    static var base: ObjectModel {
        var book = ObjectModel.Entity(
            "Book", attributes: [.init("title", .string, optional: true), .init("pages", .integer32)])
        book.relationships = [.init("author", to: "Author", inverse: "books", toMany: false)]
        let author = ObjectModel.Entity(
            "Author", attributes: [.init("name", .string)],
            relationships: [.init("books", to: "Book", inverse: "author", toMany: true)])
        return ObjectModel(entities: [author, book])
    }

    @Test("versions differing only in what the hash ignores tie; the version identifiers break the tie")
    func ties() {
        var a = Self.base
        a.versionIdentifiers = ["1"]
        var b = Self.base
        b.entities[0].relationships[0].deleteRule = .cascade  // not hashed
        b.versionIdentifiers = ["2"]
        let source = Self.source([Self.version("A", a), Self.version("B", b)])
        let result = ModelIdentification(store: "s", metadata: Self.metadata(of: b), storeModel: nil, source: source)
        #expect(result.tied == ["A", "B"] && result.matched)
        #expect(result.version == "B")
        #expect(result.tieBreak == "the store's version identifiers [\"2\"] are B's")

        var same = b
        same.versionIdentifiers = ["1"]
        let unbroken = ModelIdentification(
            store: "s", metadata: Self.metadata(of: same),
            storeModel: nil, source: Self.source([Self.version("A", a), Self.version("C", same)]))
        #expect(unbroken.version == nil && unbroken.matched && unbroken.tied == ["A", "C"])
        #expect(unbroken.tieBreak?.contains("A, C share the store's version identifiers") == true)
    }

    @Test("differences: renamed (by renaming identifier), type changed, added, removed, entity changes")
    func differences() {
        let stored = Self.base
        var current = Self.base
        current.entities[1].attributes = [
            .init("pageCount", .integer64), .init("subtitle", .string, optional: true),
            .init("title", .string, optional: false),
        ]
        current.entities[1].attributes[0].renamingIdentifier = "pages"
        current.entities[0].isAbstract = true
        current.entities.append(.init("Shelf", attributes: []))
        let result = ModelIdentification(
            store: "s", metadata: Self.metadata(of: stored), storeModel: stored,
            source: Self.source([Self.version("Next", current)]))
        #expect(result.version == nil && result.closest == "Next")
        #expect(
            result.differences.map(\.description) == [
                "Author: changed: made abstract",
                "Book.pages: renamed: pages is pageCount in the version (renaming identifier pages)",
                "Book.title: changed: made required",
                "Book.subtitle: added: attribute subtitle is new in the version",
                "Shelf: added: entity Shelf is new in the version",
            ])
        var retyped = Self.base
        retyped.entities[1].attributes[1].type = .integer64  // pages
        let typed = ModelDifference.between(storedHashes: stored.versionHashes, storeModel: stored, version: retyped)
        #expect(typed.map(\.description) == ["Book.pages: type changed: type Integer 32 → Integer 64"])
        // Without the store's model, only entity hashes can be compared.
        let blind = ModelDifference.between(storedHashes: stored.versionHashes, storeModel: nil, version: retyped)
        #expect(blind.map(\.kind) == [.changed] && blind[0].entity == "Book")
    }
}
