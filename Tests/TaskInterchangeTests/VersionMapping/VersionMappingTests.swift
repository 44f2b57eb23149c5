import Foundation
import Testing

@testable import TaskInterchange

/// The mapping between two model versions: what is inferred from names and renaming identifiers, how each value is
/// converted, filled or refused, and how overrides are checked.
@Suite("VersionMapping")
struct VersionMappingTests {
    /// Version 1 as an archive declares it: Note(title, count Integer 16, score Integer 64, flag Boolean, old, folder
    /// → Folder to-one, tags → Tag to-many), Folder(name), Tag(name).
    static let source: [String: EntityDeclaration] = [
        "Note": EntityDeclaration(
            attributes: [
                "title": "string", "count": "integer16", "score": "integer64", "flag": "boolean", "old": "string",
                "text": "string",
            ],
            relationships: [
                "folder": EntityRelationship(destination: "Folder", toMany: false, inverse: "notes"),
                "tags": EntityRelationship(destination: "Tag", toMany: true, inverse: "notes"),
            ]),
        "Folder": EntityDeclaration(attributes: ["name": "string"]),
        "Tag": EntityDeclaration(attributes: ["name": "string"]),
    ]

    /// Version 2: Note renamed Memo (renaming identifier), `title` renamed `heading`, `count` widened to Integer 32,
    /// `score` narrowed to Integer 32, `flag` now Integer 16, `old` removed, `text` now a Date (no lossless way),
    /// `folder` now to-many `folders`, `tags` now to-one, `pinned` added (Boolean, default YES), `kind` added and
    /// required without a default; Tag removed.
    static var target: ObjectModel {
        var memo = ObjectModel.Entity(
            "Memo",
            attributes: [
                ObjectModel.Attribute("heading", .string, optional: true),
                ObjectModel.Attribute("count", .integer32, optional: true),
                ObjectModel.Attribute("score", .integer32, optional: true),
                ObjectModel.Attribute("flag", .integer16, optional: true),
                ObjectModel.Attribute("text", .date, optional: true),
                ObjectModel.Attribute("pinned", .boolean, optional: true),
                ObjectModel.Attribute("kind", .string),
            ],
            relationships: [
                ObjectModel.Relationship("folders", to: "Folder", inverse: "memos", toMany: true),
                ObjectModel.Relationship("tags", to: "Folder", inverse: nil, toMany: false),
            ])
        memo.renamingIdentifier = "Note"
        memo.attributes[0].renamingIdentifier = "title"
        memo.attributes[5].defaultValue = "YES"
        memo.relationships[0].renamingIdentifier = "folder"
        return ObjectModel(entities: [
            memo,
            ObjectModel.Entity(
                "Folder", attributes: [ObjectModel.Attribute("name", .string, optional: true)],
                relationships: [ObjectModel.Relationship("memos", to: "Memo", inverse: "folders", toMany: true)]),
        ])
    }

    static func mapping(_ overrides: ModelChangeOverrides = ModelChangeOverrides()) throws -> VersionMapping {
        try VersionMapping(from: source, to: target, overrides: overrides)
    }

