import Foundation
import Testing
@testable import TaskInterchange

@Suite("Graph comparison: generic entities")
struct GenericDiffTests {
    static let model: [String: EntityDeclaration] = [
        "Folder": EntityDeclaration(
            attributes: ["title": "string"],
            relationships: [
                "notes": EntityRelationship(destination: "Note", toMany: true)
            ]),
        "List": EntityDeclaration(
            attributes: ["name": "string"],
            relationships: [
                "entries": EntityRelationship(destination: "Note", toMany: true, ordered: true)
            ]),
        "Note": EntityDeclaration(attributes: ["title": "string", "when": "date"]),
        "SpecialNote": EntityDeclaration(
            superentity: "Note",
            attributes: [
                "title": "string", "when": "date",
                "level": "integer16",
            ]),
    ]

    static func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    /// Three notes, a special note, a folder holding two notes, a list of three in order. Records are listed in key
    /// order (as exports have them), which is not id order.
    static func base() -> Archive {
        let notes = [3, 1, 2].map {
            EntityRecord(
                id: id($0), entity: "Note", key: Int64($0),
                values: [
                    "title": .string("note \($0)"),
                    "when": .string("2024-03-07T11:52:03.4567891Z"),
                ])
        }
        return Archive(
            header: ArchiveHeader(source: ArchiveHeader.Source(store: "s", storeUUID: "U", model: model)),
            entities: [
                EntityRecord(
                    id: id(10), entity: "Folder", key: 1,
                    values: [
                        "title": .string("Inbox"), "notes": .array([id(1).uuidString, id(2).uuidString]),
                    ]),
                EntityRecord(
                    id: id(20), entity: "List", key: 1,
                    values: [
                        "name": .string("Today"),
                        "entries": .array([id(3).uuidString, id(1).uuidString, id(2).uuidString]),
                    ]),
            ] + notes + [
                EntityRecord(
                    id: id(30), entity: "SpecialNote", key: 4,
                    values: ["title": .string("special"), "level": .integer(2)])
            ])
    }

    static func diff(_ a: Archive, _ b: Archive, verify: Bool = false) throws -> GraphDiff {
        try GraphComparison.compare(
            .records(a, name: "a"), .records(b, name: "b"),
            options: GraphComparison.Options(bMayHoldMore: verify))
    }

    static func edit(_ archive: inout Archive, _ id: UUID, _ change: (inout EntityRecord) -> Void) {
        let index = archive.entities.firstIndex { $0.id == id }!
        change(&archive.entities[index])
    }

