import Foundation
import TestTiers
import Testing

@testable import TaskInterchange

/// Random models — inheritance (abstract roots too), ordered and unordered to-many, many-to-many, one-to-one (on
/// sub-entities too), self relationships, relationships without an inverse, every attribute type — each with a random
/// graph of generic records: archive → JSON → new store (keeping identity) → archive must give back every record,
/// value, link, position and dangling key, and that archive → a second store must equal the first table for table
/// at the SQL level. A one-to-one's keys are filled on one side, on both (agreeing or not), or point at no row.
@Suite("Generic entities: random models", .tags(.slow))
struct GenericEntityPropertyTests {
    static let attributeTypes: [ObjectModel.AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binaryData, .uuid,
        .uri,
        .transformable,
    ]

    @Test(
        "random models and graphs round-trip through stores exactly (30 seeds; 120 in the slow tier)",
        arguments: 0..<UInt64(Tiers.count(30, slow: 120)))
    func roundTrip(seed: UInt64) throws {
        var random = SeededGenerator(state: seed &* 0x2545_F491_4F6C_DD1D)
        let model = Self.model(&random)
        let template = StoreTemplate(model: model)
        let directory = try TemporaryDirectory()
        try template.makeEmptyStore(at: directory.path("empty.sqlite"))
        let schema = try StoreSchema(
            reading: try Database(path: directory.path("empty.sqlite"), mode: .readOnly(immutable: false)),
            path: "empty.sqlite")
        let layout = GenericLayout(schema: schema, model: model, excluded: [])
        let original = Self.archive(layout: layout, schema: schema, &random)
        let json = try original.jsonData()
        let parsed = try Archive(json: json)
        #expect(parsed.entities == original.entities, "seed \(seed): JSON")

        var options = StoreImportOptions()
        options.template = template
        options.keepIdentity = true
        _ = try StoreImport.run(parsed, into: directory.path("a.sqlite"), options: options)
        let (read, findings) = try readStore(directory.path("a.sqlite"), model: model)
        // Dangling keys are carried and named, one finding per key; nothing else is a warning.
        let dangling = original.entities.reduce(0) { $0 + $1.dangling.count }
        #expect(
            findings.filter { $0.code == .danglingReference }.reduce(0) { $0 + $1.count } == dangling,
            "seed \(seed): \(findings)")
        #expect(
            findings.filter { $0.isWarning && $0.code != .danglingReference }.isEmpty, "seed \(seed): \(findings)")
        #expect(read.header.source?.storeUUID == original.header.source?.storeUUID, "seed \(seed)")
        #expect(read.header.source?.model == original.header.source?.model, "seed \(seed): declarations")
        let byID = Dictionary(uniqueKeysWithValues: original.entities.map { ($0.id, $0) })
        #expect(read.entities.count == original.entities.count, "seed \(seed)")
        for record in read.entities {
            #expect(record == byID[record.id], "seed \(seed): \(record.entity) \(record.key ?? 0)")
        }

        _ = try StoreImport.run(
            try Archive(json: try read.jsonData()), into: directory.path("b.sqlite"), options: options)
        #expect(
            try StoreTables.contents(of: directory.path("a.sqlite"))
                == StoreTables.contents(of: directory.path("b.sqlite")),
            "seed \(seed)")
    }

    @Test("the same random graphs rebuild in a MemoryDestination and come back as they went in", arguments: 0..<30)
    func memory(seed: UInt64) throws {
        var random = SeededGenerator(state: seed &* 0x2545_F491_4F6C_DD1D)
        let model = Self.model(&random)
        let directory = try TemporaryDirectory()
        try StoreTemplate(model: model).makeEmptyStore(at: directory.path("empty.sqlite"))
        let schema = try StoreSchema(
            reading: try Database(path: directory.path("empty.sqlite"), mode: .readOnly(immutable: false)),
            path: "empty.sqlite")
        let original = Self.archive(
            layout: GenericLayout(schema: schema, model: model, excluded: []), schema: schema, &random)
        var memory = MemoryDestination()
        let plan = try Importer().run(original, into: &memory)
        #expect(plan.entities.values.reduce(0) { $0 + $1.inserted } == original.entities.count)
        #expect(memory.archive.entities == original.entities, "seed \(seed)")
        // The memory keeps the declarations of the entities it received records of.
        for (entity, declaration) in memory.archive.header.source?.model ?? [:] {
            #expect(declaration == original.header.source?.model[entity], "seed \(seed): \(entity)")
        }
    }

    /// 1–5 entities (mixed-case names), some sub-entities of earlier ones, 0–4 attributes each (sibling entities
    /// sometimes share a name, so a shared table numbers their columns), 0–5 relationships of every shape (many-to-many
    /// ones sometimes under one name onto one entity, so their join columns are numbered, and ordered on both sides).
    static func model(_ random: inout SeededGenerator) -> ObjectModel {
        var entities: [ObjectModel.Entity] = []
        for index in 0..<Int.random(in: 1...5, using: &random) {
            let parent = index > 0 && Bool.random(using: &random) ? entities.randomElement(using: &random)?.name : nil
            let attributes = (0..<Int.random(in: 0...4, using: &random)).map { number in
                ObjectModel.Attribute(
                    Bool.random(using: &random) ? "shared\(number)" : "e\(index)a\(number)",
                    attributeTypes.randomElement(using: &random)!, optional: true)
            }
            let name = index % 2 == 0 ? "E\(index)" : "e\(index)x"
            entities.append(ObjectModel.Entity(name, superentity: parent, attributes: attributes))
        }
        // A shared name must not repeat within one lineage (a sub-entity cannot redeclare an inherited property).
        func lineage(_ index: Int) -> [Int] {
            var result = [index]
            while let parent = entities[result.last!].superentity,
                let found = entities.firstIndex(where: { $0.name == parent })
            {
                result.append(found)
            }
            return result
        }
        for index in entities.indices {
            let inherited = Set(lineage(index).dropFirst().flatMap { entities[$0].attributes.map(\.name) })
            entities[index].attributes = entities[index].attributes.map { attribute in
                var renamed = attribute
                if inherited.contains(attribute.name) { renamed.name = "e\(index)\(attribute.name)" }
                return renamed
            }
        }
        // A root with sub-entities is sometimes abstract: its records are all of sub-entities.
        for index in entities.indices where entities.contains(where: { $0.superentity == entities[index].name }) {
            entities[index].isAbstract = Int.random(in: 0..<4, using: &random) == 0
        }
        for number in 0..<Int.random(in: 0...5, using: &random) {
            let source = Int.random(in: 0..<entities.count, using: &random)
            let destination = Int.random(in: 0..<entities.count, using: &random)
            let (name, inverse) = ("r\(number)", "i\(number)")
            let target = entities[destination].name
            let origin = entities[source].name
            let ordered = Bool.random(using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0:  // one-to-many, the to-many side ordered or not
                entities[source].relationships.append(.init(name, to: target, inverse: inverse, toMany: false))
                entities[destination].relationships.append(
                    .init(inverse, to: origin, inverse: name, toMany: true, ordered: ordered))
            case 1:  // many-to-many, one side ordered, both or neither; often named "members" onto one entity
                let root = lineage(source).last!
                let tree = entities.indices.filter { lineage($0).last == root }
                let shared =
                    !tree.contains { entities[$0].relationships.contains { $0.name == "members" } }
                    && Bool.random(using: &random)
                let name = shared ? "members" : name
                let inverseOrdered = Bool.random(using: &random)
                entities[source].relationships.append(
                    .init(name, to: target, inverse: inverse, toMany: true, ordered: ordered))
                entities[destination].relationships.append(
                    .init(inverse, to: origin, inverse: name, toMany: true, ordered: inverseOrdered))
            case 2, 5:  // one-to-one (twice as likely: its sides are filled every way below)
                entities[source].relationships.append(.init(name, to: target, inverse: inverse, toMany: false))
                entities[destination].relationships.append(.init(inverse, to: origin, inverse: name, toMany: false))
            case 3:  // to-one without inverse
                entities[source].relationships.append(.init(name, to: target, inverse: nil, toMany: false))
            default:  // to-many without inverse
                entities[source].relationships.append(
                    .init(name, to: target, inverse: nil, toMany: true, ordered: ordered))
            }
        }
        return ObjectModel(entities: entities)
    }

    /// 0–6 records per concrete entity with random values and links; keys per table from 1, ids derived from them.
    static func archive(layout: GenericLayout, schema: StoreSchema, _ random: inout SeededGenerator) -> Archive {
        let storeUUID = UUID(
            uuidString: "00000000-0000-4000-8000-\(String(format: "%012X", random.next() & 0xFFFF_FFFF_FFFF))")!
            .uuidString
        var records: [EntityRecord] = []
        var nextKey: [String: Int64] = [:]
        for name in layout.names where !layout.entities[name]!.isAbstract {
            let entity = layout.entities[name]!
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let key = nextKey[entity.table, default: 1]
                nextKey[entity.table] = key + 1
                var record = EntityRecord(
                    id: UUID.derived(storeUUID: storeUUID, entity: name, primaryKey: key), entity: name, key: key)
                for attribute in entity.attributes where Int.random(in: 0..<5, using: &random) > 0 {
                    record.values[attribute.property] = value(of: attribute.type, &random)
                }
                records.append(record)
            }
        }
        // Destinations a relationship may use only once: a to-one on the other side (or a one-to-one) holds one owner.
        var taken: [String: Set<UUID>] = [:]
        // A many-to-many ordered on both sides travels from both: the side that does not name the join table holds
        // the same links, so it is derived from the other below (with positions of its own).
        func isDerived(_ relationship: GenericLayout.Relationship) -> Bool {
            guard case .joinTable(let direction) = relationship.storage, !direction.namesTable,
                relationship.declaration.ordered
            else { return false }
            return StoreRelationships.otherOrderColumn(of: direction, in: schema) != nil
        }
        for index in records.indices {
            let entity = layout.entities[records[index].entity]!
            for relationship in entity.relationships where !isDerived(relationship) {
                let candidates = records.filter {
                    isEntity($0.entity, kindOf: relationship.declaration.destination, in: layout)
                }
                let exclusive: Bool
                switch relationship.storage {
                case .destinationColumn: exclusive = true
                case .column(_, _, let mirror): exclusive = mirror != nil
                case .joinTable: exclusive = false
                }
                var free = candidates.filter { !(taken[relationship.property]?.contains($0.id) ?? false) }
                free.shuffle(using: &random)
                let chosen = Array(
                    free.prefix(
                        relationship.declaration.toMany
                            ? Int.random(in: 0...3, using: &random) : Int.random(in: 0...1, using: &random)))
                guard !chosen.isEmpty else { continue }
                if exclusive { taken[relationship.property, default: []].formUnion(chosen.map(\.id)) }
                if relationship.declaration.toMany {
                    let ids = chosen.map(\.id.uuidString)
                    records[index].values[relationship.property] = .array(
                        relationship.declaration.ordered ? ids : ids.sorted())
                    if relationship.declaration.ordered {
                        var position = Int64.random(in: 1...5_000, using: &random)
                        records[index].positions[relationship.property] = chosen.map { _ in
                            defer { position += Int64.random(in: 1...2_048, using: &random) }
                            return position
                        }
                    }
                } else {
                    records[index].values[relationship.property] = .string(chosen[0].id.uuidString)
                }
            }
        }
        let indexByID = Dictionary(uniqueKeysWithValues: records.indices.map { (records[$0].id, $0) })
        fillOneToOnes(&records, layout: layout, indexByID: indexByID, &random)
        for index in records.indices {
            for relationship in layout.entities[records[index].entity]!.relationships {
                guard case .joinTable(let direction) = relationship.storage, direction.namesTable,
                    let inverse = relationship.declaration.inverse,
                    case .array(let ids)? = records[index].values[relationship.property]
                else { continue }
                for id in ids {
                    let member = indexByID[UUID(uuidString: id)!]!
                    guard
                        let other = layout.entities[records[member].entity]!.relationships.first(where: {
                            $0.property == inverse
                        }), isDerived(other)
                    else { continue }
                    var list: [String] = []
                    if case .array(let existing)? = records[member].values[inverse] { list = existing }
                    list.append(records[index].id.uuidString)
                    records[member].values[inverse] = .array(list)
                    let last = records[member].positions[inverse]?.last ?? 0
                    records[member].positions[inverse, default: []].append(
                        last + Int64.random(in: 1...2_048, using: &random))
                }
            }
        }
        let header = ArchiveHeader(
            exportDate: Date(timeIntervalSinceReferenceDate: 0), generator: .init(name: "tasks", version: "test"),
            source: .init(store: "random.sqlite", storeUUID: storeUUID, model: layout.declarations))
        return Archive(header: header, entities: records.sorted { ($0.entity, $0.key ?? 0) < ($1.entity, $1.key ?? 0) })
    }

    /// Each side of a one-to-one was filled on its own above (so sides disagree, or one is empty); here about half of
    /// the links also get their other side pointing back (both sides agree), and about a quarter of the to-ones left
    /// empty get a key that points at no row (with a concrete entity's number when the store keeps one beside the key).
    static func fillOneToOnes(
        _ records: inout [EntityRecord], layout: GenericLayout, indexByID: [UUID: Int],
        _ random: inout SeededGenerator
    ) {
        for index in records.indices {
            for relationship in layout.entities[records[index].entity]!.relationships {
                guard case .column(_, _, .some) = relationship.storage, let inverse = relationship.declaration.inverse,
                    case .string(let id)? = records[index].values[relationship.property],
                    let member = indexByID[UUID(uuidString: id)!], records[member].values[inverse] == nil,
                    Bool.random(using: &random)
                else { continue }
                let owner = records[index].id.uuidString
                // The owner may be linked by one record only through the inverse.
                guard
                    !records.contains(where: { $0.values[inverse] == .string(owner) && $0.dangling[inverse] == nil })
                else { continue }
                records[member].values[inverse] = .string(owner)
            }
        }
        for index in records.indices {
            for relationship in layout.entities[records[index].entity]!.relationships {
                guard case .column(_, let entityColumn, _) = relationship.storage,
                    records[index].values[relationship.property] == nil, Int.random(in: 0..<4, using: &random) == 0
                else { continue }
                let named =
                    entityColumn == nil
                    ? nil
                    : layout.names.filter {
                        isEntity($0, kindOf: relationship.declaration.destination, in: layout)
                            && !layout.entities[$0]!.isAbstract
                    }
                    .randomElement(using: &random)
                records[index].dangling[relationship.property] = EntityRecord.DanglingKey(
                    key: Int64.random(in: 10_000...20_000, using: &random), entity: named)
            }
        }
    }

    static func isEntity(_ entity: String, kindOf ancestor: String, in layout: GenericLayout) -> Bool {
        EntityDeclaration.isEntity(entity, kindOf: ancestor, limit: layout.entities.count) {
            layout.entities[$0]?.superentity
        }
    }

    /// A value of a model type, in the encoding `extra` uses, that survives a store exactly.
    static func value(of type: String, _ random: inout SeededGenerator) -> ExtraValue {
        switch type {
        case "integer16": return .integer(Int64(Int16.random(in: .min ... .max, using: &random)))
        case "integer32": return .integer(Int64(Int32.random(in: .min ... .max, using: &random)))
        case "integer64": return .integer(Int64.random(in: .min ... .max, using: &random))
        case "decimal":
            return .string(
                Bool.random(using: &random)
                    ? String(Int64.random(in: -99_999...99_999, using: &random))
                    : String(Double(Int.random(in: -9_999...9_999, using: &random)) + 0.25))
        case "double":
            return .double(
                Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF | 1) * (Bool.random(using: &random) ? 1 : -1))
        case "float": return .double(Double(Float.random(in: -1e6...1e6, using: &random)) + 0.5)
        case "boolean": return .bool(Bool.random(using: &random))
        case "date":
            return .string(
                try! LosslessDate.string(
                    from: Date(timeIntervalSinceReferenceDate: Double.random(in: -4e9...4e9, using: &random))))
        case "uuid":
            return .string(
                UUID(
                    uuidString:
                        "\(String(format: "%08X", UInt32.random(in: 0 ... .max, using: &random)))"
                        + "-1234-4ABC-8DEF-0123456789AB"
                )!.uuidString)
        case "binary", "transformable":
            return .string(
                Data(
                    (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0 ... .max, using: &random)
                    }
                ).base64EncodedString())
        default:
            let alphabet = Array("aZ 09\"\\\n\té中🙂-")
            return .string(
                String(
                    (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
    }
}

/// A many-to-many ordered on both sides, updated in place: each side's records rewrite their own positions and keep
/// the other side's for the links that stay.
@Suite("Generic entities: both sides ordered, upserted")
struct BothSidesOrderedTests {
    @Test("upsert reverses one side's order; the other side's positions stay, removed links go")
    func upsertKeepsOtherSide() throws {
        let model = ObjectModel(entities: [
            ObjectModel.Entity(
                "Album", attributes: [],
                relationships: [.init("songs", to: "Song", inverse: "albums", toMany: true, ordered: true)]),
            ObjectModel.Entity(
                "Song", attributes: [],
                relationships: [.init("albums", to: "Album", inverse: "songs", toMany: true, ordered: true)]),
        ])
        let directory = try TemporaryDirectory()
        let template = StoreTemplate(model: model)
        let storeUUID = "00000000-0000-4000-8000-000000000001"
        func id(_ entity: String, _ key: Int64) -> UUID {
            UUID.derived(storeUUID: storeUUID, entity: entity, primaryKey: key)
        }
        func archive(albumSongs: [Int64]) -> Archive {
            let album = EntityRecord(
                id: id("Album", 1), entity: "Album", key: 1,
                values: ["songs": .array(albumSongs.map { id("Song", $0).uuidString })],
                positions: ["songs": albumSongs.indices.map { Int64(2048 + 1024 * $0) }])
            let songs = (1...3).map { key in
                EntityRecord(
                    id: id("Song", key), entity: "Song", key: key,
                    values: albumSongs.contains(key) ? ["albums": .array([id("Album", 1).uuidString])] : [:],
                    positions: albumSongs.contains(key) ? ["albums": [5000 + key]] : [:])
            }
            let directory = try! TemporaryDirectory()
            try! StoreTemplate(model: model).makeEmptyStore(at: directory.path("empty.sqlite"))
            let schema = try! StoreSchema(
                reading: try! Database(path: directory.path("empty.sqlite"), mode: .readOnly(immutable: false)),
                path: "empty.sqlite")
            let layout = GenericLayout(schema: schema, model: model, excluded: [])
            return Archive(
                header: ArchiveHeader(
                    exportDate: Date(timeIntervalSinceReferenceDate: 0), generator: .init(name: "tasks", version: "t"),
                    source: .init(store: "s.sqlite", storeUUID: storeUUID, model: layout.declarations)),
                entities: [album] + songs)
        }
        var options = StoreImportOptions()
        options.template = template
        options.keepIdentity = true
        let path = directory.path("a.sqlite")
        _ = try StoreImport.run(archive(albumSongs: [1, 2, 3]), into: path, options: options)
        var upsert = StoreImportOptions()
        upsert.mode = .upsert
        // The album now lists songs 3 and 1 (2 left it); the songs keep their own positions of the album.
        _ = try StoreImport.run(archive(albumSongs: [3, 1]), into: path, options: upsert)
        let rows = try Database(path: path, mode: .readOnly(immutable: false)).rows(
            "SELECT * FROM Z_1SONGS ORDER BY 1, 2")
        let table = rows.map { $0.map { $0.int64 ?? -1 } }
        // Columns: album key, song key, the songs' positions of the album, the album's positions of its songs.
        #expect(table.count == 2, "\(table)")
        let bySong = Dictionary(uniqueKeysWithValues: table.map { ($0[1], $0) })
        #expect(bySong[3]?[3] == 2048 && bySong[1]?[3] == 3072, "\(table)")
        #expect(bySong[3]?[2] == 5003 && bySong[1]?[2] == 5001, "\(table)")
    }
}