    @Test("a misfit cell becomes a plain value where a wider target type holds it, and stays the same cell elsewhere")
    func misfitWidened() {
        let cell = ExtraValue.stored(.integer(99_999_999))
        #expect(VersionMapping.converted(cell, to: "integer32") == .integer(99_999_999))
        #expect(VersionMapping.converted(cell, to: "integer16") == cell)
        #expect(
            VersionMapping.converted(.stored(.integer(99_999_999_999)), to: "integer32")
                == .stored(.integer(99_999_999_999)))
        #expect(VersionMapping.converted(.stored(.blob([1])), to: "integer64") == .stored(.blob([1])))
    }

    @Test("a model mapped onto itself is the identity, abstract entities included (no required NULL is filled)")
    func abstractIdentity() throws {
        var root = ObjectModel.Entity("Album", attributes: [ObjectModel.Attribute("title", .string, optional: true)])
        root.isAbstract = true
        var sub = ObjectModel.Entity("Folder", attributes: [ObjectModel.Attribute("depth", .integer64)])
        sub.superentity = "Album"
        let model = ObjectModel(entities: [root, sub])
        let mapping = try model.versionMapping(from: model)
        #expect(mapping.isIdentity)
        #expect(mapping.entities["Album"]?.target == "Album" && mapping.entities["Folder"]?.target == "Folder")
        // A concrete entity that became abstract still has nowhere to put its records.
        var concrete = root
        concrete.isAbstract = false
        let changed = try model.versionMapping(from: ObjectModel(entities: [concrete, sub]))
        #expect(changed.entities["Album"]?.target == nil && !changed.isIdentity)
    }

    @Test("entities and properties follow renaming identifiers; removed ones are dropped")
    func inference() throws {
        let mapping = try Self.mapping()
        let note = try #require(mapping.entities["Note"])
        #expect(note.target == "Memo")
        #expect(mapping.entities["Tag"]?.target == nil)
        #expect(mapping.entities["Folder"]?.isIdentity == true)
        #expect(note.properties["title"]?.target == "heading")
        #expect(note.properties["count"]?.change == .converted(from: "integer16", to: "integer32"))
        #expect(note.properties["flag"]?.change == .converted(from: "boolean", to: "integer16"))
        if case .dropped = note.properties["old"]?.change {} else { Issue.record("old is not dropped") }
        if case .refused = note.properties["text"]?.change {} else { Issue.record("text is not refused") }
        #expect(note.properties["folder"]?.target == "folders")
        #expect(note.properties["folder"]?.change == .toMany)
        #expect(mapping.identityNames == ["Memo": "Note"])
        #expect(mapping.targetDeclarations["Memo"]?.relationships["folders"]?.toMany == true)
        #expect(mapping.targetDeclarations["Memo"]?.attributes["heading"] == "string")
    }

    @Test("a record: renamed, converted, defaults filled, drops counted")
    func applying() throws {
        let mapping = try Self.mapping(ModelChangeOverrides(fill: ["Memo.kind": .string("note")]))
        var tally = VersionMapping.Tally()
        let folder = UUID().uuidString
        let record = EntityRecord(
            id: UUID(), entity: "Note", key: 3,
            values: [
                "title": .string("Hi"), "count": .integer(300), "score": .integer(70_000), "flag": .bool(true),
                "old": .string("gone"), "folder": .string(folder), "tags": .array([folder]),
            ])
        let mapped = try #require(try mapping.apply(record, path: "$.entities.Note[0]", tally: &tally))
        #expect(mapped.entity == "Memo")
        #expect(mapped.id == record.id)
        #expect(mapped.key == 3)
        #expect(
            mapped.values == [
                "heading": .string("Hi"), "count": .integer(300), "score": .integer(70_000), "flag": .integer(1),
                "folders": .array([folder]), "tags": .string(folder), "pinned": .bool(true), "kind": .string("note"),
            ])
        #expect(tally.droppedValues == ["Note.old": 1])
        #expect(tally.filledValues == ["Memo.pinned": 1, "Memo.kind": 1])
        #expect(tally.filledCount == 2)
        let tag = EntityRecord(id: UUID(), entity: "Tag", values: ["name": .string("x")])
        #expect(try mapping.apply(tag, path: "$.entities.Tag[0]", tally: &tally) == nil)
        #expect(tally.droppedRecords == ["Tag": 1])
    }

    @Test("refused: a value that does not fit, a lossy type change, several links into a to-one, no required value")
    func refusals() throws {
        let filled = try Self.mapping(ModelChangeOverrides(fill: ["Memo.kind": .string("note")]))
        var tally = VersionMapping.Tally()
        func refusal(_ values: [String: ExtraValue], _ mapping: VersionMapping) -> String? {
            do {
                _ = try mapping.apply(
                    EntityRecord(id: UUID(), entity: "Note", values: values), path: "$.entities.Note[4]", tally: &tally)
                return nil
            } catch {
                #expect(error.kind == .invalidData)
                return error.message
            }
        }
        #expect(refusal(["score": .integer(1 << 40)], filled)?.hasPrefix("$.entities.Note[4].values.score: ") == true)
        #expect(refusal(["text": .string("2024-01-01")], filled)?.contains("Memo.text is Date in the target") == true)
        #expect(refusal(["text": .null], filled) == nil)
        #expect(refusal(["tags": .array([UUID().uuidString, UUID().uuidString])], filled)?.contains("to-one") == true)
        #expect(refusal(["tags": .array([])], filled) == nil)
        #expect(refusal(["title": .string("x")], try Self.mapping())?.contains("Memo.kind is required") == true)
    }

    @Test("a record with several refused values is refused for the first by name, however its values are held")
    func firstRefusalByName() throws {
        let mapping = try Self.mapping(ModelChangeOverrides(fill: ["Memo.kind": .string("note")]))
        var messages: Set<String> = []
        // Dictionaries of other capacities list the same values in other orders.
        for capacity in 0..<24 {
            var values: [String: ExtraValue] = [:]
            values.reserveCapacity(capacity)
            let refused: [(String, ExtraValue)] = [
                ("text", .string("2024-01-01")), ("tags", .array([UUID().uuidString, UUID().uuidString])),
                ("score", .integer(1 << 40)),
            ]
            for (name, value) in capacity.isMultiple(of: 2) ? refused : refused.reversed() { values[name] = value }
            var tally = VersionMapping.Tally()
            do {
                _ = try mapping.apply(
                    EntityRecord(id: UUID(), entity: "Note", values: values), path: "$.entities.Note[4]", tally: &tally)
            } catch {
                messages.insert(String(error.message.prefix(while: { $0 != ":" })))
            }
        }
        #expect(messages == ["$.entities.Note[4].values.score"])
    }

    @Test("overrides rename and drop on purpose; an unknown name is a usage error with the closest")
    func overrides() throws {
        let mapping = try Self.mapping(
            ModelChangeOverrides(
                entities: ["Tag": "Folder", "Folder": nil], properties: ["Note.old": "kind", "Note.text": nil],
                fill: ["Memo.kind": .string("k")]))
        #expect(mapping.entities["Tag"]?.target == "Folder")
        #expect(mapping.entities["Folder"]?.isLeftOut == true)
        #expect(mapping.entities["Note"]?.properties["old"]?.target == "kind")
        #expect(mapping.entities["Note"]?.properties["text"]?.target == nil)
        for (overrides, message) in [
            (ModelChangeOverrides(entities: ["Nte": "Memo"]), "$.modelChange.entities.Nte: the archive's entity"),
            (ModelChangeOverrides(fill: ["Memo.knd": .string("x")]), "did you mean 'Memo.kind'?"),
            (ModelChangeOverrides(properties: ["Note.title": "headng"]), "did you mean 'Memo.heading'?"),
        ] {
            #expect {
                try Self.mapping(overrides)
            } throws: { error in
                guard let error = error as? TaskInterchangeError else { return false }
                return error.kind == .usage && error.message.contains(message)
            }
        }
    }

    @Test("an archive of a store without a model cache (column names, column types) maps onto the app's model")
    func columnNames() throws {
        let model = ObjectModel(entities: [
            ObjectModel.Entity(
                "User",
                attributes: [
                    ObjectModel.Attribute("userId", .uuid, optional: true),
                    ObjectModel.Attribute("displayName", .string, optional: true),
                    ObjectModel.Attribute("age", .integer16, optional: true),
                ])
        ])
        let source = [
            "User": EntityDeclaration(attributes: ["userid": "binary", "displayname": "string", "age": "integer64"])
        ]
        let mapping = try VersionMapping(from: source, to: model)
        var tally = VersionMapping.Tally()
        let id = UUID()
        let bytes = withUnsafeBytes(of: id.uuid) { Data($0) }.base64EncodedString()
        let record = EntityRecord(
            id: UUID(), entity: "User",
            values: ["userid": .string(bytes), "displayname": .string("Ann"), "age": .integer(41)])
        let mapped = try #require(try mapping.apply(record, path: "$.entities.User[0]", tally: &tally))
        #expect(
            mapped.values == ["userId": .string(id.uuidString), "displayName": .string("Ann"), "age": .integer(41)])
        #expect(tally.droppedNothing)
    }

    @Test("overrides that would lose values are usage errors: a fill of the wrong type, two sources into one target")
    func conflictingOverrides() throws {
        for (overrides, message) in [
            (
                ModelChangeOverrides(fill: ["Memo.pinned": .string("maybe")]),
                "$.modelChange.fill[\"Memo.pinned\"]: this value is not a Boolean value"
            ),
            (ModelChangeOverrides(fill: ["Memo.kind": .null]), "null is not a String value"),
            (ModelChangeOverrides(properties: ["Note.old": "heading"]), "Note.old and Note.title would both become"),
            (ModelChangeOverrides(entities: ["Tag": "Memo"]), "the archive's Note and Tag would both become"),
        ] {
            #expect {
                try Self.mapping(overrides)
            } throws: { error in
                guard let error = error as? TaskInterchangeError else { return false }
                return error.kind == .usage && error.message.contains(message)
            }
        }
        // A fill in another spelling of the same value is written as the attribute's type holds it.
        let mapping = try Self.mapping(
            ModelChangeOverrides(fill: ["Memo.kind": .string("k"), "Memo.pinned": .integer(0)]))
        #expect(mapping.entities["Note"]?.fills.first { $0.property == "pinned" }?.value == .bool(false))
    }

    @Test("values checked on the way: a URI that is not one; a required attribute's NULL kept and counted")
    func checkedValues() throws {
        #expect(VersionMapping.converted(.string("Landed in Lisbon; the tram"), to: "uri") == nil)
        #expect(VersionMapping.converted(.string("https://example.com/a"), to: "uri") != nil)
        var model = Self.target
        model.entities[0].attributes[1].isOptional = false
        let mapping = try VersionMapping(
            from: Self.source, to: model, overrides: ModelChangeOverrides(fill: ["Memo.kind": .string("k")]))
        var tally = VersionMapping.Tally()
        let mapped = try mapping.apply(
            EntityRecord(id: UUID(), entity: "Note", values: ["title": .string("x")]), path: "$.entities.Note[0]",
            tally: &tally)
        #expect(mapped?.values["count"] == nil)
        #expect(tally.requiredNulls == ["Memo.count": 1])
    }

    @Test("an override naming the side of a pair the archive does not carry applies to the side it carries")
    func otherSide() throws {
        let mapping = try Self.mapping(
            ModelChangeOverrides(properties: ["Folder.notes": nil], fill: ["Memo.kind": .string("k")]))
        if case .dropped(let reason)? = mapping.entities["Note"]?.properties["folder"]?.change {
            #expect(reason.hasPrefix("left out"))
        } else {
            Issue.record(
                "Note.folder is not left out: \(String(describing: mapping.entities["Note"]?.properties["folder"]))")
        }
        let renamed = try Self.mapping(
            ModelChangeOverrides(properties: ["Folder.notes": "memos"], fill: ["Memo.kind": .string("k")]))
        #expect(renamed.entities["Note"]?.properties["folder"]?.target == "folders")
    }

    @Test("defaults read as the archive spells values")
    func defaults() {
        #expect(VersionMapping.defaultValue("YES", type: "boolean") == .bool(true))
        #expect(VersionMapping.defaultValue("7", type: "integer16") == .integer(7))
        #expect(VersionMapping.defaultValue("70000", type: "integer16") == nil)
        #expect(VersionMapping.defaultValue("0.5", type: "double") == .double(0.5))
        #expect(VersionMapping.defaultValue("0", type: "date") == .string("2001-01-01T00:00:00Z"))
        #expect(VersionMapping.defaultValue("not a uuid", type: "uuid") == nil)
    }
}
