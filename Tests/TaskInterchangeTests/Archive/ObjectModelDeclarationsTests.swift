import Testing

@testable import TaskInterchange

/// A model made from an archive's `source.model`: own properties per entity, the inverse sides the declarations
/// name but do not carry, and the declarations it refuses.
struct ObjectModelDeclarationsTests {
    /// A library: an abstract Item with Book and Article, Shelf.items ordered (its to-one inverse not carried),
    /// Author.items ↔ Item.authors many-to-many (one side carried), Book.cover ↔ Cover.book one-to-one (both carried).
    static let library: [String: EntityDeclaration] = [
        "Item": .init(isAbstract: true, attributes: ["title": "string", "id": "uuid"]),
        "Book": .init(
            superentity: "Item", attributes: ["title": "string", "id": "uuid", "pages": "integer32"],
            relationships: ["cover": .init(destination: "Cover", toMany: false, inverse: "book")]),
        "Article": .init(superentity: "Item", attributes: ["title": "string", "id": "uuid", "raw": "untyped"]),
        "Cover": .init(
            attributes: ["image": "binary"],
            relationships: ["book": .init(destination: "Book", toMany: false, inverse: "cover")],
            externalStorage: ["image"]),
        "Shelf": .init(
            attributes: ["name": "string"],
            relationships: ["items": .init(destination: "Item", toMany: true, ordered: true, inverse: "shelf")]),
        "Author": .init(
            attributes: ["name": "string"],
            relationships: ["items": .init(destination: "Item", toMany: true, inverse: "authors")]),
    ]

    @Test("own properties per entity; inverses added to-many; one-to-one kept; types, external storage, untyped")
    func library() throws {
        let model = try ObjectModel(declarations: Self.library)
        #expect(model.entities.map(\.name) == ["Article", "Author", "Book", "Cover", "Item", "Shelf"])
        let book = try #require(model.entity(named: "Book"))
        #expect(book.superentity == "Item")
        #expect(book.attributes.map(\.name) == ["pages"])
        #expect(book.attributes.first?.type == .integer32)
        #expect(model.entity(named: "Item")?.isAbstract == true)
        #expect(model.entity(named: "Item")?.attributes.map(\.name) == ["id", "title"])
        let item = try #require(model.entity(named: "Item"))
        let shelf = try #require(item.relationships.first { $0.name == "shelf" })
        #expect(shelf.destination == "Shelf" && shelf.inverse == "items" && shelf.isToMany)
        let authors = try #require(item.relationships.first { $0.name == "authors" })
        #expect(authors.destination == "Author" && authors.isToMany && authors.inverse == "items")
        let items = try #require(model.entity(named: "Shelf")?.relationships.first)
        #expect(items.isOrdered && items.isToMany && items.inverse == "shelf")
        // Both sides of the one-to-one carried: neither gets an added inverse.
        #expect(book.relationships.map(\.name) == ["cover"] && book.relationships.first?.isToMany == false)
        #expect(model.entity(named: "Cover")?.relationships.map(\.name) == ["book"])
        #expect(model.entity(named: "Cover")?.attributes.first?.allowsExternalStorage == true)
        #expect(model.entity(named: "Article")?.attributes.first { $0.name == "raw" }?.type == .integer64)
        #expect(ObjectModel.untypedProperties(of: Self.library) == ["Article.raw"])
        // A store can be laid out from it: each concrete entity and the join table get their tables.
        let statements = SchemaLayout(model: model).statements.joined(separator: "\n")
        #expect(statements.contains("CREATE TABLE ZITEM"))
        #expect(statements.contains("CREATE TABLE ZCOVER"))
        #expect(statements.contains("ITEMS"))
    }

    @Test("a relationship to a typed kind goes to the task model's entity, which gets its inverse")
    func typedDestination() throws {
        let declarations: [String: EntityDeclaration] = [
            "Note": .init(
                attributes: ["text": "string"],
                relationships: ["task": .init(destination: "ZTaskEntity", toMany: false, inverse: "remarks")])
        ]
        let model = try ObjectModel(
            declarations: declarations, typed: ["ZTaskEntity": "Task"], base: TaskManagerModel.model)
        #expect(model.entities.count == 6)
        #expect(model.entity(named: "Note")?.relationships.first?.destination == "Task")
        let remarks = try #require(model.entity(named: "Task")?.relationships.first { $0.name == "remarks" })
        #expect(remarks.destination == "Note" && remarks.isToMany)
    }

    @Test(
        "declarations that cannot make a store are refused, naming the entity and property",
        arguments: [
            (["A": EntityDeclaration(attributes: ["x": "objectID"])], "A.x is of type objectID"),
            (
                ["A": EntityDeclaration(relationships: ["b": .init(destination: "B", toMany: false)])],
                "A.b leads to B, which the archive does not declare"
            ),
            (["A": EntityDeclaration(superentity: "Z")], "A has the superentity Z"),
            (
                ["A": EntityDeclaration(superentity: "B"), "B": EntityDeclaration(superentity: "A")],
                "is its own ancestor"
            ),
            (
                [
                    "A": EntityDeclaration(
                        relationships: ["b": .init(destination: "B", toMany: false, inverse: "name")]),
                    "B": EntityDeclaration(attributes: ["name": "string"]),
                ],
                "A.b names the inverse B.name, which is already another property"
            ),
            (["Task": EntityDeclaration()], "Task has the name of an entity of the built-in task model"),
        ])
    func refused(declarations: [String: EntityDeclaration], message: String) throws {
        let error = #expect(throws: TaskInterchangeError.self) {
            try ObjectModel(declarations: declarations, base: TaskManagerModel.model)
        }
        #expect(error?.kind == .invalidData)
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(message), "\(text)")
        #expect(text.contains("StoreImportOptions.template"))
    }
}