    @Test("identical graphs (records in key order, not id order) are equal, each entity counted")
    func identical() throws {
        let diff = try Self.diff(Self.base(), Self.base())
        #expect(diff.isEqual)
        #expect(diff.entities.map(\.entity) == ["Folder", "List", "Note", "SpecialNote"])
        #expect(
            diff.entities.first { $0.entity == "Note" }
                == GraphDiff.EntitySummary(
                    entity: "Note", countA: 3,
                    countB: 3))
    }

    @Test("an unordered to-many in another order, a date spelled with other digits but the same bits: equal")
    func sameContent() throws {
        var b = Self.base()
        Self.edit(&b, Self.id(10)) { $0.values["notes"] = .array([Self.id(2).uuidString, Self.id(1).uuidString]) }
        Self.edit(&b, Self.id(1)) { $0.values["when"] = .string("2024-03-07T11:52:03.45678910Z") }
        #expect(try Self.diff(Self.base(), b).isEqual)
    }

    @Test("attribute, date bit, link, order, only on one side, sub-entity: each named")
    func changes() throws {
        var b = Self.base()
        Self.edit(&b, Self.id(2)) { $0.values["title"] = .string("renamed") }
        Self.edit(&b, Self.id(3)) { $0.values["when"] = .string("2024-03-07T11:52:03.4567892Z") }
        Self.edit(&b, Self.id(10)) { $0.values["notes"] = .array([Self.id(1).uuidString, Self.id(3).uuidString]) }
        Self.edit(&b, Self.id(20)) {
            $0.values["entries"] = .array([Self.id(1).uuidString, Self.id(3).uuidString, Self.id(2).uuidString])
        }
        Self.edit(&b, Self.id(30)) { $0.values["level"] = nil }
        b.entities.append(EntityRecord(id: Self.id(4), entity: "Note", key: 5, values: ["title": .string("new")]))
        let diff = try Self.diff(Self.base(), b)
        #expect(diff.differenceCount == 6)
        let byId = Dictionary(uniqueKeysWithValues: diff.records.map { ($0.id, $0) })
        #expect(byId[Self.id(2)]?.fields == [.value("title", old: .string("note 2"), new: .string("renamed"))])
        #expect(
            byId[Self.id(3)]?.fields == [
                .value(
                    "when", old: .string("2024-03-07T11:52:03.4567891Z"),
                    new: .string("2024-03-07T11:52:03.4567892Z"))
            ])
        #expect(
            byId[Self.id(10)]?.fields == [
                .links(
                    "notes", added: [Self.id(3).uuidString],
                    removed: [Self.id(2).uuidString])
            ])
        #expect(
            byId[Self.id(20)]?.fields == [
                .order(
                    "entries", old: [3, 1, 2].map { Self.id($0).uuidString },
                    new: [1, 3, 2].map { Self.id($0).uuidString })
            ])
        #expect(byId[Self.id(30)]?.entity == "SpecialNote")
        #expect(byId[Self.id(30)]?.fields == [.value("level", old: .integer(2), new: nil)])
        #expect(byId[Self.id(4)]?.change == .onlyInB)
        #expect(byId[Self.id(4)]?.kind == nil)
        // Listed in join order: entity names, then ids.
        #expect(diff.records.map(\.typeName) == ["Folder", "List", "Note", "Note", "Note", "SpecialNote"])
    }

    @Test("verify: B's extra records and entities are not differences; an entity B lacks is counted, not compared")
    func verify() throws {
        var a = Self.base()
        var b = Self.base()
        b.entities.append(EntityRecord(id: Self.id(5), entity: "Note", key: 6, values: [:]))
        b.entities.append(EntityRecord(id: Self.id(40), entity: "Extra", key: 1, values: [:]))
        b.header.source?.model["Extra"] = EntityDeclaration()
        var diff = try Self.diff(a, b, verify: true)
        #expect(diff.isEqual)
        #expect(diff.entities.first { $0.entity == "Note" }?.onlyInB == 1)
        #expect(!diff.entities.contains { $0.entity == "Extra" })
        // B (say, a target built from another model) has no List.
        b.header.source?.model["List"] = nil
        b.entities.removeAll { $0.entity == "List" }
        diff = try Self.diff(a, b, verify: true)
        #expect(diff.isEqual)
        #expect(
            diff.entities.first { $0.entity == "List" }
                == GraphDiff.EntitySummary(
                    entity: "List", countA: 1,
                    compared: false))
        // diff (not verify) calls that a difference.
        #expect(try Self.diff(a, b).records.contains { $0.entity == "List" && $0.change == .onlyInA })
        a.entities.append(a.entities[2])
        #expect(throws: TaskInterchangeError.self) { try Self.diff(a, b) }
    }

    @Test("records named by their store's UUID and keys (as exports name them) join in key order; any other order too")
    func keyOrder() throws {
        func archive(_ titles: [Int: String]) -> Archive {
            Archive(
                header: ArchiveHeader(source: ArchiveHeader.Source(store: "s", storeUUID: "U", model: Self.model)),
                entities: titles.keys.sorted().map { key in
                    EntityRecord(
                        id: UUID.derived(storeUUID: "U", entity: "Note", primaryKey: Int64(key)), entity: "Note",
                        key: Int64(key), values: ["title": .string(titles[key]!)])
                })
        }
        let titles = Dictionary(uniqueKeysWithValues: (1...300).map { ($0, "note \($0)") })
        #expect(try Self.diff(archive(titles), archive(titles)).isEqual)
        var changed = titles
        changed[7] = "seven"
        changed[300] = nil
        var b = archive(changed)
        var diff = try Self.diff(archive(titles), b)
        #expect(diff.differenceCount == 2)
        #expect(diff.records.map(\.change) == [.changed, .onlyInA])
        #expect(diff.records.first?.fields == [.value("title", old: .string("note 7"), new: .string("seven"))])
        // The same records in id order (not key order): compared by id, with the same result.
        b.entities.sort { GraphKey($0.id) < GraphKey($1.id) }
        diff = try Self.diff(archive(titles), b)
        #expect(diff.differenceCount == 2)
        #expect(
            Set(diff.records.map(\.id)) == [
                UUID.derived(storeUUID: "U", entity: "Note", primaryKey: 7),
                UUID.derived(storeUUID: "U", entity: "Note", primaryKey: 300),
            ])
    }
}
